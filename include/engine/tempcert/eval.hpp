// Soft evaluation of a model on one word (docs/model-format.md,
// docs/semantics.md): every head replaced by softmax at inverse temperature
// beta, outward-rounded intervals propagated through the layers. Hard
// evaluation, which the checker shares, is in tempcert/hard_eval.hpp.
#pragma once

#include "tempcert/hard_eval.hpp"

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

} // namespace tempcert
