// Exact numbers and intervals: parsing, printing, enclosure, and agreement
// of the same value at two precisions (STYLE: Arb's test habit).
#include "helpers.hpp"
#include "tempcert/real.hpp"

#include <boost/multiprecision/mpfr.hpp>
#include <doctest/doctest.h>
#include <limits>
#include <random>

using namespace tempcert;
using tempcert::test::q;

TEST_CASE("parse_rational accepts integers, fractions and decimals exactly") {
    std::string why;
    CHECK(*parse_rational("-12", why) == Rational(-12));
    CHECK(*parse_rational("-3/4", why) == Rational(-3, 4));
    CHECK(*parse_rational("6/8", why) == Rational(3, 4));
    CHECK(*parse_rational("0.125", why) == Rational(1, 8));
    CHECK(*parse_rational("-2.5", why) == Rational(-5, 2));
    CHECK(*parse_rational("0.1", why) == Rational(1, 10));
    CHECK(*parse_rational("123456789012345678901234567890", why) ==
          Rational(Integer("123456789012345678901234567890")));
}

TEST_CASE("leading zeros are decimal, never octal") {
    std::string why;
    CHECK(*parse_rational("0.0123", why) == Rational(123, 10000));
    CHECK(*parse_rational("0.08", why) == Rational(8, 100));
    CHECK(*parse_rational("007", why) == Rational(7));
    CHECK(*parse_rational("010", why) == Rational(10));
    CHECK(*parse_rational("010/012", why) == Rational(10, 12));
    CHECK(*parse_rational("-0.0223672838821", why) == Rational(-223672838821, 10000000000000));
    CHECK(*parse_rational_scientific("0.05e1", why) == Rational(1, 2));
}

TEST_CASE("parse_rational rejects what is not exact or not a number") {
    for (const char *bad : {"", "-", "1/0", "1e-3", "1.5e2", "+1", " 1", "1/", "/2", "1.2.3",
                            "0x10", "1/-2", "abc", ".", "1/2/3"}) {
        std::string why;
        CHECK_MESSAGE(!parse_rational(bad, why), bad);
        CHECK(!why.empty());
    }
    std::string why;
    CHECK(!parse_rational(std::string(50, '1'), why, 10));
    CHECK(why.find("--max-number-chars") != std::string::npos);
}

TEST_CASE("scientific notation is exact on the command line only") {
    std::string why;
    CHECK(*parse_rational_scientific("1e-30", why) ==
          Rational(1, Integer("1000000000000000000000000000000")));
    CHECK(*parse_rational_scientific("2.5E2", why) == Rational(250));
    CHECK(*parse_rational_scientific("0.01", why) == Rational(1, 100));
    CHECK(!parse_rational_scientific("1e", why));
    CHECK(!parse_rational_scientific("1e99999", why));
}

TEST_CASE("to_decimal rounds in the direction asked") {
    CHECK(to_decimal(Rational(1, 3), 5, false) == "0.33333");
    CHECK(to_decimal(Rational(1, 3), 5, true) == "0.33334");
    CHECK(to_decimal(Rational(-1, 3), 5, false) == "-0.33334");
    CHECK(to_decimal(Rational(-1, 3), 5, true) == "-0.33333");
    CHECK(to_decimal(Rational(1, 8), 10, true) == "0.125");
    CHECK(to_decimal(Rational(7), 3, false) == "7");
}

TEST_CASE("interval enclosures contain exact values and agree across precisions") {
    for (Prec prec : {Prec(128), Prec(512)}) {
        Interval third(Rational(1, 3), prec);
        CHECK(third.contains(Rational(1, 3)));
        CHECK(third.narrower_than(Rational(1, Integer(1) << (prec - 2))));
        Interval sum = add(third, Interval(Rational(2, 3), prec), prec);
        CHECK(sum.contains(Rational(1)));
        Interval e = exp(Interval(1L, prec), prec);
        // e = 2.71828182845904523536028747135266249775724709369995...
        CHECK(less(Interval(q("2.7182818284590452353602874713526624977"), prec), e) == Tri::True);
        CHECK(less(e, Interval(q("2.7182818284590452353602874713526624978"), prec)) == Tri::True);
        Interval l = log(Interval(2L, prec), prec);
        CHECK(less(Interval(q("0.6931471805599453094172321214581765680"), prec), l) == Tri::True);
        CHECK(less(l, Interval(q("0.6931471805599453094172321214581765681"), prec)) == Tri::True);
    }
    Interval lo = exp(Interval(Rational(1, 7), 128), 128),
             hi = exp(Interval(Rational(1, 7), 512), 512);
    // Two enclosures of the same number overlap, and the finer sits inside.
    CHECK(lo.contains(hi));
}

