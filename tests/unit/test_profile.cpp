// The profile threshold's fast paths against the plain computation: gaps
// grouped by value give the same sum of exponentials as one exponential per
// gap, and folding queries into a running bracket (skipping those whose
// threshold lies below its upper end, bisecting from there otherwise) gives
// a bracket of the same maximum as bisecting every query from 0.
#include "tempcert/bounds.hpp"
#include "tempcert/interval.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

using namespace tempcert;

namespace {

// X(beta) = sum_j exp(-beta d_j), one exponential per gap (the reference).
Interval x_plain(const std::vector<Rational> &d, const Rational &beta, Prec p) {
    Interval x(p), b(beta, p);
    for (const auto &dj : d)
        x = add(x, exp(neg(mul(b, dj, p)), p), p);
    return x;
}

// Gaps of a query: a few values (1/4 .. 3) or many (one per position).
std::vector<Rational> random_gaps(std::mt19937 &rng) {
    std::size_t len = 1 + rng() % 300;
    bool spread = rng() % 2;
    std::vector<Rational> d;
    for (std::size_t j = 0; j < len; ++j)
        d.push_back(spread ? Rational(static_cast<long>(1 + j), 1 + static_cast<long>(rng() % 4))
                           : Rational(1 + static_cast<long>(rng() % 12), 4));
    return d;
}

} // namespace

TEST_CASE("grouped gaps: the same X(beta) as one exponential per gap") {
    std::mt19937 rng(20261204);
    const Rational c(7, 3);
    int decided = 0;
    for (int t = 0; t < 200; ++t) {
        std::vector<Rational> d = random_gaps(rng);
        std::vector<GapCount> g = group_gaps(d);
        std::size_t total = 0;
        for (std::size_t i = 0; i < g.size(); ++i) {
            total += g[i].count;
            if (i > 0) CHECK(g[i - 1].gap < g[i].gap);
        }
        CHECK(total == d.size());
        Rational beta(static_cast<long>(rng() % 4000), 500);
        Tri fast = gaps_x_at_most(g, beta, c, 64);
        Tri plain = less_equal(x_plain(d, beta, 256), c);
        if (fast != Tri::Unknown && plain != Tri::Unknown) {
            CHECK(fast == plain);
            ++decided;
        }
    }
    CHECK(decided >= 190);
}

TEST_CASE("folded query thresholds bracket the same maximum as bisecting every query") {
    std::mt19937 rng(4);
    const Rational eps(1, 100), rel(1, 1000000);
    for (int scan = 0; scan < 20; ++scan) {
        Bracket folded{0, 0}, plain{0, 0};
        int bisected = 0, queries = 40;
        for (int q = 0; q < queries; ++q) {
            std::vector<Rational> d = random_gaps(rng);
            std::size_t k = 1 + rng() % 3;
            Bracket each = profile_threshold(d, k, eps, rel, 64);
            plain.lo = std::max(plain.lo, each.lo);
            plain.hi = std::max(plain.hi, each.hi);
            if (auto b = query_threshold_beyond(group_gaps(d), k, eps, rel, 64, folded)) {
                ++bisected;
                CHECK(b->hi - b->lo <= rel * b->hi);
                folded.lo = std::max(folded.lo, b->lo);
                folded.hi = std::max(folded.hi, b->hi);
            }
        }
        CAPTURE(scan);
        // both bracket max_q threshold_q: they overlap, and the folded one
        // is as narrow as asked
        CHECK(folded.lo <= plain.hi);
        CHECK(plain.lo <= folded.hi);
        CHECK(folded.hi - folded.lo <= rel * folded.hi);
        CHECK(bisected < queries); // the fold skipped some queries
    }
}
