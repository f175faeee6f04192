// The checker's profile judge (src/check/check_profile.cpp) against brute
// force: every choice of one offer per position of small random queries,
// TV enclosed at 256 bits from the definition. "Within" must never be said
// of a query with a configuration certainly above eps, and "exceeds" never
// of one whose configurations are all certainly within.
#include "../../src/check/check_profile.hpp"

#include <doctest/doctest.h>

#include <random>

using namespace tempcert;
using namespace tempcert::check;

namespace {

// TV of one configuration against the uniform weights on its maxima.
Interval tv_of(const std::vector<Rational> &scores, const Rational &beta, Prec prec) {
    Rational top = *std::max_element(scores.begin(), scores.end());
    Interval x(0L, prec);
    long k = 0;
    for (const auto &s : scores) {
        if (s == top) {
            ++k;
            continue;
        }
        x = add(x, exp(Interval(-(beta * (top - s)), prec), prec), prec);
    }
    return div(x, add(x, Interval(k, prec), prec), prec);
}

// Every configuration's TV: True all <= eps, False one > eps, else Unknown.
Tri brute(const QueryOffers &q, const Rational &beta, const Rational &eps) {
    std::vector<std::vector<Rational>> offers; // per position
    for (const auto &g : q.groups)
        for (Rational j = g.lo; j <= g.hi; j += 1) {
            std::vector<Rational> o;
            for (const auto &a : g.alphas)
                o.push_back(a + q.c * j);
            offers.push_back(o);
        }
    std::vector<std::size_t> pick(offers.size(), 0);
    Tri all = Tri::True;
    for (;;) {
        std::vector<Rational> scores;
        for (std::size_t p = 0; p < offers.size(); ++p)
            scores.push_back(offers[p][pick[p]]);
        Tri v = less_equal(tv_of(scores, beta, 256), eps);
        if (v == Tri::False) return v;
        if (v == Tri::Unknown) all = v;
        std::size_t p = 0;
        while (p < pick.size() && ++pick[p] == offers[p].size())
            pick[p++] = 0;
        if (p == pick.size()) return all;
    }
}

QueryOffers random_query(std::mt19937 &rng) {
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    QueryOffers q;
    q.c = pick(0, 2) == 0 ? Rational(0) : Rational(pick(-4, 4), pick(1, 3));
    int at = pick(0, 1), symbols = pick(1, 3); // at most 9 positions, 3^9 configurations
    int groups = pick(1, 3);
    for (int g = 0; g < groups; ++g) {
        bool fixed = pick(0, 2) == 0;
        int len = fixed ? 1 : pick(1, 3);
        std::vector<Rational> alphas;
        for (int s = 0; s < (fixed ? 1 : symbols); ++s)
            alphas.push_back(Rational(pick(-6, 6), pick(1, 2)));
        std::sort(alphas.begin(), alphas.end());
        alphas.erase(std::unique(alphas.begin(), alphas.end()), alphas.end());
        q.groups.push_back({Rational(at), Rational(at + len - 1), alphas});
        at += len;
    }
    return q;
}

} // namespace

TEST_CASE("checker profile judge: never wrong against every configuration") {
    std::mt19937 rng(20261205);
    int within = 0, exceeds = 0;
    for (int trial = 0; trial < 1000; ++trial) {
        QueryOffers q = random_query(rng);
        Rational beta(std::uniform_int_distribution<int>(1, 60)(rng), 8);
        Rational eps(1, std::uniform_int_distribution<int>(2, 100)(rng));
        ProfileFinding f = ProfileJudge(beta, eps, 128, 1024).judge(q);
        Tri truth = brute(q, beta, eps);
        CAPTURE(trial);
        CHECK(f.within != Tri::Unknown);
        if (f.within == Tri::True) {
            CHECK(truth != Tri::False);
            ++within;
        } else {
            CHECK(truth != Tri::True);
            ++exceeds;
        }
    }
    // both answers occur often enough for the comparison to mean something
    MESSAGE("within " << within << ", exceeds " << exceeds);
    CHECK(within > 200);
    CHECK(exceeds > 200);
}

TEST_CASE("checker profile judge: spread competitors at the threshold") {
    // a query whose 999 competitors sit at gaps 1, 2, ..., 999 (one symbol,
    // keys affine in the position): X = sum e^(-beta g) = e^-beta/(1 - e^-beta)
    // nearly, so the threshold for eps = 1/100 is ln(1 + 1/c) with c = 1/99:
    // beta* = ln 100 = 4.6051701...
    QueryOffers q;
    q.c = 1;
    q.groups.push_back({Rational(1), Rational(999), {Rational(0)}});
    q.groups.push_back({Rational(1000), Rational(1000), {Rational(0)}});
    const Rational eps(1, 100);
    CHECK(ProfileJudge(Rational(46052, 10000), eps, 128, 1024).judge(q).within == Tri::True);
    ProfileFinding below = ProfileJudge(Rational(46051, 10000), eps, 128, 1024).judge(q);
    CHECK(below.within == Tri::False);
    CHECK(below.maximum == 1000);
    // Lemma GT at the least gap 1 would need ln(999 * 99) = 11.5
}

TEST_CASE("checker profile judge: a group split in two judges as the whole group") {
    // check_layerwise.cpp merges adjacent groups offering the same alphas
    // (so that queries differing only in where the query's own position
    // splits a block compare equal): the configurations are the same, so
    // must the verdicts be, and both agree with brute force.
    std::mt19937 rng(20261206);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    int compared = 0, exceeds = 0;
    for (int trial = 0; trial < 400; ++trial) {
        QueryOffers whole;
        whole.c = pick(0, 3) == 0 ? Rational(0) : Rational(pick(-4, 4), pick(1, 3));
        std::vector<Rational> alphas;
        for (int s = pick(1, 2); s > 0; --s)
            alphas.push_back(Rational(pick(-6, 6), pick(1, 2)));
        std::sort(alphas.begin(), alphas.end());
        alphas.erase(std::unique(alphas.begin(), alphas.end()), alphas.end());
        const int lo = pick(0, 1), hi = lo + pick(1, 6);
        whole.groups.push_back({Rational(lo), Rational(hi), alphas});
        const Rational own(pick(-6, 6), pick(1, 2)); // a fixed position after the block
        whole.groups.push_back({Rational(hi + 1), Rational(hi + 1), {own}});
        QueryOffers split = whole;
        const int cut = pick(lo, hi - 1);
        split.groups[0].hi = cut;
        split.groups.insert(split.groups.begin() + 1, {Rational(cut + 1), Rational(hi), alphas});
        const Rational beta(pick(1, 60), 8), eps(1, pick(2, 100));
        Tri a = ProfileJudge(beta, eps, 128, 1024).judge(whole).within;
        Tri b = ProfileJudge(beta, eps, 128, 1024).judge(split).within;
        CAPTURE(trial);
        REQUIRE(a != Tri::Unknown);
        CHECK(a == b);
        CHECK(brute(whole, beta, eps) != tri_not(a));
        ++compared;
        exceeds += a == Tri::False;
    }
    MESSAGE("compared " << compared << ", exceeds " << exceeds);
    CHECK(exceeds > 40);
    CHECK(compared - exceeds > 40);
}
