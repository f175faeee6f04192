// Outward-rounded double intervals; see include/engine/tempcert/dinterval.hpp for
// the contract and proofs/double-filter.md for the error bounds used.
#include "tempcert/dinterval.hpp"
#include "tempcert/error.hpp"

#include <gmp.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>

namespace tempcert {

namespace {

double step_down_k(double x, int k) {
    for (int i = 0; i < k; ++i)
        x = step_down(x);
    return x;
}
double step_up_k(double x, int k) {
    for (int i = 0; i < k; ++i)
        x = step_up(x);
    return x;
}

// Product of two endpoints, with 0 * inf read as 0 (the endpoint inf
// stands for "unbounded", and 0 times any finite value is 0).
double prod(double a, double b) {
    if (a == 0 || b == 0) return 0;
    return a * b;
}

} // namespace

DInterval to_dinterval(const Rational &q) {
    mpq_srcptr raw = q.backend().data();
    double d = mpq_get_d(raw); // truncates toward zero
    if (std::isinf(d) || std::isnan(d)) return DInterval::entire();
    if (mpz_cmp_ui(mpq_denref(raw), 1) == 0 || d != 0) {
        mpq_t back;
        mpq_init(back);
        mpq_set_d(back, d);
        bool exact = mpq_equal(back, raw) != 0;
        mpq_clear(back);
        if (exact) return DInterval::point(d);
    }
    return {step_down(d), step_up(d)};
}

DInterval enclose(const Rational &q) {
    mpq_srcptr raw = q.backend().data();
    const double d = mpq_get_d(raw); // truncates toward zero
    if (!std::isfinite(d)) return DInterval::entire();
    if (mpz_cmp_ui(mpq_denref(raw), 1) == 0 && mpz_sizeinbase(mpq_numref(raw), 2) <= 53)
        return DInterval::point(d);
    return {step_down(d), step_up(d)};
}

DInterval to_dinterval(const Interval &x) {
    if (!x.is_finite()) return DInterval::entire();
    mpfr_t e;
    mpfr_init2(e, x.prec());
    mpfi_get_left(e, x.raw());
    double lo = mpfr_get_d(e, MPFR_RNDD);
    mpfi_get_right(e, x.raw());
    double hi = mpfr_get_d(e, MPFR_RNDU);
    mpfr_clear(e);
    return {lo, hi};
}

DInterval operator*(DInterval a, DInterval b) {
    if (a.lo >= 0 && b.lo >= 0) // the common case: weights and exps
        return {step_down(prod(a.lo, b.lo)), step_up(prod(a.hi, b.hi))};
    double p[4] = {prod(a.lo, b.lo), prod(a.lo, b.hi), prod(a.hi, b.lo), prod(a.hi, b.hi)};
    for (double x : p)
        if (std::isnan(x)) return {x, x};
    return {step_down(*std::min_element(p, p + 4)), step_up(*std::max_element(p, p + 4))};
}

DInterval operator/(DInterval a, DInterval b) {
    if (b.lo <= 0 && b.hi >= 0) return DInterval::entire();
    double p[4] = {a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi};
    for (double x : p)
        if (std::isnan(x)) return {x, x};
    return {step_down(*std::min_element(p, p + 4)), step_up(*std::max_element(p, p + 4))};
}

DInterval exp(DInterval a) {
    if (a.is_nan()) return a;
    double lo = std::exp(a.lo);
    double hi = a.hi == a.lo ? lo : std::exp(a.hi);
    return {std::max(0.0, step_down_k(lo, kLibmUlps)), step_up_k(hi, kLibmUlps)};
}

DInterval expm1(DInterval a) {
    if (a.is_nan()) return a;
    double lo = std::expm1(a.lo);
    double hi = a.hi == a.lo ? lo : std::expm1(a.hi);
    return {std::max(-1.0, step_down_k(lo, kLibmUlps)), step_up_k(hi, kLibmUlps)};
}

DInterval abs(DInterval a) {
    if (a.lo >= 0) return a;
    if (a.hi <= 0) return -a;
    return {0, std::max(-a.lo, a.hi)};
}

DInterval relu(DInterval a) {
    if (a.is_nan()) return a;
    return {std::max(0.0, a.lo), std::max(0.0, a.hi)};
}

DInterval share(DInterval e, DInterval r) {
    if (e.is_nan() || r.is_nan() || e.lo < 0 || r.lo < 0) return {0, 1};
    double lo_den = step_up(e.lo + r.hi);
    double lo = lo_den == 0 || std::isinf(lo_den) ? 0 : std::max(0.0, step_down(e.lo / lo_den));
    double hi_den = step_down(e.hi + r.lo);
    double hi = hi_den <= 0 || std::isinf(e.hi) ? 1 : std::min(1.0, step_up(e.hi / hi_den));
    return {lo, hi};
}

Tri less(DInterval a, DInterval b) {
    if (a.is_nan() || b.is_nan()) return Tri::Unknown;
    if (a.hi < b.lo) return Tri::True;
    if (a.lo >= b.hi) return Tri::False;
    return Tri::Unknown;
}

Tri less_equal(DInterval a, DInterval b) {
    if (a.is_nan() || b.is_nan()) return Tri::Unknown;
    if (a.hi <= b.lo) return Tri::True;
    if (a.lo > b.hi) return Tri::False;
    return Tri::Unknown;
}

Tri is_positive(DInterval a) {
    return less(DInterval::point(0), a);
}

Rational upper_exact(DInterval a) {
    if (!std::isfinite(a.hi)) throw Undecided("a filter's upper end is infinite or NaN");
    mpq_t q;
    mpq_init(q);
    mpq_set_d(q, a.hi);
    Rational r(q);
    mpq_clear(q);
    return r;
}

} // namespace tempcert
