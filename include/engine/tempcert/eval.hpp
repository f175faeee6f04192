// Soft evaluation of a model on one word (docs/model-format.md,
// docs/semantics.md): every head replaced by softmax at inverse temperature
// beta, outward-rounded intervals propagated through the layers. Hard
// evaluation, which the checker shares, is in tempcert/hard_eval.hpp.
#pragma once

#include "tempcert/hard_eval.hpp"

#include <functional>
#include <optional>

namespace tempcert {

struct SoftOptions {
    PrecisionPolicy precision;
    // Precision is raised until every weight interval is narrower than this.
    Rational target_width = Rational(1, Integer("1000000000000000000000000000000"));
};

// Soft trace at inverse temperature `beta` (per layer). `hard` is the hard
// trace of the same word, used for the per-query TV. If the target width is
// not reached at the cap the trace is returned with width_reached = false.
Trace evaluate_soft(const Model &m, const Word &w, const BetaSpec &beta, const Trace &hard,
                    const SoftOptions &options = {});

// One soft evaluation at working precision `prec` (no precision loop);
// width_reached tells whether every weight is narrower than `width`.
// Throws Undecided when a beta or feature cannot be decided at `prec`.
Trace evaluate_soft_at(const Model &m, const Word &w, const BetaSpec &beta, const Trace &hard,
                       Prec prec, const Rational &width = Rational(1),
                       const Limits *budget = nullptr);

// One head's extremes over a word's queries (eval --summary), in place of
// every query's scores and weights.
struct HeadExtremes {
    std::size_t queries = 0;         // queries with at least one allowed position
    std::optional<Real> least_gap;   // hard: the finite gap with the least lower end
    std::size_t least_gap_query = 0; // its query's position (0: no finite gap)
    std::optional<Real> tv;          // soft: the TV with the greatest lower end
    std::size_t tv_query = 0;        // its query's position
    std::optional<Real> tv_max;      // an enclosure of the largest TV over all queries
};

// A verdict on one soft query (layer and head 1-based). Called from several
// threads at once: it must not write shared state.
using QueryVerdict =
    std::function<Tri(std::size_t layer, std::size_t head, const QueryTrace &soft)>;

// One soft query a QueryVerdict judged, and where.
struct JudgedQuery {
    std::size_t layer = 0, head = 0;
    QueryTrace query;
};

// A word evaluated without keeping its trace: per head the extremes above,
// and the read-outs. Memory O(n (d + heads)) where a Trace holds every
// query's weights, O(n^2) per head.
struct EvalSummary {
    std::size_t n = 0;
    std::vector<std::vector<HeadExtremes>> heads; // [layer][head]
    Trace hard;                                   // read-outs only: no layers
    std::optional<Trace> soft;                    // read-outs, prec, width_reached
    // With a QueryVerdict: the first soft query, in layer, head and query
    // order, judged False, and the first judged Unknown before it or, with
    // none False, at all. A False one ends the pass: the extremes are then
    // partial and the read-outs left out.
    std::optional<JudgedQuery> failing, undecided;
};

// Hard and (with `beta`) soft evaluation in lockstep, one query at a time;
// the same primitives and precision loop as evaluate_hard and evaluate_soft,
// so every figure is the one their traces hold.
EvalSummary evaluate_summary(const Model &m, const Word &w, const std::optional<BetaSpec> &beta,
                             const SoftOptions &options = {});

// One such pass at working precision `prec` (no precision loop, no target
// width), every soft query handed to `verdict` (if given): certify_word's
// evaluation in O(n) memory. Throws Undecided as evaluate_soft_at does.
EvalSummary evaluate_summary_at(const Model &m, const Word &w, const BetaSpec &beta, Prec prec,
                                const Limits *budget, const QueryVerdict *verdict);

} // namespace tempcert
