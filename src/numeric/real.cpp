// Exact-or-interval reals: see include/tempcert/real.hpp for the contract.
#include "tempcert/real.hpp"

#include <cmath>

namespace tempcert {

Interval Real::enclose(Prec prec) const {
    if (is_exact()) return Interval(exact(), prec);
    return *interval();
}

Real add(const Real &a, const Real &b, Prec prec) {
    if (a.is_exact() && b.is_exact()) return Rational(a.exact() + b.exact());
    if (a.is_zero()) return b;
    if (b.is_zero()) return a;
    return add(a.enclose(prec), b.enclose(prec), prec);
}

Real sub(const Real &a, const Real &b, Prec prec) {
    if (a.is_exact() && b.is_exact()) return Rational(a.exact() - b.exact());
    if (b.is_zero()) return a;
    return sub(a.enclose(prec), b.enclose(prec), prec);
}

Real mul(const Real &a, const Real &b, Prec prec) {
    if (a.is_exact() && b.is_exact()) return Rational(a.exact() * b.exact());
    if (a.is_zero() || b.is_zero()) return Rational(0);
    if (a.is_exact()) return mul(b, a.exact(), prec);
    if (b.is_exact()) return mul(a, b.exact(), prec);
    return mul(*a.interval(), *b.interval(), prec);
}

Real mul(const Real &a, const Rational &q, Prec prec) {
    if (q == 0) return Rational(0);
    if (a.is_exact()) return Rational(a.exact() * q);
    if (q == 1) return a;
    return mul(*a.interval(), q, prec);
}

Real relu(const Real &a, Prec prec) {
    if (a.is_exact()) return a.exact() > 0 ? a : Real(Rational(0));
    const Interval &x = *a.interval();
    Tri pos = is_positive(x);
    if (pos == Tri::True) return a;
    if (less_equal(x, Rational(0)) == Tri::True) return Rational(0);
    // max(0, x) over an interval straddling 0 is [0, x.hi].
    Interval nonnegative(prec), r(prec);
    mpfi_interv_d(nonnegative.raw(), 0.0, HUGE_VAL);
    mpfi_intersect(r.raw(), x.raw(), nonnegative.raw());
    return r;
}

Tri less(const Real &a, const Real &b, Prec prec) {
    if (a.is_exact() && b.is_exact()) return a.exact() < b.exact() ? Tri::True : Tri::False;
    return less(a.enclose(prec), b.enclose(prec));
}

Tri equal(const Real &a, const Real &b, Prec prec) {
    if (a.is_exact() && b.is_exact()) return a.exact() == b.exact() ? Tri::True : Tri::False;
    Tri lt = less(a, b, prec), gt = less(b, a, prec);
    if (lt == Tri::True || gt == Tri::True) return Tri::False;
    return Tri::Unknown;
}

Real min(const Real &a, const Real &b, Prec prec) {
    if (a.is_exact() && b.is_exact()) return a.exact() < b.exact() ? a : b;
    Tri lt = less(a, b, prec);
    if (lt == Tri::True) return a;
    if (less(b, a, prec) == Tri::True) return b;
    return min(a.enclose(prec), b.enclose(prec), prec);
}

Tri is_positive(const Real &a, Prec prec) {
    return less(Real(0L), a, prec);
}

Real dot(const Vector &row, const RealVector &x, Prec prec) {
    Real sum(0L);
    for (std::size_t k = 0; k < row.size(); ++k)
        if (row[k] != 0 && !x[k].is_zero()) sum = add(sum, mul(x[k], row[k], prec), prec);
    return sum;
}

RealVector matvec(const Matrix &m, const RealVector &x, Prec prec) {
    RealVector out;
    out.reserve(m.size());
    for (const auto &row : m)
        out.push_back(dot(row, x, prec));
    return out;
}

std::string to_string(const Real &r, int digits) {
    if (r.is_exact()) return to_string(r.exact());
    return "[" + r.interval()->lower_decimal(digits) + ", " + r.interval()->upper_decimal(digits) +
           "]";
}

} // namespace tempcert
