// Soft evaluation: weights against an independent high-precision
// computation, the requested width, convergence to the hard weights, and
// the Lemma GT bound of docs/semantics.md.
#include "helpers.hpp"
#include "tempcert/error.hpp"
#include "tempcert/eval.hpp"

#include <boost/multiprecision/mpfr.hpp>
#include <doctest/doctest.h>

using namespace tempcert;
using namespace tempcert::test;
using Big = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<400>>;

namespace {

Big big(const Rational &r) {
    return Big(numerator(r).str()) / Big(denominator(r).str());
}

// True when the interval contains x up to the reference's own error.
bool contains_ref(const Interval &iv, const Big &x) {
    Big slack = Big(1) / boost::multiprecision::pow(Big(10), 100);
    Big lo = big(iv.lower_exact()), hi = big(iv.upper_exact());
    return lo <= x + slack && x - slack <= hi;
}

// softmax weights straight from the definition exp(b s_j) / sum_k exp(b s_k)
// at 400 bits, sharing no code with the evaluator.
std::vector<Big> reference_softmax(const std::vector<Rational> &scores, const Big &beta) {
    std::vector<Big> e;
    Big sum = 0;
    for (const auto &s : scores) {
        e.push_back(exp(beta * big(s)));
        sum += e.back();
    }
    for (auto &x : e)
        x /= sum;
    return e;
}

const Rational kWidth(1, Integer("1000000000000000000000000000000")); // 1e-30

} // namespace

TEST_CASE("soft weights contain the true value and are narrower than 1e-30") {
    Model m = load_case("has-b");
    for (const char *beta_text : {"50", "7/3", "2*log(n)+3", "1/1000"}) {
        Word w = parse_word("abbab", m.alphabet);
        Trace h = evaluate_hard(m, w);
        Trace s = evaluate_soft(m, w, BetaSpec::parse(beta_text, 1), h);
        CHECK(s.width_reached);
        Big beta = std::string(beta_text) == "50"       ? Big(50)
                   : std::string(beta_text) == "7/3"    ? Big(7) / 3
                   : std::string(beta_text) == "1/1000" ? Big(1) / 1000
                                                        : 2 * log(Big(5)) + 3;
        for (std::size_t t = 0; t < 5; ++t) {
            const auto &hq = h.layers[0].heads[0].queries[t];
            const auto &sq = s.layers[0].heads[0].queries[t];
            std::vector<Rational> scores;
            for (const auto &x : hq.scores)
                scores.push_back(x.exact());
            auto ref = reference_softmax(scores, beta);
            for (std::size_t a = 0; a < ref.size(); ++a) {
                Interval wa = sq.weights[a].enclose(128);
                CHECK_MESSAGE(contains_ref(wa, ref[a]), "beta " << beta_text << " query " << t + 1);
                CHECK(wa.narrower_than(kWidth));
            }
        }
    }
}

TEST_CASE("two-layer soft evaluation matches a reference through both layers") {
    Model m = load_case("has-ab-two-layer");
    Word w = parse_word("aabab", m.alphabet);
    Trace h = evaluate_hard(m, w);
    Trace s = evaluate_soft(m, w, BetaSpec::parse("3", 2), h);
    CHECK(s.width_reached);
    // Reference: layer 1 scores are j (exact), so prev_a at position i is the
    // softmax average of is_a over j < i; ab_here = relu(prev_a + is_b - 1).
    Big beta = 3;
    std::vector<int> is_a{1, 1, 0, 1, 0};
    std::vector<Big> ab(5);
    for (std::size_t i = 0; i < 5; ++i) {
        Big prev = 0;
        if (i > 0) {
            std::vector<Rational> sc;
            for (std::size_t j = 0; j < i; ++j)
                sc.push_back(Rational(static_cast<long>(j + 1)));
            auto wts = reference_softmax(sc, beta);
            for (std::size_t j = 0; j < i; ++j)
                prev += wts[j] * is_a[j];
        }
        Big pre = prev + (1 - is_a[i]) - 1;
        ab[i] = pre > 0 ? pre : Big(0);
        CHECK(contains_ref(s.layers[0].after_ffn[i][5].enclose(128), ab[i]));
    }
    // Layer 2 at the last position: scores ab_j over j <= 5, value ab_j.
    Big num = 0, den = 0;
    for (std::size_t j = 0; j < 5; ++j) {
        num += exp(beta * ab[j]) * ab[j];
        den += exp(beta * ab[j]);
    }
    Big y = num / den - Big(1) / 2;
    CHECK(contains_ref(s.outputs[0].y.enclose(128), y));
    CHECK(s.outputs[0].accept == Tri::True);
}