TEST_CASE("interval predicates are one-sided") {
    Interval a = Interval::hull(Rational(0), Rational(1), 128);
    Interval b = Interval::hull(Rational(1, 2), Rational(2), 128);
    CHECK(less(a, b) == Tri::Unknown);
    CHECK(less(a, Interval(Rational(3), 128)) == Tri::True);
    CHECK(less(Interval(Rational(3), 128), a) == Tri::False);
    CHECK(is_positive(Interval(Rational(-1, 1000), 128)) == Tri::False);
    CHECK(is_positive(a) == Tri::Unknown);
    Interval nan = log(Interval(-1L, 128), 128);
    CHECK(!nan.is_finite());
    CHECK(less(nan, a) == Tri::Unknown);
    CHECK(!nan.contains(Rational(0)));
}

TEST_CASE("share encloses e/(e+r) tightly and handles zeros") {
    Prec p = 128;
    Interval e = Interval::hull(Rational(1), Rational(2), p),
             r = Interval::hull(Rational(1), Rational(3), p);
    Interval s = share(e, r, p);
    // extremes: 1/(1+3) = 1/4 and 2/(2+1) = 2/3
    CHECK(s.contains(Rational(1, 4)));
    CHECK(s.contains(Rational(2, 3)));
    CHECK(less(s, Rational(2, 3) + Rational(1, Integer(1) << 100)) == Tri::True);
    CHECK(less(Interval(Rational(1, 4) - Rational(1, Integer(1) << 100), p), s) == Tri::True);
    Interval zero(p);
    Interval z = share(zero, zero, p);
    CHECK(z.contains(Rational(0)));
    CHECK(z.contains(Rational(1)));
}

TEST_CASE("decimal printing rounds outward") {
    Interval third(Rational(1, 3), 128);
    CHECK(third.lower_decimal(5) == "0.33333");
    CHECK(third.upper_decimal(5) == "0.33334");
    Interval big(Rational(Integer("123456789012345678901234567890")), 128);
    CHECK(big.upper_decimal(5) == "1.2346e29");
    CHECK(big.lower_decimal(5) == "1.2345e29");
    Interval small(Rational(1, Integer("1000000000000")), 128);
    CHECK(small.lower_decimal(3) == "9.99e-13");
}

TEST_CASE("Real stays exact where it can, and zero cuts off intervals") {
    Prec p = 128;
    Real a = Rational(1, 2), b = Rational(1, 3);
    CHECK(add(a, b, p).is_exact());
    CHECK(add(a, b, p).exact() == Rational(5, 6));
    Real irr = sqrt(Interval(2L, p), p);
    CHECK(!mul(irr, a, p).is_exact());
    CHECK(mul(irr, Real(0L), p).is_exact());
    CHECK(mul(irr, Real(0L), p).exact() == 0);
    CHECK(relu(Real(Rational(-3)), p).exact() == 0);
    CHECK(relu(Real(Rational(3)), p).exact() == 3);
    Real straddle = Interval::hull(Rational(-1), Rational(2), p);
    Real r = relu(straddle, p);
    CHECK(r.interval()->contains(Rational(0)));
    CHECK(r.interval()->contains(Rational(2)));
    CHECK(!r.interval()->contains(Rational(-1, 2)));
    CHECK(equal(irr, irr, p) == Tri::Unknown);
    CHECK(equal(a, b, p) == Tri::False);
}

TEST_CASE("exact reals: machine-integer rationals agree with GMP and promote on overflow") {
    const std::int64_t big = std::numeric_limits<std::int64_t>::max();
    Real a(static_cast<long>(big)), one(1L);
    Real s = add(a, one, 128);
    REQUIRE(s.is_exact());
    CHECK(s.exact() == Rational(big) + 1);
    CHECK(s.big() != nullptr);                  // promoted
    CHECK(sub(s, one, 128).small() != nullptr); // and back once it fits
    CHECK(mul(a, a, 128).exact() == Rational(big) * Rational(big));
    CHECK(less(Real(Rational(big, big - 1)), Real(Rational(big - 1, big - 2)), 128) == Tri::True);
    CHECK(equal(Real(Rational(6, 4)), Real(Rational(3, 2)), 128) == Tri::True);
    std::mt19937_64 rng(11);
    auto pick = [&]() -> Rational {
        std::int64_t scale = std::int64_t(1) << (rng() % 62);
        std::int64_t n =
            static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(scale)) - scale / 2;
        std::int64_t d = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(scale)) + 1;
        return Rational(n) / Rational(d);
    };
    for (int i = 0; i < 200000; ++i) {
        Rational x = pick(), y = pick();
        Real rx(x), ry(y);
        REQUIRE(add(rx, ry, 64).exact() == x + y);
        REQUIRE(sub(rx, ry, 64).exact() == x - y);
        REQUIRE(mul(rx, ry, 64).exact() == x * y);
        REQUIRE(mul(rx, y, 64).exact() == x * y);
        REQUIRE((less(rx, ry, 64) == Tri::True) == (x < y));
        REQUIRE((equal(rx, ry, 64) == Tri::True) == (x == y));
        REQUIRE(min(rx, ry, 64).exact() == std::min(x, y));
    }
}
