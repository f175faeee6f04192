// Expressions: grammar, exactness, intervals for log and sqrt, and errors
// that name the column.
#include "helpers.hpp"
#include "tempcert/error.hpp"
#include "tempcert/expr.hpp"

#include <doctest/doctest.h>

using namespace tempcert;
using tempcert::test::at;
using tempcert::test::q;

namespace {
std::size_t error_column(const char *text) {
    try {
        Expr::parse(text);
    } catch (const ExprError &e) {
        return e.column();
    }
    return 0;
}
} // namespace

TEST_CASE("rational expressions evaluate exactly") {
    CHECK(at("j/n", 3, 4).exact() == Rational(3, 4));
    CHECK(at("j*j - 2*j + 1", 5, 9).exact() == Rational(16));
    CHECK(at("-j^2", 3, 9).exact() == Rational(-9));
    CHECK(at("(j+1)^-2", 1, 9).exact() == Rational(1, 4));
    CHECK(at("0.1 * n", 1, 3).exact() == Rational(3, 10));
    CHECK(at("2 - 3 - 4", 0, 1).exact() == Rational(-5));
    CHECK(at("12 / 3 / 2", 0, 1).exact() == Rational(2));
    CHECK(at("log(1)", 1, 1).exact() == 0);
    CHECK(at("sqrt(9/4)", 1, 1).exact() == Rational(3, 2));
    CHECK(at("sqrt(j*j)", 7, 9).exact() == Rational(7));
}

TEST_CASE("irrational expressions are enclosed") {
    Real l = at("2*log(n)+3", 1, 10);
    REQUIRE(!l.is_exact());
    // 2 ln 10 + 3 = 7.605170185988091368035982909368728415202...
    CHECK(less(Interval(q("7.605170185988091368035982909368"), 128), *l.interval()) == Tri::True);
    CHECK(less(*l.interval(), Interval(q("7.605170185988091368035982909369"), 128)) == Tri::True);
    CHECK(
        l.interval()->narrower_than(Rational(1, Integer("100000000000000000000000000000000000"))));
    Real s = at("sqrt(j)", 2, 2, 512);
    CHECK(s.interval()->narrower_than(Rational(1, Integer(1) << 500)));
    Real coarse = at("sqrt(j)", 2, 2, 128);
    CHECK(coarse.interval()->contains(*s.interval()));
}

TEST_CASE("parse errors name the column") {
    CHECK(error_column("j +* 2") == 4);
    CHECK(error_column("(j + 1") == 7);
    CHECK(error_column("exp(j)") == 1);
    CHECK(error_column("j ^ 1.5") == 6); // the exponent is 1; ".5" is unexpected
    CHECK(error_column("") == 1);
    CHECK(error_column("j n") == 3);
    CHECK(error_column("1e") == 1);      // an exponent needs digits
    CHECK(error_column("1e99999") == 1); // at most four exponent digits
    CHECK(error_column("j^99999") == 3);
    CHECK(error_column(std::string(300, '(').c_str()) > 0);
}

TEST_CASE("scientific notation is exact, as on the command line (docs/reliability.md, Numbers)") {
    CHECK(at("1e18", 1, 3).exact() == Rational(Integer("1000000000000000000")));
    CHECK(at("2.5e-3", 1, 3).exact() == Rational(1, 400));
    CHECK(at("1E+2*j", 2, 3).exact() == 200);
}

TEST_CASE("domain errors are reported, never rounded away") {
    CHECK_THROWS_AS(at("1/(j-1)", 1, 3), ExprError);
    CHECK_THROWS_AS(at("log(j)", 0, 3), ExprError);
    CHECK_THROWS_AS(at("log(j-2)", 1, 3), ExprError);
    CHECK_THROWS_AS(at("sqrt(j-2)", 1, 3), ExprError);
    CHECK_THROWS_AS(at("0^-1", 1, 3), ExprError);
    // the same irrational expression subtracted from itself is exactly 0
    // (proofs/irrational-ties.md); a zero the exact forms cannot see is undecided
    CHECK_THROWS_AS(at("1/(log(n) - log(n))", 1, 3), ExprError);
    CHECK_THROWS_AS(at("1/(log(n^2) - 2*log(n))", 1, 3), Undecided);
    CHECK_NOTHROW(at("1/(j-1)", 2, 3));
}

TEST_CASE("canonical rendering ignores spacing and number spelling") {
    CHECK(Expr::parse("j / n").canonical() == Expr::parse("j/n").canonical());
    CHECK(Expr::parse("0.5*j").canonical() == Expr::parse("1/2 * j").canonical());
    CHECK(Expr::parse("j*n").canonical() != Expr::parse("j+n").canonical());
    CHECK(Expr::parse("0.5*j").canonical() == Expr::parse("(0.50)*j").canonical());
    CHECK(Expr::parse("j+n").uses_n());
    CHECK(!Expr::parse("j+1").uses_n());
    CHECK(!Expr::parse("log(j)").is_rational_form());
}

TEST_CASE("nested powers are refused before their exact value explodes (fuzz_expr timeout)") {
    // exponents multiply: 42^4 = 3111696 times a ~20-bit base
    const char *text = "1-0-1-1--(j/21-11--(j/21-1---(j/79-11--(j/2121--0)^42/4.1--0-1--0)^42/"
                       "4.1--0-1-1--0)^42/4.1--0-1--1--0)^42/4.1--0-1-1--1";
    Expr e = Expr::parse(text);
    int refused = 0;
    for (long j = 0; j <= 3; ++j) {
        try {
            (void)e.eval(Rational(j), Rational(3), 128); // a base of 0 or +-1 stays small
        } catch (const ExprError &err) {
            CHECK(std::string(err.what()).find("bits") != std::string::npos);
            ++refused;
        }
    }
    CHECK(refused >= 2);
    // a large but bounded power is still exact
    Expr ok = Expr::parse("(j/3)^4096");
    Real v = ok.eval(Rational(2), Rational(3), 128);
    REQUIRE(v.is_exact());
    Rational want = 1;
    for (int k = 0; k < 4096; ++k)
        want *= Rational(2, 3);
    CHECK(v.exact() == want);
}

TEST_CASE("delta is Kronecker's delta, exact") {
    CHECK(at("delta(j-3)", 3, 9).exact() == 1);
    CHECK(at("delta(j-3)", 4, 9).exact() == 0);
    CHECK(at("(5/2)*delta(j-0)", 0, 9).exact() == Rational(5, 2));
    CHECK(at("delta(sqrt(2)-1)", 1, 9).exact() == 0); // decided by its interval
    CHECK(Expr::parse("delta( j - 3 )").canonical() == "delta((j-3))");
}
