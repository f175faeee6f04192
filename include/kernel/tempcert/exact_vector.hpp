// Exact vector arithmetic over the rationals, one definition for the engine
// and the checker (it is in the kernel, so tempcert-check links it).
#pragma once

#include "tempcert/rational.hpp"

namespace tempcert {

// sum over c < a.size() of a[c] b[c] (b at least as long as a); terms
// with a zero factor are skipped, not multiplied.
Rational dot(const Vector &a, const Vector &b);

// w x: one dot product per row of w.
Vector matvec(const Matrix &w, const Vector &x);

} // namespace tempcert
