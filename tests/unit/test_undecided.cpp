// An undecided comparison never counts as success. Betas
// whose enclosure at the start precision is very wide (log(1 + 10^-100) *
// 10^100 is about 1, but [0, 5.9e61] at 128 bits) once made `horizon`
// answer "certified" where `certify` refutes. Each answer here is checked
// against enumeration (certify_auto) at the same beta.
#include "helpers.hpp"
#include "random_model.hpp"
#include "tempcert/beta.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/error.hpp"
#include "tempcert/horizon.hpp"
#include "tempcert/layerwise.hpp"
#include "tempcert/theorems.hpp"

#include <doctest/doctest.h>

using namespace tempcert;
using namespace tempcert::test;

namespace {

// c times a factor that is 1 - 5e-101: its value is c to 100 digits, its
// enclosure at 128 bits is [0, about 5.9e61 c].
std::string wide(const std::string &c) {
    return "(" + c + ")*log(1+10^-100)*10^100";
}

// horizon's answer at `beta` holds by enumeration: certified up to its
// length, and its first failing word (if any) refuted.
void horizon_agrees_with_enumeration(const Model &m, const BetaSpec &beta, std::size_t max_n,
                                     const Rational &eps) {
    CertifyOptions o;
    o.n = max_n;
    o.eps = eps;
    HorizonResult h;
    try {
        h = horizon(m, beta, o);
    } catch (const Undecided &) {
        return; // undecided is always an allowed answer
    }
    CAPTURE(h.methods_text());
    CAPTURE(h.certified_up_to);
    if (h.certified_up_to > 0) {
        CertifyOptions e = o;
        e.n = h.certified_up_to;
        CertifyResult r = certify_auto(m, beta, e);
        CHECK_MESSAGE(r.verdict != Verdict::Refuted,
                      "horizon certified n = " << h.certified_up_to << " but enumeration refutes "
                                               << format_word(r.counterexample->word, m.alphabet));
    }
    if (h.first_failure) {
        CHECK(h.first_failure->word.size() == h.certified_up_to + 1);
        Violation v;
        Prec used = 0;
        CHECK(certify_word(m, h.first_failure->word, beta, o, v, used) == Tri::False);
    }
}

} // namespace

TEST_CASE("BetaSpec::at_least raises the precision, and Unknown only at the cap") {
    BetaSpec b = BetaSpec::parse(wide("1"), 1);
    // at 128 bits alone the enclosure contains both 1/2 and 2
    CHECK(less(b.at(0, 1, 128), Real(Rational(2)), 128) == Tri::Unknown);
    CHECK(b.at_least(0, 1, Rational(1, 2), 128, 4096) == Tri::True);
    CHECK(b.at_least(0, 1, Rational(2), 128, 4096) == Tri::False);
    // just below 1 (1 - 10^-90): decided above, since the value is 1 - 5e-101
    CHECK(b.at_least(0, 1, Rational(1) - Rational(1) / Integer(10) / pow(Integer(10), 89), 128,
                     4096) == Tri::True);
    // a cap of 128 bits cannot tell: Unknown, neither met nor refuted
    CHECK(b.at_least(0, 1, Rational(2), 128, 128) == Tri::Unknown);
    // exact betas are decided at once, including equality
    BetaSpec exact = BetaSpec::parse("3/2", 1);
    CHECK(exact.at_least(0, 1, Rational(3, 2), 128, 128) == Tri::True);
    CHECK(exact.at_least(0, 1, Rational(3, 2) + Rational(1, 1000000), 128, 128) == Tri::False);
}

TEST_CASE("horizon at a wide beta: the issue's repro is refuted at length 2, as certify says") {
    Model m = load_case("has-b");
    CertifyOptions o;
    o.n = 6;
    o.eps = Rational(1, 100);
    HorizonResult h = horizon(m, BetaSpec::parse(wide("1"), 1), o);
    CHECK(h.certified_up_to == 1);
    REQUIRE(h.first_failure);
    // ab or ba: both have TV 0.1192 > 1/100 at beta about 1
    CHECK(h.first_failure->word.size() == 2);
    Violation v;
    Prec used = 0;
    CHECK(certify_word(m, h.first_failure->word, BetaSpec::parse(wide("1"), 1), o, v, used) ==
          Tri::False);
    // with a cap too low to decide, undecided rather than certified
    o.precision.cap = 128;
    HorizonResult u = horizon(m, BetaSpec::parse(wide("1"), 1), o);
    CHECK(u.certified_up_to < 6);
    CHECK(u.undecided.has_value());
}

TEST_CASE("horizon at wide betas agrees with enumeration on random first-layer models") {
    const Rational eps(1, 100);
    int models = 0;
    const unsigned seeds = reduced() ? 6 : 40;
    for (unsigned seed = 1; seed <= seeds; ++seed) {
        CAPTURE(seed);
        Model m = load_model_text(random_model_json(seed), "random", Limits{});
        const std::size_t n = m.alphabet.size() == 2 ? 6 : 4;
        for (const char *c : {"1", "3", "6", "12", "40"}) {
            CAPTURE(c);
            horizon_agrees_with_enumeration(m, BetaSpec::parse(wide(c), 1), n, eps);
        }
        ++models;
    }
    CHECK(models == static_cast<int>(seeds));
}

TEST_CASE("layerwise: a wide beta above what a layer needs is met, one below is not") {
    Model m = load_case("prev-a-earlier-b");
    LayerwiseResult lw = certify_layerwise(m, 24, Rational(1, 100), Limits{});
    REQUIRE(lw.applies);
    // prev-a-earlier-b at n = 24: layer 1 needs about 4.6052 (commands.sh)
    LayerwiseVerdict above =
        layerwise_verdict(lw, BetaSpec::parse(wide("1000"), 1), 24, Criterion::Tv, kPrecStart);
    CHECK(above.verdict == Verdict::Certified);
    LayerwiseVerdict below =
        layerwise_verdict(lw, BetaSpec::parse(wide("4"), 1), 24, Criterion::Tv, kPrecStart);
    CHECK(below.verdict != Verdict::Certified);
}

TEST_CASE("theorem gap-lemma: a wide claimed beta is confirmed or refuted, never guessed") {
    // N = 4, gap 1, eps 1/100: Lemma GT's beta is ln(297) = 5.69...
    TheoremOutcome hi = check_gap_lemma(4, Rational(1), Rational(1, 100),
                                        BetaSpec::parse(wide("6"), 1), kPrecStart);
    CHECK(hi.confirmed);
    TheoremOutcome lo = check_gap_lemma(4, Rational(1), Rational(1, 100),
                                        BetaSpec::parse(wide("4"), 1), kPrecStart);
    CHECK_FALSE(lo.confirmed);
    CHECK_FALSE(lo.counterexample.empty());
}
