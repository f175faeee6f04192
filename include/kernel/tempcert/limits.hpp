// Resource limits checked before work starts (docs/commands.md). Each has a
// command-line option; reaching one is exit 3 naming the option, and a
// model or input beyond one is rejected before any evaluation.
#pragma once

#include "tempcert/run.hpp"

#include <cstddef>
#include <cstdint>

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
    // The run this work belongs to: its deadline, interrupt flag, threads,
    // progress and inputs. nullptr (library use): no deadline, never
    // interrupted, one thread, no progress, inputs not recorded.
    Run *run = nullptr;

    unsigned threads() const { return run ? run->threads : 1; }
    // Reports enumeration progress to the run, if it wants it.
    void progress(std::uint64_t done, std::uint64_t total) const {
        if (run && run->progress) run->progress(done, total);
    }
};

constexpr unsigned kMaxThreads = 256;

// Thrown by check_budget when the run is interrupted (SIGINT).
struct Interrupted {};

// Throws LimitError when the run's wall-clock budget is spent and
// Interrupted when the run was interrupted. Cheap: call it between words or queries.
void check_budget(const Limits &limits);

} // namespace tempcert
