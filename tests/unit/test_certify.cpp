// Certifier: Lemma GT values and tightness, certify/tight on the bundled
// single-layer cases, counterexamples that replay, and tie detection.
#include "helpers.hpp"
#include "tempcert/certificate.hpp"
#include "tempcert/error.hpp"

#include <boost/multiprecision/mpfr.hpp>
#include <doctest/doctest.h>

using namespace tempcert;
using namespace tempcert::test;
using Big = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<200>>;

namespace {

Big big(const Rational &r) {
    return Big(numerator(r).str()) / Big(denominator(r).str());
}

CertifyOptions options(std::size_t n, const Rational &eps) {
    CertifyOptions o;
    o.n = n;
    o.eps = eps;
    return o;
}

const char *kSingleLayer[] = {"has-b", "prev-is-a-bos", "first-is-a-bounded", "earlier-b-strict",
                              "last-cd-is-d"};

} // namespace

TEST_CASE("Lemma GT: value, safe rounding, trivial cases") {
    GapBound b = lemma_gt(4, Real(Rational(1)), Rational(1, 100), 128);
    REQUIRE(!b.trivial);
    CHECK(b.argument == 297);
    Big exact = log(Big(297));
    CHECK(big(b.beta->lower_exact()) <= exact);
    CHECK(exact <= big(b.beta->upper_exact()));
    CHECK(b.beta_up >= b.beta->upper_exact());
    CHECK(big(b.beta_up) - exact < Big("1e-29"));
    CHECK(b.beta_decimal_up == "5.69373213881"); // ln 297 = 5.693732138803...
    std::string why;
    CHECK(*parse_rational(b.beta_decimal_up, why) >= b.beta_up);
    CHECK(*parse_rational(b.tau_decimal_down, why) * b.beta_up <= 1);
    // gap 1/3 triples beta
    GapBound third = lemma_gt(4, Real(Rational(1, 3)), Rational(1, 100), 128);
    CHECK(big(third.beta_up) - 3 * exact < Big("1e-28"));
    CHECK(big(third.beta_up) >= 3 * exact);
    // (N-1)(1-eps)/eps <= 1: any beta works
    CHECK(lemma_gt(2, Real(Rational(1)), Rational(1, 2), 128).trivial);
    CHECK(lemma_gt(1, Real(Rational(1)), Rational(1, 100), 128).trivial);
    CHECK(lemma_gt(5, std::nullopt, Rational(1, 100), 128).trivial);
}

TEST_CASE("Lemma GT is tight on the extremal profile (0, -g, ..., -g)") {
    // has-b on aaab, query 4: scores 0 0 0 4, so N = m = 4, gamma = 4.
    Model m = load_case("has-b");
    Word w = parse_word("aaab", m.alphabet);
    Trace h = evaluate_hard(m, w);
    const auto &hq = h.layers[0].heads[0].queries[3];
    CHECK(hq.gap->exact() == 4);
    // At beta_gap = ln(3 * 99)/4 exactly (an interval), TV encloses eps.
    Trace s = evaluate_soft_at(m, w, BetaSpec::parse("log(297)/4", 1), h, 256);
    Interval tv = s.layers[0].heads[0].queries[3].tv->enclose(256);
    CHECK(tv.contains(Rational(1, 100)));
    CHECK(tv.narrower_than(Rational(1, Integer("1000000000000000000000000000000"))));
    // At 0.999 beta_gap the word is refuted; at beta_gap rounded up it holds.
    CertifyOptions o = options(4, Rational(1, 100));
    Violation v;
    Prec used;
    CHECK(certify_word(m, w, BetaSpec::parse("0.999*log(297)/4", 1), o, v, used) == Tri::False);
    CHECK(v.query == 4);
    GapBound b = lemma_gt(4, Real(Rational(4)), Rational(1, 100), 128);
    CHECK(certify_word(m, w, BetaSpec::constant(b.beta_up), o, v, used) == Tri::True);
}

