// `tempcert check` for layerwise certificates (proofs/layerwise.md): the
// argument is recomputed from the model by this file's own code (value sets,
// every head's minimum gap by the closed form for scores affine in the
// position, ties, Lemma GT, soft radii, ReLU phases, perturbed coordinates)
// and compared with the certificate's claims. Nothing is shared with
// src/certify/ or src/gap/.
#pragma once

#include "../model/json_source.hpp"
#include "tempcert/eval.hpp"

namespace tempcert::check {

// Throws Reject naming the JSON path and both values at the first claim
// that does not hold; returns when every claim does.
void verify_layerwise(const OJson &cert, const Model &m, std::size_t n, const Rational &eps,
                      const std::string &criterion, const Limits &limits,
                      const PrecisionPolicy &policy);

} // namespace tempcert::check
