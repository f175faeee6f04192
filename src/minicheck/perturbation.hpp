// The claims of a perturbation certificate (docs/certificates.md; the
// argument: proofs/perturbation.md), re-derived by the small checker's own
// walk over the layers: value sets and least gaps as for layerwise ones
// (value_sets.hpp), then per head the score deviation, the TV bound
// X/(1+X) + tanh(beta e/2) enclosed in MPFI, the half-activation's radius,
// the feed-forward sublayer's deviation with its kinks, and the read-out's
// deviation and margin. Every claimed bound must be at least what the
// proof's formula gives from the previous claims.
#pragma once

#include "claims.hpp"

namespace minicheck {

std::string verify_perturbation(const Json &cert, const Model &m, const Limits &limits);

} // namespace minicheck
