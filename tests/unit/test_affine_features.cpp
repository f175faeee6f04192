// Features affine in j (src/gap/affine_features.cpp): where the reduction
// answers, a + b j equals the expression's own exact value at every j; it
// declines what is not affine or could fail to evaluate.
#include "gap/affine_features.hpp"
#include "helpers.hpp"
#include "tempcert/expr.hpp"

#include <doctest/doctest.h>

using namespace tempcert;
using namespace tempcert::test;

namespace {

// a + b j against Expr::eval at j = 0..n.
void agrees_everywhere(const char *text, long n) {
    Expr e = Expr::parse(text);
    std::optional<detail::AffineInJ> v = detail::affine_in_j(e, Rational(n));
    REQUIRE_MESSAGE(v, text);
    for (long j = 0; j <= n; ++j) {
        Real want = e.eval(Rational(j), Rational(n), 128);
        REQUIRE(want.is_exact());
        CHECK_MESSAGE(want.exact() == v->a + v->b * Rational(j), text << " at j = " << j);
    }
}

} // namespace

TEST_CASE("affine features: a + b j equals the expression's value") {
    for (const char *text :
         {"j/n", "(n-j+1)/n", "j", "n-j+1", "3", "2*j - n/3", "-(j/7)", "(j+1)^1", "(n/2)^2*j",
          "j/(n*n)", "(1/n)^-2 + j", "delta(n-9)*j", "delta(n)", "j*(3-1)/(n+1)", "0.25*j + 1e-3"})
        for (long n : {1L, 9L, 40L})
            agrees_everywhere(text, n);
}

TEST_CASE("affine features: declines what is not shown affine or may fail") {
    for (const char *text : {"j*j", "1/j", "j^2", "log(n)", "sqrt(j)", "delta(j)", "1/(n-9)",
                             "0^-1", "j/(j+1)", "2^100"})
        CHECK_MESSAGE(!detail::affine_in_j(Expr::parse(text), Rational(9)), text);
}
