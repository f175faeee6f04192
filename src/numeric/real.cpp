// Exact-or-interval reals: see include/kernel/tempcert/real.hpp for the contract.
#include "tempcert/real.hpp"

#include <climits>
#include <cmath>
#include <numeric>
#include <optional>

namespace tempcert {

namespace {

using i64 = std::int64_t;

// The reduced small rational n/d (d != 0), or nullopt when it does not fit.
std::optional<SmallRational> make_small(i64 n, i64 d) {
    if (n == INT64_MIN) return std::nullopt; // |n| must fit for gcd and negation
    if (d < 0) {
        if (n == INT64_MIN || d == INT64_MIN) return std::nullopt;
        n = -n;
        d = -d;
    }
    i64 g = std::gcd(n, d);
    if (g > 1) {
        n /= g;
        d /= g;
    }
    return SmallRational{n, d};
}

std::optional<SmallRational> to_small(const Rational &q) {
    mpq_srcptr r = q.backend().data();
    if (!mpz_fits_slong_p(mpq_numref(r)) || !mpz_fits_slong_p(mpq_denref(r))) return std::nullopt;
    return SmallRational{mpz_get_si(mpq_numref(r)), mpz_get_si(mpq_denref(r))};
}

Rational to_big(const SmallRational &s) {
    return Rational(s.num) / Rational(s.den);
}

// a/b + c/d, or nullopt on overflow.
std::optional<SmallRational> small_add(const SmallRational &a, const SmallRational &b) {
    i64 n1, n2, n, d;
    if (a.den == b.den) {
        if (__builtin_add_overflow(a.num, b.num, &n)) return std::nullopt;
        return make_small(n, a.den);
    }
    if (__builtin_mul_overflow(a.num, b.den, &n1) || __builtin_mul_overflow(b.num, a.den, &n2) ||
        __builtin_add_overflow(n1, n2, &n) || __builtin_mul_overflow(a.den, b.den, &d))
        return std::nullopt;
    return make_small(n, d);
}

std::optional<SmallRational> small_mul(const SmallRational &a, const SmallRational &b) {
    i64 n, d;
    if (__builtin_mul_overflow(a.num, b.num, &n) || __builtin_mul_overflow(a.den, b.den, &d))
        return std::nullopt;
    return make_small(n, d);
}

// sign of a - b, or nullopt on overflow (cross products compared)
std::optional<int> small_cmp(const SmallRational &a, const SmallRational &b) {
    i64 l, r;
    if (__builtin_mul_overflow(a.num, b.den, &l) || __builtin_mul_overflow(b.num, a.den, &r))
        return std::nullopt;
    return (l > r) - (l < r);
}

// Whether a value's exact form is known: exact, or an interval with a form.
bool formed(const Real &r) {
    return r.is_exact() || r.has_form();
}

// r's form without copying a stored one: the stored form, or `scratch`
// set to r's constant (r must be formed).
const Form &form_of(const Real &r, Form &scratch) {
    if (const Form *f = r.stored_form()) return *f;
    scratch = Form(r.exact());
    return scratch;
}

// The form of a - b when both forms are known (nullopt otherwise).
std::optional<Form> difference(const Real &a, const Real &b) {
    if (!formed(a) || !formed(b)) return std::nullopt;
    Form sa, sb;
    return sub(form_of(a, sa), form_of(b, sb));
}

} // namespace

Real::Real(Interval x, std::optional<Form> form) {
    std::optional<Rational> q = form ? form->constant() : std::nullopt;
    if (q)
        *this = Real(std::move(*q));
    else
        v_ =
            Enclosed{std::move(x), form ? std::make_shared<const Form>(std::move(*form)) : nullptr};
}

std::optional<Form> Real::form() const {
    if (is_exact()) return Form(exact());
    const auto &e = std::get<Enclosed>(v_);
    if (!e.form) return std::nullopt;
    return *e.form;
}

Real::Real(const Rational &q) {
    if (auto s = to_small(q))
        v_ = *s;
    else
        v_ = q;
}

Real::Real(Rational &&q) {
    if (auto s = to_small(q))
        v_ = *s;
    else
        v_ = std::move(q);
}

Rational Real::exact() const {
    if (auto s = small()) return to_big(*s);
    return std::get<Rational>(v_);
}

Interval Real::enclose(Prec prec) const {
    if (is_exact()) return Interval(exact(), prec);
    return *interval();
}

Real add(const Real &a, const Real &b, Prec prec) {
    if (a.small() && b.small())
        if (auto r = small_add(*a.small(), *b.small())) return *r;
    if (a.is_exact() && b.is_exact()) return Rational(a.exact() + b.exact());
    if (a.is_zero()) return b;
    if (b.is_zero()) return a;
    Interval x = add(a.enclose(prec), b.enclose(prec), prec);
    if (!formed(a) || !formed(b)) return x;
    Form sa, sb;
    return Real(std::move(x), add(form_of(a, sa), form_of(b, sb)));
}

Real sub(const Real &a, const Real &b, Prec prec) {
    if (a.small() && b.small() && b.small()->num != INT64_MIN)
        if (auto r = small_add(*a.small(), SmallRational{-b.small()->num, b.small()->den}))
            return *r;
    if (a.is_exact() && b.is_exact()) return Rational(a.exact() - b.exact());
    if (b.is_zero()) return a;
    Interval x = sub(a.enclose(prec), b.enclose(prec), prec);
    return Real(std::move(x), difference(a, b));
}

Real mul(const Real &a, const Real &b, Prec prec) {
    if (a.small() && b.small())
        if (auto r = small_mul(*a.small(), *b.small())) return *r;
    if (a.is_exact() && b.is_exact()) return Rational(a.exact() * b.exact());
    if (a.is_zero() || b.is_zero()) return Real(0L);
    if (a.is_exact()) return mul(b, a.exact(), prec);
    if (b.is_exact()) return mul(a, b.exact(), prec);
    Interval x = mul(*a.interval(), *b.interval(), prec);
    if (!formed(a) || !formed(b)) return x;
    Form sa, sb;
    return Real(std::move(x), mul(form_of(a, sa), form_of(b, sb)));
}

// Sign and unit tests on a GMP rational without the temporary that comparing
// with an integer literal builds (init, set, compare, clear: the hot loop's
// largest cost before, bench/RESULTS.md).
static bool is_zero_q(const Rational &q) {
    return mpq_sgn(q.backend().data()) == 0;
}
static bool is_one_q(const Rational &q) {
    mpq_srcptr r = q.backend().data();
    return mpz_cmp_ui(mpq_numref(r), 1) == 0 && mpz_cmp_ui(mpq_denref(r), 1) == 0;
}

Real mul(const Real &a, const Rational &q, Prec prec) {
    if (is_zero_q(q)) return Real(0L);
    if (a.small())
        if (auto qs = to_small(q))
            if (auto r = small_mul(*a.small(), *qs)) return *r;
    if (a.is_exact()) return Rational(a.exact() * q);
    if (is_one_q(q)) return a;
    Interval x = mul(*a.interval(), q, prec);
    if (!formed(a)) return x;
    Form sa;
    return Real(std::move(x), scale(form_of(a, sa), q));
}

Real relu(const Real &a, Prec prec) {
    if (auto s = a.small()) return s->num > 0 ? a : Real(0L);
    if (a.is_exact()) return a.exact() > 0 ? a : Real(0L);
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
    if (a.small() && b.small())
        if (auto c = small_cmp(*a.small(), *b.small())) return *c < 0 ? Tri::True : Tri::False;
    if (a.is_exact() && b.is_exact()) return a.exact() < b.exact() ? Tri::True : Tri::False;
    if (auto d = difference(a, b))
        if (auto c = d->constant()) return *c < 0 ? Tri::True : Tri::False; // a - b is rational
    return less(a.enclose(prec), b.enclose(prec));
}

Tri equal(const Real &a, const Real &b, Prec prec) {
    if (a.small() && b.small()) // reduced: equal iff the same pair
        return a.small()->num == b.small()->num && a.small()->den == b.small()->den ? Tri::True
                                                                                    : Tri::False;
    if (a.is_exact() && b.is_exact()) return a.exact() == b.exact() ? Tri::True : Tri::False;
    if (auto d = difference(a, b))
        if (auto c = d->constant()) return *c == 0 ? Tri::True : Tri::False;
    // the forms decide nothing more: the intervals
    Interval x = a.enclose(prec), y = b.enclose(prec);
    if (less(x, y) == Tri::True || less(y, x) == Tri::True) return Tri::False;
    return Tri::Unknown;
}

Real min(const Real &a, const Real &b, Prec prec) {
    if (a.small() && b.small())
        if (auto c = small_cmp(*a.small(), *b.small())) return *c <= 0 ? a : b;
    if (a.is_exact() && b.is_exact()) return a.exact() < b.exact() ? a : b;
    if (auto d = difference(a, b))
        if (auto c = d->constant()) return *c <= 0 ? a : b; // a - b is rational
    Interval x = a.enclose(prec), y = b.enclose(prec);
    if (less(x, y) == Tri::True) return a;
    if (less(y, x) == Tri::True) return b;
    return min(x, y, prec);
}

Real max(const Real &a, const Real &b, Prec prec) {
    Real zero(0L);
    return sub(zero, min(sub(zero, a, prec), sub(zero, b, prec), prec), prec);
}

Tri is_positive(const Real &a, Prec prec) {
    return less(Real(0L), a, prec);
}

Real dot(const Vector &row, const RealVector &x, Prec prec) {
    Real sum(0L);
    for (std::size_t k = 0; k < row.size(); ++k)
        if (!is_zero_q(row[k]) && !x[k].is_zero()) sum = add(sum, mul(x[k], row[k], prec), prec);
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
