// The two ways into the layerwise and perturbation arguments (the library
// tempcert_check_layerwise): the rest of the checker calls nothing else of
// it, so an exhaustive certificate's check trusts none of its code
// (proofs/certificate.md, Trusted base, By method).
#pragma once

#include "../model/json_source.hpp"
#include "tempcert/hard_eval.hpp"

namespace tempcert::check {

// `tempcert check` for layerwise certificates (proofs/layerwise.md,
// check_layerwise.cpp). Throws Reject naming the JSON path and both values
// at the first claim that does not hold; returns when every claim does.
void verify_layerwise(const OJson &cert, const Model &m, std::size_t n, const Rational &eps,
                      const std::string &criterion, const Limits &limits,
                      const PrecisionPolicy &policy);

// The same for the perturbation argument (proofs/perturbation.md, method
// "layerwise-perturbation"; check_perturbation.cpp).
void verify_perturbation(const OJson &cert, const Model &m, std::size_t n, const Rational &eps,
                         const std::string &criterion, const Limits &limits,
                         const PrecisionPolicy &policy);

} // namespace tempcert::check
