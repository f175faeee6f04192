// Positional features affine in the position at one length (numbers, j, n,
// + - *, division by a non-zero value that does not depend on j, integer
// powers of such values, delta of such values): the symbolic analysis's
// position tables are then Q x0 + j Q dx, two products per head and length
// instead of one feature evaluation and three products per position.
#pragma once

#include "tempcert/model.hpp"

#include <optional>
#include <utility>

namespace tempcert::detail {

// a + b j, exactly.
struct AffineInJ {
    Rational a, b;
};

// expr's value at (j, n) as a + b j for every j, or nullopt where that is
// not shown by the rules above (log, sqrt, j in a divisor, products of two
// terms in j, a zero divisor: the caller evaluates each position, which
// reports domain errors as it always does).
std::optional<AffineInJ> affine_in_j(const Expr &expr, const Rational &n);

// The positional part of x^(0) (embedding left out) as x0 + j dx at length
// n, when every feature is affine in j there; nullopt otherwise.
std::optional<std::pair<Vector, Vector>> affine_positions(const Model &m, std::size_t n);

} // namespace tempcert::detail
