// `tempcert check` for certificates of the perturbation argument
// (proofs/perturbation.md, method "layerwise-perturbation"): every bound is
// re-derived by the checker's own code from the model and the previous
// claims; nothing is shared with src/certify/.
#pragma once

#include "../model/json_source.hpp"
#include "tempcert/hard_eval.hpp"

namespace tempcert::check {

// Throws Reject naming the JSON path at the first claim that does not hold.
void verify_perturbation(const OJson &cert, const Model &m, std::size_t n, const Rational &eps,
                         const std::string &criterion, const Limits &limits,
                         const PrecisionPolicy &policy);

} // namespace tempcert::check
