// Double-precision intervals with outward rounding: the fast filter of
// docs/semantics.md and proofs/double-filter.md, in the style of CGAL's Interval_nt. Operations run
// in round-to-nearest and then step each endpoint one ulp outward, which is sound for the correctly
// rounded IEEE operations (+, -, *, /: the nearest double is within half an ulp of the exact
// result). exp and expm1 come from libm, which is not correctly rounded; their endpoints are
// stepped kLibmUlps ulps outward (proofs/double-filter.md gives the bound and
// tests/unit/test_dinterval.cpp checks it against MPFR).
//
// Enclosure contract, as for Interval: if each argument contains x_i, the
// result contains f(x_1, ...). A NaN endpoint (inf - inf, 0 * inf) makes
// the interval "not finite" and every predicate answers Unknown, so the
// caller falls back to the exact and MPFI path. Nothing here reads or
// changes the FPU rounding mode.
#pragma once

#include "tempcert/interval.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace tempcert {

// Ulps of outward widening after a libm exp or expm1. glibc documents at
// most 1 ulp for both on x86-64 and aarch64; 4 leaves a margin.
constexpr int kLibmUlps = 4;

// The next double below / above x (nextafter without the libm call).
// down(+inf) = DBL_MAX: a result that overflowed to +inf is >= DBL_MAX.
inline double step_down(double x) {
    if (!(x > -std::numeric_limits<double>::infinity())) return x; // -inf, NaN
    if (x == 0) return -std::numeric_limits<double>::denorm_min();
    auto bits = std::bit_cast<std::uint64_t>(x);
    return std::bit_cast<double>(x > 0 ? bits - 1 : bits + 1);
}
inline double step_up(double x) {
    if (!(x < std::numeric_limits<double>::infinity())) return x; // +inf, NaN
    auto bits = std::bit_cast<std::int64_t>(x);
    if (bits >= 0) return std::bit_cast<double>(bits + 1); // x >= +0
    if (bits == std::numeric_limits<std::int64_t>::min())
        return std::numeric_limits<double>::denorm_min(); // -0
    return std::bit_cast<double>(bits - 1);
}

struct DInterval {
    double lo = 0, hi = 0;

    static DInterval point(double x) { return {x, x}; } // x must be exact
    static DInterval entire() {
        return {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
    }
    bool finite() const { return std::isfinite(lo) && std::isfinite(hi); }
    bool is_nan() const { return std::isnan(lo) || std::isnan(hi); }
};

// Enclosures of exact values: a rational (nearest double, stepped out unless
// exact) and an MPFI interval (endpoints rounded down and up by MPFR).
DInterval to_dinterval(const Rational &q);
DInterval to_dinterval(const Interval &x);
// As to_dinterval(q) without allocating (the filter's per-query
// conversions): the double mpq_get_d truncates to, stepped outward unless q
// is an integer the double holds exactly. One ulp wider than to_dinterval
// for other exactly representable values.
DInterval enclose(const Rational &q);

inline DInterval operator+(DInterval a, DInterval b) {
    return {step_down(a.lo + b.lo), step_up(a.hi + b.hi)};
}
inline DInterval operator-(DInterval a, DInterval b) {
    return {step_down(a.lo - b.hi), step_up(a.hi - b.lo)};
}
inline DInterval operator-(DInterval a) {
    return {-a.hi, -a.lo};
}
DInterval operator*(DInterval a, DInterval b);
DInterval operator/(DInterval a, DInterval b); // b containing 0: entire line

// Sums where an exact zero stays exact (no widening of 0 + x).
inline DInterval add_exact_zero(DInterval a, DInterval b) {
    if (a.lo == 0 && a.hi == 0) return b;
    if (b.lo == 0 && b.hi == 0) return a;
    return a + b;
}

DInterval exp(DInterval a);
DInterval expm1(DInterval a);
DInterval abs(DInterval a);
DInterval relu(DInterval a);
// e / (e + r) for e, r >= 0, by its endpoints (as Interval's share()).
DInterval share(DInterval e, DInterval r);

Tri less(DInterval a, DInterval b);       // a < b
Tri less_equal(DInterval a, DInterval b); // a <= b
Tri is_positive(DInterval a);             // a > 0

// The exact rational value of the upper end (requires a finite hi).
Rational upper_exact(DInterval a);

} // namespace tempcert
