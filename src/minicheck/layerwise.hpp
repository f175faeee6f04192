// The claims of a layerwise certificate (docs/certificates.md, "Fields of a
// layerwise certificate"; the argument: proofs/layerwise.md), re-derived
// by the small checker's own walk over the layers: the hard values each
// layer can receive, every head's least gap over them (value_gap.hpp), N,
// Lemma GT's bound, beta at every length, the soft radii, every ReLU's
// phase on its box, the perturbed coordinates and the read-out's exactness.
// Counting heads are re-derived on their lattice (counts.hpp), heads
// judged by their profile query by query (offers.hpp).
#pragma once

#include "claims.hpp"

namespace minicheck {

std::string verify_layerwise(const Json &cert, const Model &m, const Limits &limits);

} // namespace minicheck
