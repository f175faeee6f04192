// Hard evaluation of a model on one word (docs/model-format.md,
// docs/semantics.md): the half of evaluation the checker trusts; soft
// evaluation is the engine's (tempcert/eval.hpp).
//
// Hard evaluation is exact: rationals throughout, exact ties and maxima; a
// model with irrational features keeps exact what stays rational and decides
// comparisons on intervals, raising precision up to the cap, and throws
// Undecided rather than guess.
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
    // a long evaluation stops within a second (docs/reliability.md, Long steps obey Ctrl-C).
    const Limits *budget = nullptr;
};

// Exact hard trace. Throws Undecided if a comparison between irrational
// values stays undecided at `policy.cap`, InputError if a positional feature
// is undefined at some (j, n) (naming the feature's JSON path).
Trace evaluate_hard(const Model &m, const Word &w, const PrecisionPolicy &policy = {});

} // namespace tempcert
