// Minimum gaps of a model's heads over all inputs up to length n, with
// witnesses, and the unique-hard tie check (docs/semantics.md).
#pragma once

#include "tempcert/mask.hpp"

#include "tempcert/enumerate.hpp"
#include "tempcert/eval.hpp"
#include "tempcert/limits.hpp"

#include <optional>
#include <string>

namespace tempcert {

// Where a gap or a tie was seen.
struct Witness {
    Word word;
    std::size_t layer = 0, head = 0, query = 0; // 1-based layer/head; query a position
    std::vector<std::size_t> argmax;
    std::optional<std::size_t> runner_up;
};

struct HeadGap {
    std::size_t layer = 0, head = 0; // 1-based
    AttnKind kind = AttnKind::Average;
    Mask mask = Mask::None;
    std::optional<Real> min_gap;    // nullopt: +infinity (no query ever has a gap)
    std::optional<Witness> witness; // the first word (in enumeration order) attaining it
    // A unique-hard query whose tied positions carry different values: such a
    // head cannot be simulated by softmax (docs/semantics.md). First offending word.
    std::optional<Witness> tie;
    std::size_t max_allowed = 0; // N: most allowed positions of any query, lengths 1..n
};

// How a gap report was found; to_string gives the name --json and
// certificates carry.
enum class GapMethod {
    Exhaustive,       // "exhaustive": every word, evaluated whole
    ExhaustivePrefix, // "exhaustive-prefix": every word, prefixes shared
    Symbolic,         // "symbolic": first-layer heads, no enumeration
    Layerwise,        // "layerwise": per-layer value sets (tight beyond
                      // enumeration); no word attains its gaps
};
const char *to_string(GapMethod m);

struct GapReport {
    std::vector<HeadGap> heads;
    std::optional<Real> min_gap; // over all heads; nullopt = +infinity
    GapMethod method = GapMethod::Exhaustive;
    std::uint64_t words = 0; // words visited (0 for symbolic)
};

// Updates `report` with the gaps and ties of one hard trace.
void record_gaps(GapReport &report, const Trace &hard, const Word &w, const Model &m, Prec prec);

// An empty report with one entry per head (N filled in for length n).
GapReport empty_gap_report(const Model &m, std::size_t n);

// Plain path: evaluate_hard on every word of length 1..n (the order of
// enumerate.hpp). Checks the --max-words budget first.
GapReport min_gaps_plain(const Model &m, std::size_t n, const Limits &limits,
                         const PrecisionPolicy &policy);

// Prefix-sharing path (same report, method "exhaustive-prefix"), or nullopt
// when the model does not allow it (see src/eval/prefix_eval.hpp).
std::optional<GapReport> min_gaps_prefix(const Model &m, std::size_t n, const Limits &limits);

// Prefix sharing when it applies, the plain path otherwise.
GapReport min_gaps_exhaustive(const Model &m, std::size_t n, const Limits &limits,
                              const PrecisionPolicy &policy);

} // namespace tempcert
