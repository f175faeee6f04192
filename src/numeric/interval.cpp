// MPFI wrapper with explicit precision: see include/kernel/tempcert/interval.hpp for
// the enclosure contract. Endpoint arithmetic in share() uses MPFR with the
// rounding direction written at each call.
#include "tempcert/interval.hpp"
#include "tempcert/error.hpp"

#include <mpfr.h>

#include <cstdlib>
#include <memory>
#include <utility>

namespace tempcert {

const char *to_string(Tri t) {
    switch (t) {
    case Tri::True:
        return "true";
    case Tri::False:
        return "false";
    case Tri::Unknown:
        return "undecided";
    }
    return "undecided";
}

namespace {

// An MPFR scratch number that frees itself.
struct Fr {
    mpfr_t v;
    explicit Fr(Prec prec) { mpfr_init2(v, prec); }
    ~Fr() { mpfr_clear(v); }
    Fr(const Fr &) = delete;
    Fr &operator=(const Fr &) = delete;
};

// An end's exact value. An infinite or NaN end is never read as a number
// (mpfr_get_q gives 0 for it, which would make an unbounded enclosure look
// small): it is undecided.
Rational rational_of(mpfr_srcptr x) {
    if (!mpfr_number_p(x))
        throw Undecided("an interval end is infinite or NaN and cannot be read as a number");
    Rational q;
    mpfr_get_q(q.backend().data(), x);
    return q;
}

std::string decimal(mpfr_srcptr x, int digits, mpfr_rnd_t rnd) {
    if (mpfr_nan_p(x)) return "nan";
    if (mpfr_inf_p(x)) return mpfr_sgn(x) > 0 ? "inf" : "-inf";
    if (mpfr_zero_p(x)) return "0";
    mpfr_exp_t e10 = 0;
    char *raw = mpfr_get_str(nullptr, &e10, 10, static_cast<size_t>(digits), x, rnd);
    std::string s(raw);
    mpfr_free_str(raw);
    bool negative = s[0] == '-';
    if (negative) s.erase(0, 1);
    while (s.size() > 1 && s.back() == '0')
        s.pop_back();
    // value = 0.s * 10^e10
    std::string out;
    long e = static_cast<long>(e10);
    if (e > 21 || e < -7) {
        out = s.substr(0, 1);
        if (s.size() > 1) out += "." + s.substr(1);
        out += "e" + std::to_string(e - 1);
    } else if (e <= 0) {
        out = "0." + std::string(static_cast<size_t>(-e), '0') + s;
    } else if (static_cast<size_t>(e) >= s.size()) {
        out = s + std::string(static_cast<size_t>(e) - s.size(), '0');
    } else {
        out = s.substr(0, static_cast<size_t>(e)) + "." + s.substr(static_cast<size_t>(e));
    }
    return (negative ? "-" : "") + out;
}

} // namespace

Interval::Interval(Prec prec) {
    mpfi_init2(v_, prec);
    mpfi_set_si(v_, 0);
}
Interval::Interval(const Rational &q, Prec prec) {
    mpfi_init2(v_, prec);
    mpfi_set_q(v_, q.backend().data());
}
Interval::Interval(long v, Prec prec) {
    mpfi_init2(v_, prec);
    mpfi_set_si(v_, v);
}
Interval::Interval(const Interval &other) {
    mpfi_init2(v_, mpfi_get_prec(other.v_));
    mpfi_set(v_, other.v_);
}
Interval::Interval(Interval &&other) noexcept {
    mpfi_init2(v_, mpfi_get_prec(other.v_));
    mpfi_swap(v_, other.v_);
}
Interval &Interval::operator=(const Interval &other) {
    if (this != &other) {
        mpfi_set_prec(v_, mpfi_get_prec(other.v_));
        mpfi_set(v_, other.v_);
    }
    return *this;
}
Interval &Interval::operator=(Interval &&other) noexcept {
    mpfi_swap(v_, other.v_);
    return *this;
}
Interval::~Interval() {
    mpfi_clear(v_);
}

Interval Interval::hull(const Rational &lo, const Rational &hi, Prec prec) {
    Interval r(prec);
    mpfi_interv_q(r.v_, lo.backend().data(), hi.backend().data());
    return r;
}

Prec Interval::prec() const {
    return mpfi_get_prec(v_);
}

bool Interval::is_finite() const {
    return mpfi_bounded_p(v_) && !mpfi_nan_p(v_);
}

bool Interval::contains(const Rational &q) const {
    return is_finite() && mpfi_is_inside_q(q.backend().data(), v_) > 0;
}
bool Interval::contains(const Interval &inner) const {
    return is_finite() && inner.is_finite() && mpfi_is_inside(inner.v_, v_) > 0;
}

Rational Interval::lower_exact() const {
    Fr x(prec());
    mpfi_get_left(x.v, v_);
    return rational_of(x.v);
}
Rational Interval::upper_exact() const {
    Fr x(prec());
    mpfi_get_right(x.v, v_);
    return rational_of(x.v);
}
bool Interval::narrower_than(const Rational &w) const {
    if (!is_finite()) return false;
    // hi - lo rounded up (an upper bound of the width), compared in MPFR:
    // the endpoints' exact rationals could have denominators of 2^(10^9)
    // bits for weights near exp(-10^20) (proofs/softmax-enclosure.md)
    Fr lo(prec()), hi(prec()), width(prec() + 2);
    mpfi_get_left(lo.v, v_);
    mpfi_get_right(hi.v, v_);
    mpfr_sub(width.v, hi.v, lo.v, MPFR_RNDU);
    return mpfr_cmp_q(width.v, w.backend().data()) < 0;
}
std::string Interval::lower_decimal(int digits) const {
    Fr x(prec());
    mpfi_get_left(x.v, v_);
    return decimal(x.v, digits, MPFR_RNDD);
}
std::string Interval::upper_decimal(int digits) const {
    Fr x(prec());
    mpfi_get_right(x.v, v_);
    return decimal(x.v, digits, MPFR_RNDU);
}

Interval add(const Interval &a, const Interval &b, Prec prec) {
    Interval r(prec);
    mpfi_add(r.raw(), a.raw(), b.raw());
    return r;
}
Interval sub(const Interval &a, const Interval &b, Prec prec) {
    Interval r(prec);
    mpfi_sub(r.raw(), a.raw(), b.raw());
    return r;
}
Interval mul(const Interval &a, const Interval &b, Prec prec) {
    Interval r(prec);
    mpfi_mul(r.raw(), a.raw(), b.raw());
    return r;
}
Interval mul(const Interval &a, const Rational &q, Prec prec) {
    Interval r(prec);
    mpfi_mul_q(r.raw(), a.raw(), q.backend().data());
    return r;
}
Interval div(const Interval &a, const Interval &b, Prec prec) {
    Interval r(prec);
    mpfi_div(r.raw(), a.raw(), b.raw());
    return r;
}
Interval neg(const Interval &a) {
    Interval r(a.prec());
    mpfi_neg(r.raw(), a.raw());
    return r;
}
Interval abs(const Interval &a) {
    Interval r(a.prec());
    mpfi_abs(r.raw(), a.raw());
    return r;
}
Interval exp(const Interval &a, Prec prec) {
    Interval r(prec);
    mpfi_exp(r.raw(), a.raw());
    return r;
}
Interval expm1(const Interval &a, Prec prec) {
    Interval r(prec);
    mpfi_expm1(r.raw(), a.raw());
    return r;
}
Interval log(const Interval &a, Prec prec) {
    Interval r(prec);
    mpfi_log(r.raw(), a.raw());
    return r;
}
Interval sqrt(const Interval &a, Prec prec) {
    Interval r(prec);
    mpfi_sqrt(r.raw(), a.raw());
    return r;
}
Interval hull(const Interval &a, const Interval &b, Prec prec) {
    Interval r(prec);
    mpfi_union(r.raw(), a.raw(), b.raw());
    return r;
}

Interval min(const Interval &a, const Interval &b, Prec prec) {
    Fr alo(prec), ahi(prec), blo(prec), bhi(prec), lo(prec), hi(prec);
    mpfi_get_left(alo.v, a.raw());
    mpfi_get_right(ahi.v, a.raw());
    mpfi_get_left(blo.v, b.raw());
    mpfi_get_right(bhi.v, b.raw());
    mpfr_min(lo.v, alo.v, blo.v, MPFR_RNDD);
    mpfr_min(hi.v, ahi.v, bhi.v, MPFR_RNDU);
    Interval r(prec);
    mpfi_interv_fr(r.raw(), lo.v, hi.v);
    return r;
}

Interval share(const Interval &e, const Interval &rest, Prec prec) {
    Fr elo(prec), ehi(prec), rlo(prec), rhi(prec), den(prec), lo(prec), hi(prec);
    mpfi_get_left(elo.v, e.raw());
    mpfi_get_right(ehi.v, e.raw());
    mpfi_get_left(rlo.v, rest.raw());
    mpfi_get_right(rhi.v, rest.raw());
    Interval r(prec);
    if (!e.is_finite() || !rest.is_finite() || mpfr_sgn(elo.v) < 0 || mpfr_sgn(rlo.v) < 0) {
        mpfi_interv_si(r.raw(), 0, 1);
        return r;
    }
    // lower end: e.lo / (e.lo + r.hi), denominator up, quotient down
    mpfr_add(den.v, elo.v, rhi.v, MPFR_RNDU);
    if (mpfr_zero_p(den.v))
        mpfr_set_si(lo.v, 0, MPFR_RNDD);
    else
        mpfr_div(lo.v, elo.v, den.v, MPFR_RNDD);
    // upper end: e.hi / (e.hi + r.lo), denominator down, quotient up
    mpfr_add(den.v, ehi.v, rlo.v, MPFR_RNDD);
    if (mpfr_zero_p(den.v))
        mpfr_set_si(hi.v, 1, MPFR_RNDU);
    else
        mpfr_div(hi.v, ehi.v, den.v, MPFR_RNDU);
    if (mpfr_cmp_si(hi.v, 1) > 0) mpfr_set_si(hi.v, 1, MPFR_RNDU);
    mpfi_interv_fr(r.raw(), lo.v, hi.v);
    return r;
}

Tri less(const Interval &a, const Interval &b) {
    if (!a.is_finite() || !b.is_finite()) return Tri::Unknown;
    Fr ahi(a.prec()), alo(a.prec()), bhi(b.prec()), blo(b.prec());
    mpfi_get_right(ahi.v, a.raw());
    mpfi_get_left(alo.v, a.raw());
    mpfi_get_right(bhi.v, b.raw());
    mpfi_get_left(blo.v, b.raw());
    if (mpfr_less_p(ahi.v, blo.v)) return Tri::True;
    if (mpfr_greaterequal_p(alo.v, bhi.v)) return Tri::False;
    return Tri::Unknown;
}
Tri less_equal(const Interval &a, const Interval &b) {
    return tri_not(less(b, a));
}
Tri is_positive(const Interval &a) {
    return less(Interval(0L, 2), a);
}
Tri less(const Interval &a, const Rational &q) {
    return less(a, Interval(q, a.prec()));
}
Tri less_equal(const Interval &a, const Rational &q) {
    return tri_not(less(Interval(q, a.prec()), a));
}

} // namespace tempcert
