// The profile bound's closed forms for affine scores (src/gap/symbolic_affine.hpp)
// against the plain profile of every maximum (plain_profile.hpp).
#include "gap/symbolic_affine.hpp"
#include "plain_profile.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

using namespace tempcert;
using namespace tempcert::detail;
using tempcert::test::plain_x;

namespace {

// Every position's offers of the query, ascending.
std::vector<std::vector<Rational>> offers_of(const AffineQuery &q) {
    std::vector<std::pair<long, Rational>> all;
    for (const auto &r : q.runs)
        for (long j = r.lo; j <= r.hi; ++j)
            all.emplace_back(j, r.alpha + q.c * j);
    std::sort(all.begin(), all.end());
    std::vector<std::vector<Rational>> per;
    long last = -1;
    for (auto &[j, v] : all) {
        if (per.empty() || j != last) per.emplace_back();
        last = j;
        per.back().push_back(v);
    }
    return per;
}

Rational small(std::mt19937 &rng, long span, long den) {
    return Rational(static_cast<long>(rng() % (2 * span + 1)) - span,
                    1 + static_cast<long>(rng() % den));
}

} // namespace

TEST_CASE("affine profile bound: never says every maximum is within beta when one is not") {
    std::mt19937 rng(20261205);
    const Rational epss[] = {Rational(1, 100), Rational(1, 10), Rational(1, 3)};
    const Mask masks[] = {Mask::None, Mask::Causal, Mask::Strict, Mask::Future, Mask::StrictFuture};
    std::size_t says = 0, all_below = 0, queries = 0;
    for (int round = 0; round < 1500; ++round) {
        const std::size_t k = 1 + rng() % 4;
        const bool bos = rng() % 3 == 0;
        std::vector<Rational> A;
        for (std::size_t s = 0; s < k + (bos ? 1 : 0); ++s)
            A.push_back(small(rng, 12, 3));
        Rational c = small(rng, 4, 4);
        if (c == 0) c = Rational(1, 2);
        const std::size_t len = 1 + rng() % 30, i = (bos ? 0 : 1) + rng() % (len + (bos ? 1 : 0));
        const int a = i == 0 ? -1 : static_cast<int>(rng() % k);
        const Mask mask = masks[rng() % 5];
        AffineQuery q = affine_query(A, small(rng, 5, 2), c, mask, len, i, a, bos);
        if (q.runs.empty()) continue;
        const auto offers = offers_of(q);
        std::vector<Rational> tops;
        for (const auto &o : offers)
            for (const auto &v : o)
                if (v >= q.L) tops.push_back(v);
        for (int t = 0; t < 3; ++t) {
            const Rational beta(1 + static_cast<long>(rng() % 96), 8);
            const Rational &eps = epss[rng() % 3];
            bool below = true, refuted = false;
            for (const Rational &top : tops) {
                Interval x(256);
                Rational bound;
                if (!plain_x(offers, top, beta, eps, x, bound)) continue;
                below = below && less_equal(x, bound) == Tri::True;
                refuted = refuted || less_equal(x, bound) == Tri::False;
            }
            const bool said = affine_profile_at_most(q, i, beta, eps);
            CAPTURE(round);
            CAPTURE(to_string(beta));
            if (said) CHECK_FALSE(refuted);
            says += said;
            all_below += below;
            ++queries;
        }
    }
    MESSAGE("queries " << queries << ", every maximum below c " << all_below << ", bound says so "
                       << says);
    // it decides a good share of what is below c (not a test that cannot fail)
    CHECK(says > all_below / 3);
    CHECK(says > 500);
}
