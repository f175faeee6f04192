// Every-n certificates (docs/certificates.md, proofs/every-n.md): a finite
// certificate at n0 - 1 for the queries before position n0, and the tail
// bound, re-derived here from the model, for every query at n0 or beyond at
// every length.
#pragma once

#include "claims.hpp"

namespace minicheck {

std::string verify_every_n(const Json &cert, const Model &m, const Limits &limits);

} // namespace minicheck