TEST_CASE("at beta = 50 on has-b, TV is positive and below the Lemma GT bound") {
    Model m = load_case("has-b");
    int tight = 0, strict = 0;
    for (const char *word : {"ab", "abba", "aaab", "babbaab"}) {
        Word w = parse_word(word, m.alphabet);
        Trace h = evaluate_hard(m, w);
        Trace s = evaluate_soft(m, w, BetaSpec::parse("50", 1), h);
        Big beta = 50;
        std::size_t n = w.size();
        for (std::size_t t = 0; t < n; ++t) {
            const auto &hq = h.layers[0].heads[0].queries[t];
            const auto &sq = s.layers[0].heads[0].queries[t];
            REQUIRE(sq.tv);
            Interval tv = sq.tv->enclose(128);
            if (!hq.gap) { // M = J: soft and hard agree exactly
                CHECK(tv.contains(Rational(0)));
                continue;
            }
            // N = n for a causal mask; bound (N-1) e^{-b g} / (1 + (N-1) e^{-b g})
            Big x = (Big(static_cast<long>(n)) - 1) * exp(-beta * big(hq.gap->exact()));
            Big bound = x / (1 + x);
            Big rounding = bound / boost::multiprecision::pow(Big(2), 100);
            CHECK(is_positive(tv) == Tri::True);
            CHECK(big(tv.upper_exact()) <= bound + rounding);
            // The bound is reached exactly on the extremal profile (docs/semantics.md):
            // one maximum and all other N - 1 allowed positions at the gap.
            Rational top = hq.scores[0].exact();
            for (const auto &sc : hq.scores)
                top = std::max(top, sc.exact());
            bool extremal = hq.allowed.size() == n && hq.argmax.size() == 1;
            for (const auto &sc : hq.scores)
                if (sc.exact() != top && top - sc.exact() != hq.gap->exact()) extremal = false;
            if (extremal) {
                CHECK(big(tv.lower_exact()) <= bound);
                CHECK(bound - rounding <= big(tv.upper_exact()));
                ++tight;
            } else {
                CHECK(big(tv.upper_exact()) < bound);
                ++strict;
            }
        }
    }
    CHECK(tight == 2); // "ab" query 2 (scores 0 2) and "aaab" query 4 (0 0 0 4)
    CHECK(strict == 9);
}

TEST_CASE("soft weights tend to the hard weights as beta grows") {
    Model m = load_case("earlier-b-strict");
    Word w = parse_word("babab", m.alphabet);
    Trace h = evaluate_hard(m, w);
    Interval prev(0L, 128);
    bool first = true;
    for (const char *beta : {"1", "4", "16", "64"}) {
        Trace s = evaluate_soft(m, w, BetaSpec::parse(beta, 1), h);
        Interval tv = s.layers[0].heads[0].queries[4].tv->enclose(128);
        if (!first) CHECK(less(tv, prev) == Tri::True);
        prev = tv;
        first = false;
    }
    CHECK(less(prev, Rational(1, Integer("1000000000000000000000"))) == Tri::True);
}

TEST_CASE("beta specifications: per layer, n-dependent, checked") {
    Model m = load_case("has-ab-two-layer");
    BetaSpec per = BetaSpec::parse("2,5", 2);
    CHECK(per.at(0, 4, 128).exact() == 2);
    CHECK(per.at(1, 4, 128).exact() == 5);
    BetaSpec grows = BetaSpec::parse("n/2", 2);
    CHECK(grows.at(1, 6, 128).exact() == 3);
    CHECK_THROWS_AS(BetaSpec::parse("1,2,3", 2), InputError);
    CHECK_THROWS_AS(BetaSpec::parse("j", 2), InputError);
    CHECK_THROWS_AS(BetaSpec::parse("2 +", 2), InputError);
    CHECK_THROWS_AS(BetaSpec::parse("1-n", 2).at(0, 3, 128), InputError);
    CHECK_THROWS_AS(BetaSpec::parse("0", 2).at(0, 3, 128), InputError);
    Word w = parse_word("aab", m.alphabet);
    Trace h = evaluate_hard(m, w);
    Trace s = evaluate_soft(m, w, per, h);
    CHECK(s.outputs[0].accept == Tri::True);
}

TEST_CASE("an unreachable width is reported, not faked") {
    Model m = load_case("has-b");
    Word w = parse_word("abab", m.alphabet);
    Trace h = evaluate_hard(m, w);
    SoftOptions o;
    o.precision.cap = 128;
    o.target_width = Rational(1, Integer(1) << 200);
    Trace s = evaluate_soft(m, w, BetaSpec::parse("3", 1), h, o);
    CHECK(!s.width_reached);
    CHECK(s.prec == 128);
}

TEST_CASE("a phase-stable rounding sublayer returns exact Booleans from soft inputs") {
    // One head copying "previous symbol is a" into coordinate 3 (soft: near 0
    // or 1), then r(t) = ReLU(2t - 1/2) - ReLU(2t - 3/2) into coordinate 4.
    std::string text = R"({"format": "tempcert-model/1", "name": "round", "alphabet": ["a", "b"],
      "bos": null, "width": 5, "embedding": {"a": [1, 1, 0, 0, 0], "b": [1, 0, 0, 0, 0]},
      "positions": [{"dim": 2, "expr": "j"}],
      "layers": [{"heads": [{"kind": "rightmost", "mask": "strict",
        "query": [[1, 0, 0, 0, 0]], "key": [[0, 0, 1, 0, 0]], "value": [[0, 1, 0, 0, 0]],
        "output": [[0], [0], [0], [1], [0]]}],
        "ffn": {"w1": [[0, 0, 0, 2, 0], ["-1/2", 0, 0, 2, 0], ["-3/2", 0, 0, 2, 0]],
                "b1": [0, 0, 0],
                "w2": [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 1, -1]]}}],
      "output": {"weights": [0, 0, 0, 0, 1], "bias": "-1/2"}})";
    Model m = load_model_text(text, "inline", Limits{});
    Word w = parse_word("abab", m.alphabet);
    Trace h = evaluate_hard(m, w);
    Trace s = evaluate_soft(m, w, BetaSpec::parse("10", 1), h);
    for (std::size_t t = 2; t < 4; ++t) { // positions 3, 4 see two or more positions
        const RealVector &x = s.layers[0].after_ffn[t];
        CHECK(!x[3].is_exact());  // the attention output is a soft interval
        REQUIRE(x[4].is_exact()); // its rounding is exact
        CHECK(x[4].exact() == h.layers[0].after_ffn[t][4].exact());
    }
    CHECK(s.outputs[0].y.is_exact());
}
