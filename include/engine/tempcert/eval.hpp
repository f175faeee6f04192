// Hard and soft evaluation of a model on one word (docs/model-format.md, docs/semantics.md).
//
// Hard evaluation is exact: rationals throughout, exact ties and maxima; a
// model with irrational features keeps exact what stays rational and decides
// comparisons on intervals, raising precision up to the cap, and throws
// Undecided rather than guess. Soft evaluation replaces every head by
// softmax at inverse temperature beta and propagates outward-rounded
// intervals through the layers.
#pragma once

#include "tempcert/beta.hpp"
#include "tempcert/limits.hpp"
#include "tempcert/model.hpp"
#include "tempcert/trace.hpp"
#include "tempcert/word.hpp"

namespace tempcert {

struct PrecisionPolicy {
    Prec start = kPrecStart;
    Prec cap = kPrecCapDefault;
    // When set, SIGINT and --time-limit are checked before every query, so
    // a long evaluation stops within a second (issue 13, item 8).
    const Limits *budget = nullptr;
};

// Exact hard trace. Throws Undecided if a comparison between irrational
// values stays undecided at `policy.cap`, InputError if a positional feature
// is undefined at some (j, n) (naming the feature's JSON path).
Trace evaluate_hard(const Model &m, const Word &w, const PrecisionPolicy &policy = {});

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

} // namespace tempcert
