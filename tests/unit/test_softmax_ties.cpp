// total_variation groups support positions with exactly equal scores (their
// e_i - e_j is 0), so a head whose tied scores are not dyadic (1/3, 10^-15)
// costs O(k) expm1 calls, not O(k^2) (proofs/softmax-enclosure.md). Checked here:
// the grouped enclosure overlaps TV computed from its definition at 1024
// bits, half the sum of |p_j - h_j| with p_j = e_j / sum e, on random score
// vectors with repeated non-dyadic exact scores, inexact scores among them,
// and supports holding one class or several. softmax itself computes one
// exp and one share per class of tied scores; its weights are checked
// against the definition the same way.
#include "../../src/eval/attention_ops.hpp"
#include <doctest/doctest.h>
#include <mpfi.h>
#include <random>

using namespace tempcert;

namespace {

Interval direct_tv(const RealVector &s, const RealVector &h, const Rational &beta, Prec prec) {
    std::vector<Interval> e;
    Interval top = s[0].enclose(prec);
    for (const auto &x : s) // any reference works; the largest keeps exp small
        if (mpfr_cmp(&x.enclose(prec).raw()->right, &top.raw()->right) > 0) top = x.enclose(prec);
    Interval z(prec), b(beta, prec);
    for (const auto &x : s) {
        e.push_back(exp(mul(b, sub(x.enclose(prec), top, prec), prec), prec));
        z = add(z, e.back(), prec);
    }
    Interval sum(prec);
    for (std::size_t j = 0; j < s.size(); ++j)
        sum = add(sum, abs(sub(div(e[j], z, prec), h[j].enclose(prec), prec)), prec);
    return mul(sum, Interval(Rational(1, 2), prec), prec);
}

bool overlap(const Interval &a, const Interval &b) {
    Interval d = sub(a, b, 1024);
    return mpfi_has_zero(d.raw()) > 0;
}

} // namespace

TEST_CASE("TV with exactly tied non-dyadic scores: grouped classes agree with the definition") {
    std::mt19937_64 rng(12);
    const Rational values[] = {Rational(1, 3), Rational(1, 1000000000000000LL), Rational(-2, 7),
                               Rational(5, 3), Rational(0)};
    const Rational betas[] = {Rational(1), Rational(40), Rational(100000), Rational(3, 10)};
    std::size_t cases = 0, several_classes = 0;
    for (int t = 0; t < 400; ++t) {
        std::size_t m = 2 + rng() % 12;
        RealVector s;
        for (std::size_t j = 0; j < m; ++j) {
            if (rng() % 5 == 0) // an inexact score: an interval around a value
                s.push_back(Real(Interval(
                    values[rng() % 5] + Rational(1, 1 + static_cast<long>(rng() % 9)), 200)));
            else
                s.push_back(Real(values[rng() % 3]));
        }
        // support: the positions of one exact value, sometimes of two, plus inexact ones at random
        Rational a = values[rng() % 3], b = values[rng() % 3];
        bool two = rng() % 3 == 0;
        std::vector<char> in(m, 0);
        long k = 0;
        for (std::size_t j = 0; j < m; ++j) {
            bool pick = s[j].is_exact() ? (s[j].exact() == a || (two && s[j].exact() == b))
                                        : rng() % 4 == 0;
            in[j] = pick;
            k += pick;
        }
        if (k == 0) continue;
        RealVector h(m, Real(0L));
        for (std::size_t j = 0; j < m; ++j)
            if (in[j]) h[j] = Rational(1, k);
        Rational beta = betas[rng() % 4];
        detail::Softmax sm = detail::softmax(s, Real(beta), 128);
        Interval got = detail::total_variation(h, sm, 128).enclose(128);
        Interval want = direct_tv(s, h, beta, 1024);
        INFO("case " << t << ", m " << m << ", k " << k << ", beta " << beta);
        REQUIRE(overlap(got, want));
        ++cases;
        several_classes += two && a != b;
    }
    CHECK(cases > 300);
    CHECK(several_classes > 20);
}

namespace {

// p_j = e_j / sum e from the definition, at `prec`.
std::vector<Interval> direct_weights(const RealVector &s, const Rational &beta, Prec prec) {
    Interval b(beta, prec), z(prec);
    std::vector<Interval> e;
    for (const auto &x : s) { // scores here are small: no reference needed
        e.push_back(exp(mul(b, x.enclose(prec), prec), prec));
        z = add(z, e.back(), prec);
    }
    for (auto &x : e)
        x = div(x, z, prec);
    return e;
}

bool same_interval(const Interval &a, const Interval &b) {
    return mpfr_equal_p(&a.raw()->left, &b.raw()->left) &&
           mpfr_equal_p(&a.raw()->right, &b.raw()->right);
}

} // namespace

TEST_CASE("softmax weights: one exp and one share per class of exactly tied scores") {
    // softmax gives positions whose exact scores are equal one weight,
    // computed once with the class's multiplicity in the rest
    // (proofs/softmax-enclosure.md, Claim 1): each must still enclose the
    // definition's weight, tied positions carry the same enclosure, and the
    // weights' sum contains 1. Scores repeat small rationals (hashed), one
    // beyond 64 bits (2^-70 + 1/3, kept in GMP) and include inexact ones.
    std::mt19937_64 rng(31);
    const Rational big = Rational(1) / pow(Integer(2), 70u) + Rational(1, 3);
    const Rational values[] = {Rational(1, 3), Rational(1, 1000000000000000LL), Rational(-2, 7),
                               big, Rational(5, 3)};
    const Rational betas[] = {Rational(1), Rational(40), Rational(3, 10), Rational(7)};
    std::size_t tied = 0;
    for (int t = 0; t < 400; ++t) {
        std::size_t m = 2 + rng() % 14;
        RealVector s;
        for (std::size_t j = 0; j < m; ++j) {
            if (rng() % 6 == 0)
                s.push_back(Real(Interval(values[rng() % 5] + Rational(1, 7), 200)));
            else
                s.push_back(Real(values[rng() % 4]));
        }
        Rational beta = betas[rng() % 4];
        detail::Softmax sm = detail::softmax(s, Real(beta), 128);
        std::vector<Interval> want = direct_weights(s, beta, 1024);
        INFO("case " << t << ", m " << m << ", beta " << beta);
        REQUIRE(sm.weights.size() == m);
        Interval total(128);
        for (std::size_t j = 0; j < m; ++j) {
            Interval got = sm.weights[j].enclose(128);
            REQUIRE(overlap(got, want[j]));
            total = add(total, got, 128);
            for (std::size_t i = 0; i < j; ++i)
                if (s[i].is_exact() && s[j].is_exact() && s[i].exact() == s[j].exact()) {
                    CHECK(same_interval(got, sm.weights[i].enclose(128)));
                    ++tied;
                }
        }
        CHECK(total.contains(Rational(1)));
    }
    CHECK(tied > 1000);
}
