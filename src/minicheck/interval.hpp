// Outward-rounded intervals (MPFI) for the small checker: one value type
// with the few operations softmax, Lemma GT and the read-outs need. Every
// operation rounds outward, so the true value of any expression built from
// exact inputs lies in its result; a comparison answers only when the whole
// interval decides it (docs/minicheck.md).
#pragma once

#include "failure.hpp"

#include <gmpxx.h>
#include <mpfi.h>

#include <algorithm>
#include <string>

namespace minicheck {
using Q = mpq_class;

class Iv {
  public:
    Iv(const Q &q, long prec) {
        mpfi_init2(v_, prec);
        mpfi_set_q(v_, q.get_mpq_t());
    }
    Iv(const Q &lo, const Q &hi, long prec) { // [lo, hi], rounded outward
        mpfi_init2(v_, prec);
        mpfi_interv_q(v_, lo.get_mpq_t(), hi.get_mpq_t());
    }
    Iv(const Iv &o) {
        mpfi_init2(v_, mpfi_get_prec(o.v_));
        mpfi_set(v_, o.v_);
    }
    Iv(Iv &&o) noexcept {
        mpfi_init2(v_, mpfi_get_prec(o.v_));
        mpfi_swap(v_, o.v_);
    }
    Iv &operator=(Iv o) noexcept {
        mpfi_swap(v_, o.v_);
        return *this;
    }
    ~Iv() { mpfi_clear(v_); }

    long prec() const { return static_cast<long>(mpfi_get_prec(v_)); }
    bool broken() const { return mpfi_nan_p(v_) != 0; }
    // both ends are numbers: neither NaN nor infinite
    bool finite() const { return mpfr_number_p(&v_->left) && mpfr_number_p(&v_->right); }

    // lower end > q, upper end <= q, ... ; false whenever undecided or NaN
    bool above(const Q &q) const { return !broken() && cmp_left(q) > 0; }
    bool at_most(const Q &q) const { return !broken() && cmp_right(q) <= 0; }
    bool below(const Q &q) const { return !broken() && cmp_right(q) < 0; }
    bool at_least(const Q &q) const { return !broken() && cmp_left(q) >= 0; }
    // every point of *this is below every point of o
    bool point() const { return mpfr_equal_p(&v_->left, &v_->right) != 0; }
    // the same enclosure: equal ends (never for NaN), equal precision
    bool same_as(const Iv &o) const {
        return mpfi_get_prec(v_) == mpfi_get_prec(o.v_) && mpfr_equal_p(&v_->left, &o.v_->left) &&
               mpfr_equal_p(&v_->right, &o.v_->right);
    }
    bool below(const Iv &o) const {
        return !broken() && !o.broken() && mpfr_cmp(&v_->right, &o.v_->left) < 0;
    }
    // The exact ends. An infinite or NaN end is never read as a number
    // (mpfr_get_q would give 0): it stops the check as undecided (exit 3),
    // so callers test finite() first where that is a normal outcome.
    Q lower() const { return end(&v_->left); }
    Q upper() const { return end(&v_->right); }
    std::string text() const {
        char buf[64];
        mpfr_snprintf(buf, sizeof buf, "[%.8RDg, %.8RUg]", &v_->left, &v_->right);
        return buf;
    }

    friend Iv operator+(const Iv &a, const Iv &b) { return op(mpfi_add, a, b); }
    friend Iv operator-(const Iv &a, const Iv &b) { return op(mpfi_sub, a, b); }
    friend Iv operator*(const Iv &a, const Iv &b) { return op(mpfi_mul, a, b); }
    friend Iv operator/(const Iv &a, const Iv &b) { return op(mpfi_div, a, b); }
    friend Iv operator*(const Q &w, const Iv &x) {
        Iv r(x.prec());
        mpfi_mul_q(r.v_, x.v_, w.get_mpq_t());
        return r;
    }
    friend Iv exp(const Iv &x) { return fn(mpfi_exp, x); }
    friend Iv expm1(const Iv &x) { return fn(mpfi_expm1, x); } // e^x - 1, exact near 0
    friend Iv log(const Iv &x) { return fn(mpfi_log, x); }
    friend Iv sqrt(const Iv &x) { return fn(mpfi_sqrt, x); }
    friend Iv abs(const Iv &x) { return fn(mpfi_abs, x); }
    // max(0, x), endpoint by endpoint (monotone)
    friend Iv relu(const Iv &x) {
        Iv r(x);
        if (x.broken()) return r;
        if (mpfr_sgn(&x.v_->left) < 0) mpfr_set_zero(&r.v_->left, 1);
        if (mpfr_sgn(&x.v_->right) < 0) mpfr_set_zero(&r.v_->right, 1);
        return r;
    }
    friend Iv max(const Iv &a, const Iv &b) {
        Iv r(std::max(a.prec(), b.prec()));
        mpfi_union(r.v_, a.v_, b.v_); // contains max(a, b); then cut below
        if (!a.broken() && !b.broken()) {
            mpfr_max(&r.v_->left, &a.v_->left, &b.v_->left, MPFR_RNDD);
            mpfr_max(&r.v_->right, &a.v_->right, &b.v_->right, MPFR_RNDU);
        }
        return r;
    }

  private:
    mpfi_t v_;
    explicit Iv(long prec) { mpfi_init2(v_, prec); }
    int cmp_left(const Q &q) const { return mpfr_cmp_q(&v_->left, q.get_mpq_t()); }
    int cmp_right(const Q &q) const { return mpfr_cmp_q(&v_->right, q.get_mpq_t()); }
    static Q end(mpfr_srcptr x) {
        if (!mpfr_number_p(x))
            throw Failure{3, "", "an interval end is infinite or NaN and is not read as a number"};
        Q q;
        mpfr_get_q(q.get_mpq_t(), x);
        return q;
    }
    template <class F> static Iv op(F f, const Iv &a, const Iv &b) {
        Iv r(std::max(a.prec(), b.prec()));
        f(r.v_, a.v_, b.v_);
        return r;
    }
    template <class F> static Iv fn(F f, const Iv &x) {
        Iv r(x.prec());
        f(r.v_, x.v_);
        return r;
    }
};
} // namespace minicheck