TEST_CASE("gaps: exhaustive minimum gaps and witnesses of the bundled cases") {
    Limits lim;
    PrecisionPolicy p;
    GapReport g = min_gaps_plain(load_case("has-b"), 6, lim, p);
    CHECK(g.words == 126);
    CHECK(g.min_gap->exact() == 2);
    CHECK(g.heads[0].max_allowed == 6);
    CHECK(format_word(g.heads[0].witness->word, {"a", "b"}) == "ab");
    CHECK(g.heads[0].witness->query == 2);
    GapReport f = min_gaps_plain(load_case("first-is-a-bounded"), 6, lim, p);
    CHECK(f.min_gap->exact() == Rational(1, 6)); // 1/n at the longest length
    GapReport s = min_gaps_plain(load_case("earlier-b-strict"), 6, lim, p);
    CHECK(s.min_gap->exact() == 1);
    CHECK(s.heads[0].max_allowed == 5); // strict: n - 1
    GapReport bos = min_gaps_plain(load_case("prev-is-a-bos"), 6, lim, p);
    CHECK(bos.heads[0].max_allowed == 6); // strict with BOS: n - 1 + 1
    GapReport two = min_gaps_plain(load_case("has-ab-two-layer"), 5, lim, p);
    REQUIRE(two.heads.size() == 2);
    CHECK(two.heads[0].min_gap->exact() == 1);
    CHECK(two.heads[1].min_gap->exact() == 1);
}

TEST_CASE("certify at beta_gap is certified on every single-layer bundled case") {
    for (const char *name : kSingleLayer) {
        Model m = load_case(name);
        std::size_t n = m.alphabet.size() == 2 ? 6 : 4;
        CertifyOptions o = options(n, Rational(1, 100));
        GapReport g = min_gaps_plain(m, o.n, o.limits, o.precision);
        GapBound b = model_beta_gap(g, o.eps, 128);
        CertifyResult r = certify_exhaustive(m, BetaSpec::constant(b.beta_up), o);
        CHECK_MESSAGE(r.verdict == Verdict::Certified, name);
        CHECK(r.words == count_words(m.alphabet.size(), n));
    }
}

TEST_CASE("tight: both ends established, 0.99 beta_lo refuted by a replayable word") {
    for (const char *name : kSingleLayer) {
        Model m = load_case(name);
        CertifyOptions o = options(m.alphabet.size() == 2 ? 5 : 4, Rational(1, 100));
        TightResult t = tight_exhaustive(m, o, Rational(1, 1000000));
        CAPTURE(name);
        CHECK(t.kind == BracketKind::Threshold);
        CHECK(t.converged);
        REQUIRE(t.lo_witness);
        CHECK(t.beta_hi - t.beta_lo <= t.beta_hi / 1000000);
        CHECK(certify_exhaustive(m, BetaSpec::constant(t.beta_hi), o).verdict ==
              Verdict::Certified);
        CertifyResult below =
            certify_exhaustive(m, BetaSpec::constant(t.beta_lo * Rational(99, 100)), o);
        REQUIRE(below.verdict == Verdict::Refuted);
        // Replay the counterexample through plain evaluation: its TV exceeds eps.
        const Violation &cx = *below.counterexample;
        Trace h = evaluate_hard(m, cx.word);
        Trace s = evaluate_soft(m, cx.word, BetaSpec::constant(t.beta_lo * Rational(99, 100)), h);
        const auto &q = s.layers[cx.layer - 1].heads[cx.head - 1].queries;
        bool found = false;
        for (const auto &qq : q)
            if (qq.query == cx.query) {
                found = true;
                CHECK(less(Interval(o.eps, 128), qq.tv->enclose(128)) == Tri::True);
            }
        CHECK(found);
        // beta_gap never undercuts the tight threshold
        CHECK(t.beta_gap.beta_up >= t.beta_lo);
        // single layer, tv: the profile bound is the tight threshold, so the
        // two brackets overlap, and it never exceeds beta_gap
        CHECK(t.profile.bound.lo <= t.beta_hi);
        CHECK(t.beta_lo <= t.profile.bound.hi);
        CHECK(t.profile.bound.hi <= t.beta_gap.beta_up);
    }
}

