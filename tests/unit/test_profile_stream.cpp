// The streamed skip of the profile bound (src/gap/profile_stream.hpp)
// against the plain computation: the profile built as symbolic.cpp's
// profile_of builds it (forced holders, one holder kept at the maximum,
// every other position at its largest offer below it), its X(beta) summed
// one exponential per gap in MPFI at 256 bits. Whenever the stream says
// X(beta) <= c is certain, the plain sum must not show it false; and the
// stream must decide often enough to matter.
#include "gap/profile_stream.hpp"
#include "plain_profile.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

using namespace tempcert;
using tempcert::test::plain_x;

namespace {

struct Case {
    std::vector<std::vector<Rational>> offers; // per position, ascending
    Rational top;
};

// Offers on a coarse grid, so that ties between positions and with the
// maximum are common; `top` one of the offers at or above L, the largest
// least offer (as the scan's maxima are).
Case random_case(std::mt19937 &rng) {
    Case c;
    std::size_t positions = 1 + rng() % 40;
    for (std::size_t s = 0; s < positions; ++s) {
        std::vector<Rational> o;
        std::size_t k = 1 + rng() % 4;
        for (std::size_t i = 0; i < k; ++i)
            o.push_back(
                Rational(static_cast<long>(rng() % 40) - 20, 1 + static_cast<long>(rng() % 3)));
        std::sort(o.begin(), o.end());
        o.erase(std::unique(o.begin(), o.end()), o.end());
        c.offers.push_back(o);
    }
    Rational L = c.offers[0].front();
    for (const auto &o : c.offers)
        L = std::max(L, o.front());
    std::vector<Rational> tops;
    for (const auto &o : c.offers)
        for (const auto &v : o)
            if (v >= L) tops.push_back(v);
    c.top = tops[rng() % tops.size()];
    return c;
}

} // namespace

TEST_CASE("the streamed skip never certifies a profile whose X(beta) exceeds c") {
    std::mt19937 rng(20261204);
    const Rational epss[] = {Rational(1, 100), Rational(1, 10), Rational(1, 3)};
    std::size_t certified = 0, plainly_below = 0;
    for (int round = 0; round < 3000; ++round) {
        Case c = random_case(rng);
        std::vector<std::vector<const Rational *>> offers(c.offers.size());
        for (std::size_t s = 0; s < c.offers.size(); ++s)
            for (const auto &v : c.offers[s])
                offers[s].push_back(&v);
        StreamedProfile stream(std::move(offers));
        for (int q = 0; q < 3; ++q) {
            Rational beta(1 + static_cast<long>(rng() % 64), 8);
            const Rational &eps = epss[rng() % 3];
            Interval x(256);
            Rational bound;
            bool any = plain_x(c.offers, c.top, beta, eps, x, bound);
            bool says = stream.certainly_at_most(c.top, beta, eps);
            CAPTURE(round);
            CAPTURE(to_string(beta));
            if (says) {
                REQUIRE(any);
                CHECK(less_equal(x, bound) != Tri::False);
                ++certified;
            }
            if (any && less_equal(x, bound) == Tri::True) ++plainly_below;
        }
    }
    // it decides a good share of what is below c (not a test that cannot fail)
    CHECK(certified > plainly_below / 2);
    CHECK(certified > 1000);
}
