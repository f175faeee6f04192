// The machine-integer scores of position-only heads (src/gap/
// integer_scores.hpp, Lemma 5 of proofs/symbolic-gap.md) against GMP
// rationals: every score equals q . R_j exactly, rows at the limits are
// refused rather than wrapped, and the profile skip never says "certain"
// where the 256-bit sum disagrees.
#include "gap/integer_scores.hpp"
#include "tempcert/exact_vector.hpp"
#include "tempcert/interval.hpp"

#include <doctest/doctest.h>

#include <random>

using namespace tempcert;
using namespace tempcert::detail;

namespace {

Rational random_rational(std::mt19937_64 &rng, std::int64_t num, std::int64_t den) {
    std::uniform_int_distribution<std::int64_t> n(-num, num), d(1, den);
    return Rational(n(rng)) / Rational(d(rng));
}

} // namespace

TEST_CASE("integer scores equal the rational dot products") {
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 200; ++trial) {
        CAPTURE(trial);
        const std::size_t w = 1 + trial % 5, n = 20, first = trial % 2;
        const std::int64_t big = trial % 3 == 0 ? (std::int64_t(1) << 40) : 50;
        std::vector<Vector> rows(n + 1);
        for (std::size_t j = first; j <= n; ++j)
            for (std::size_t c = 0; c < w; ++c)
                rows[j].push_back(random_rational(rng, big, 6));
        std::optional<IntegerKeys> keys = IntegerKeys::of(rows, first);
        REQUIRE(keys.has_value());
        Vector q;
        for (std::size_t c = 0; c < w; ++c)
            q.push_back(random_rational(rng, big, 10));
        std::optional<IntegerQuery> iq = keys->query(q);
        REQUIRE(iq.has_value());
        for (std::size_t j = first; j <= n; ++j)
            CHECK(to_rational(keys->score(*iq, j)) * iq->scale == dot(q, rows[j]));
    }
}

TEST_CASE("integer scores refuse what could overflow") {
    const Rational two62 = Rational(Integer(1) << 62);
    // an entry at 2^62 (over a common denominator) does not fit
    CHECK_FALSE(IntegerKeys::of({{two62 - 1}, {two62}}, 0).has_value());
    CHECK(IntegerKeys::of({{two62 - 1}, {-(two62 - 1)}}, 0).has_value());
    // a denominator that lifts small entries past it: 1/3 and 2^61 / 1 over 3
    CHECK_FALSE(IntegerKeys::of({{Rational(1, 3)}, {Rational(Integer(1) << 61)}}, 0).has_value());
    // products: 2^61 keys and 2^61 queries with w = 8 need 61 + 62 + 3 bits
    const Rational k = Rational((Integer(1) << 61) + 1);
    std::optional<IntegerKeys> keys = IntegerKeys::of({Vector(8, k)}, 0);
    REQUIRE(keys.has_value());
    CHECK_FALSE(keys->query(Vector(8, k)).has_value());
    std::optional<IntegerQuery> small = keys->query(Vector(8, Rational(1 << 20)));
    REQUIRE(small.has_value());
    CHECK(to_rational(keys->score(*small, 0)) == 8 * k * (1 << 20));
    // the extreme sum is held exactly, with its sign
    std::optional<IntegerKeys> neg = IntegerKeys::of({Vector(2, -(two62 - 1))}, 0);
    REQUIRE(neg.has_value());
    std::optional<IntegerQuery> q = neg->query(Vector(2, Rational(1 << 30)));
    REQUIRE(q.has_value());
    CHECK(to_rational(neg->score(*q, 0)) == -2 * (two62 - 1) * (1 << 30));
    CHECK_FALSE(neg->query(Vector(3, Rational(1))).has_value()); // wrong width
}

TEST_CASE("the integer profile skip is never certain against the 256-bit sum") {
    std::mt19937_64 rng(11);
    int certain = 0;
    for (int trial = 0; trial < 400; ++trial) {
        CAPTURE(trial);
        std::vector<Int128> gaps;
        const std::size_t count = 1 + trial % 40;
        for (std::size_t x = 0; x < count; ++x) {
            const std::int64_t g = std::uniform_int_distribution<std::int64_t>(1, 30)(rng);
            // some gaps past 2^53, where the double is not exact
            gaps.push_back(trial % 7 == 0 ? (Int128(g) << 60) + 1 : Int128(g));
        }
        const Rational beta = Rational(std::uniform_int_distribution<int>(1, 4000)(rng), 1000) /
                              (trial % 7 == 0 ? Rational(Integer(1) << 60) : Rational(1));
        const Rational c = Rational(std::uniform_int_distribution<int>(1, 400)(rng), 100);
        if (!integer_x_at_most(gaps, beta, c)) continue;
        ++certain;
        Interval x(256);
        for (Int128 g : gaps)
            x = add(x, exp(neg(mul(Interval(beta, 256), to_rational(g), 256)), 256), 256);
        CHECK(less_equal(x, c) != Tri::False);
    }
    MESSAGE(certain << " of 400 certain");
    CHECK(certain >= 100);
    CHECK_FALSE(integer_x_at_most({1}, Rational(-1), Rational(5))); // beta < 0: never
}