TEST_CASE("tight values agree with closed forms") {
    // has-b, n <= 6: the binding query is "ab" at 2, scores (0, 2): ln(99)/2.
    Model m = load_case("has-b");
    TightResult t = tight_exhaustive(m, options(6, Rational(1, 100)), Rational(1, 1000000));
    Big expect = log(Big(99)) / 2;
    CHECK(big(t.beta_lo) < expect);
    CHECK(expect <= big(t.beta_hi));
    // prev-is-a-bos: scores j, geometric tail; at n = 2 the query at 2 sees
    // BOS (0) and position 1 (1): e^{-b} = 1/99, so ln 99.
    Model p = load_case("prev-is-a-bos");
    TightResult tp = tight_exhaustive(p, options(2, Rational(1, 100)), Rational(1, 1000000));
    CHECK(big(tp.beta_lo) < log(Big(99)));
    CHECK(log(Big(99)) <= big(tp.beta_hi));
}

TEST_CASE("a unique-hard head with ties of different values is caught") {
    // Rightmost head, scores constant, values j: every multi-position query ties.
    std::string text = R"({"format": "tempcert-model/1", "name": "t", "alphabet": ["a", "b"],
      "bos": null, "width": 3, "embedding": {"a": [1, 0, 0], "b": [1, 1, 0]},
      "positions": [{"dim": 2, "expr": "j"}],
      "layers": [{"heads": [{"kind": "rightmost", "mask": "causal",
        "query": [[1, 0, 0]], "key": [[0, 0, 0]], "value": [[0, 0, 1]],
        "output": [[0], [1], [0]]}], "ffn": null}],
      "output": {"weights": [0, 1, 0], "bias": "-1/2"}})";
    Model m = load_model_text(text, "inline", Limits{});
    CertifyOptions o = options(3, Rational(1, 100));
    GapReport g = min_gaps_plain(m, 3, o.limits, o.precision);
    REQUIRE(g.heads[0].tie);
    CHECK(format_word(g.heads[0].tie->word, m.alphabet) == "aa");
    CHECK(g.heads[0].tie->argmax == std::vector<std::size_t>{1, 2});
    CertifyResult r = certify_exhaustive(m, BetaSpec::constant(Rational(1000)), o);
    CHECK(r.verdict == Verdict::Refuted);
}

TEST_CASE("the word budget is checked before work") {
    CertifyOptions o = options(30, Rational(1, 100));
    CHECK_THROWS_AS(certify_exhaustive(load_case("has-b"), BetaSpec::constant(Rational(5)), o),
                    LimitError);
    CHECK(count_words(2, 3) == 14);
    CHECK(count_words(4, 200) == UINT64_MAX);
}

TEST_CASE("prefix sharing is used only for betas free of n") {
    // 3 + (n-1)(n-2) is 3 at n = 1 and 2 but 5 at n = 3: a value test would
    // wrongly share prefixes across lengths.
    Model m = load_case("has-b");
    CertifyOptions o;
    o.n = 4;
    o.eps = Rational(1, 100);
    BetaSpec tricky = BetaSpec::parse("1 + (n-1)*(n-2)", 1);
    CHECK(tricky.uses_n());
    CHECK(!certify_prefix(m, tricky, o).has_value());
    CertifyResult plain = certify_exhaustive(m, tricky, o);
    CertifyResult chosen = certify_auto(m, tricky, o);
    CHECK(chosen.method == "exhaustive");
    CHECK(to_string(chosen.verdict) == std::string(to_string(plain.verdict)));
    CHECK(certify_prefix(m, BetaSpec::parse("2*3", 1), o).has_value());
}

