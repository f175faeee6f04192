// Resource limits checked before work starts (docs/commands.md). Each has a
// command-line option; reaching one is exit 3 naming the option, and a
// model or input beyond one is rejected before any evaluation.
#pragma once

#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>

namespace tempcert {

struct Limits {
    std::size_t max_width = 4096;           // --max-width: residual, key and hidden widths
    std::size_t max_layers = 256;           // --max-layers
    std::size_t max_heads = 256;            // --max-heads: per layer
    std::size_t max_alphabet = 4096;        // --max-alphabet
    std::size_t max_number_chars = 2000;    // --max-number-chars: digits of one number
    std::size_t max_entries = 4000000;      // --max-entries: matrix entries in a model
    std::size_t max_file_bytes = 64u << 20; // --max-file-bytes
    std::size_t max_n = 100000;             // --max-n: input length
    std::size_t max_words = 20000000;       // --max-words: words an enumeration visits
    // --max-queries: query configurations (length, position, symbol) one
    // head's symbolic analysis may examine (layerwise runs one per head):
    // n |Sigma| for backward masks, about n^2 |Sigma| / 2 otherwise, each
    // counted at its cost: |Sigma|^2 symbol pairs (closed form) or |Sigma| n
    // offers (general scan).
    std::size_t max_queries = 1000000000;
    // --max-values: hard values one position may hold in the layerwise
    // method (its value sets); past it the method does not apply.
    std::size_t max_values = 100000;
    long prec_cap = 4096; // --prec-cap: bits
    // --time-limit: wall-clock budget; checked between units of work.
    std::optional<std::chrono::steady_clock::time_point> deadline;
    double time_limit_seconds = 0;
    // Set by the command line's SIGINT handler; nullptr in library use.
    const volatile std::sig_atomic_t *interrupted = nullptr;
    // Progress of an enumeration (words done, words in all); the command
    // line sets it only when stderr is a terminal.
    std::function<void(std::uint64_t, std::uint64_t)> progress;
    // --threads: workers for enumeration and symbolic analysis. Results,
    // witnesses and counts do not depend on it (see certify_prefix.cpp).
    unsigned threads = 1;
};

constexpr unsigned kMaxThreads = 256;

// Thrown by check_budget when the run is interrupted (SIGINT).
struct Interrupted {};

// Throws LimitError when the wall-clock budget is spent and Interrupted
// when SIGINT arrived. Cheap: call it between words or queries.
void check_budget(const Limits &limits);

} // namespace tempcert