TEST_CASE("the binding head is the same on both paths and replays") {
    for (const char *name : {"has-ab-two-layer", "has-b", "earlier-b-strict"}) {
        CAPTURE(name);
        Model m = load_case(name);
        CertifyOptions o;
        o.n = 7;
        o.eps = Rational(1, 100);
        BetaSpec beta = BetaSpec::constant(Rational(8));
        CertifyResult prefix = certify_auto(m, beta, o);
        o.allow_prefix = false;
        CertifyResult plain = certify_auto(m, beta, o);
        REQUIRE(prefix.verdict == Verdict::Certified);
        REQUIRE(plain.verdict == Verdict::Certified);
        CHECK(prefix.method == "exhaustive-prefix");
        const Binding *a = prefix.binding(), *b = plain.binding();
        REQUIRE(a);
        REQUIRE(b);
        CHECK(a->word == b->word);
        CHECK(a->query == b->query);
        CHECK(a->layer == b->layer);
        CHECK(a->value == b->value);
        CHECK(a->value <= o.eps);
        // replay: the binding value is that query's TV upper end on that
        // word, rounded up to 40 bits (see record_binding_value)
        Trace h = evaluate_hard(m, a->word);
        Trace s = evaluate_soft_at(m, a->word, beta, h, 128);
        bool seen = false;
        for (const auto &q : s.layers[a->layer - 1].heads[a->head - 1].queries)
            if (q.query == a->query) {
                seen = true;
                Rational up = q.tv->enclose(128).upper_exact();
                CHECK(up <= a->value);
                CHECK(a->value - up <= up / Rational(std::int64_t(1) << 39));
            }
        CHECK(seen);
    }
}

TEST_CASE("tight --per-layer: every end re-established on the whole model") {
    for (const char *name : {"has-ab-two-layer", "prev-a-earlier-b"}) {
        CAPTURE(name);
        Model m = load_case(name);
        CertifyOptions o = options(reduced() ? 5 : 6, Rational(1, 100));
        const Rational rel(1, 100000);
        PerLayerTight t = tight_per_layer(m, o, rel);
        CHECK(t.converged);
        CHECK(t.whole.verdict == Verdict::Certified);
        REQUIRE(t.layers.size() == m.layers.size());
        CertifyOptions plain = o;
        plain.allow_prefix = false; // re-established without prefix sharing or filter
        for (std::size_t l = 0; l < t.layers.size(); ++l) {
            CAPTURE(l);
            const LayerTight &lt = t.layers[l];
            if (!lt.has_heads) continue;
            CHECK(lt.beta_hi <= t.joint_hi);
            CHECK(lt.beta_hi - lt.beta_lo <= rel * lt.beta_hi);
            // the vector at layer l's step: earlier layers final, later ones joint
            auto at = [&](const Rational &x) {
                std::vector<Rational> v;
                for (std::size_t k = 0; k < t.layers.size(); ++k)
                    v.push_back(k == l ? x
                                       : (k < l && t.layers[k].has_heads ? t.layers[k].beta_hi
                                                                         : t.joint_hi));
                return BetaSpec::per_layer(v);
            };
            CHECK(certify_auto(m, at(lt.beta_hi), plain).verdict == Verdict::Certified);
            REQUIRE(lt.lo_witness);
            const Violation &cx = *lt.lo_witness;
            Trace h = evaluate_hard(m, cx.word);
            Trace s = evaluate_soft(m, cx.word, at(lt.beta_lo), h);
            bool found = false;
            for (const auto &q : s.layers[cx.layer - 1].heads[cx.head - 1].queries)
                if (q.query == cx.query) {
                    found = true;
                    CHECK(less(Interval(o.eps, 128), q.tv->enclose(128)) == Tri::True);
                }
            CHECK(found);
        }
    }
    // has-ab-two-layer: layer 2's split ties bind; layer 1 alone can go lower.
    Model m = load_case("has-ab-two-layer");
    PerLayerTight t = tight_per_layer(m, options(6, Rational(1, 100)), Rational(1, 1000000));
    CHECK(t.layers[0].beta_hi < t.layers[1].beta_hi);
    CHECK(t.layers[1].lo_witness->layer == 2);
    CertifyOptions out = options(4, Rational(1, 100));
    out.criterion = Criterion::Output;
    CHECK_THROWS_AS(tight_per_layer(m, out, Rational(1, 1000)), InputError);
}
