// Layerwise certification (proofs/layerwise.md): it certifies only what exhaustive
// certification certifies (Lemma GT's beta and the sharper profile need), its
// beta is at least the tight one, and a broken
// rounding sublayer is rejected with its layer and unit named.
#include "helpers.hpp"
#include "tempcert/certificate.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/layerwise.hpp"
#include "tempcert/ltl.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

using namespace tempcert;
using namespace tempcert::test;

namespace {

void agrees_with_exhaustive(const Model &m, std::size_t n) {
    const Rational eps(1, 100);
    LayerwiseResult lw = certify_layerwise(m, n, eps, Limits{});
    REQUIRE_MESSAGE(lw.applies, lw.failure);
    CertifyOptions o;
    o.n = n;
    o.eps = eps;
    BetaSpec beta = BetaSpec::constant(lw.beta_up);
    // what layerwise certifies, exhaustive evaluation certifies too
    CHECK(certify_auto(m, beta, o).verdict == Verdict::Certified);
    if (lw.readout_exact) {
        o.criterion = Criterion::Decision;
        CHECK(certify_auto(m, beta, o).verdict == Verdict::Certified);
        o.criterion = Criterion::Tv;
    }
    // and its beta is no smaller than the tight one
    TightResult t = tight_exhaustive(m, o, Rational(1, 10000));
    CHECK(lw.beta_up >= t.beta_lo);
    // the sharper need with profiles (tight's upper end beyond enumeration):
    // at most Lemma GT's, certified by exhaustive evaluation, above the
    // tight lower end
    LayerwiseResult lp = certify_layerwise(m, n, eps, Limits{}, true);
    REQUIRE(lp.applies);
    CHECK(lp.profile_up <= lw.beta_up);
    CHECK(lp.profile_up >= t.beta_lo);
    CHECK(certify_auto(m, BetaSpec::constant(lp.profile_up), o).verdict == Verdict::Certified);
}

} // namespace

TEST_CASE("layerwise certifies only what exhaustive certifies") {
    // TEMPCERT_LAYERWISE_N=10 runs the n = 10 (about 10 minutes).
    std::size_t n = reduced() ? 4 : 7;
    if (const char *e = std::getenv("TEMPCERT_LAYERWISE_N")) n = std::stoul(e);
    for (const char *name :
         {"prev-a-earlier-b", "every-a-after-b-bounded", "has-b", "earlier-b-strict"}) {
        CAPTURE(name);
        agrees_with_exhaustive(load_case(name), n);
    }
    // with a BOS position (constant coordinate 1, no symbol): every head sees it
    Model with_bos = load_case("prev-a-earlier-b");
    with_bos.bos = "<s>";
    with_bos.embedding["<s>"] = with_bos.embedding.at("a");
    with_bos.embedding["<s>"][0] = 0;
    REQUIRE(with_bos.embedding["<s>"][2] == 1);
    agrees_with_exhaustive(with_bos, n);
    LayerwiseResult lw = certify_layerwise(with_bos, 1000, Rational(1, 100), Limits{});
    REQUIRE(lw.applies);
    CHECK(lw.layers[0].bos_values == 1);
    CertifyOptions o;
    o.n = 1000;
    o.eps = Rational(1, 100);
    CheckOutcome ok = check_certificate_text(
        layerwise_certificate_json(with_bos, "", lw, o, to_string(lw.beta_up), "layerwise").dump(),
        "cert", with_bos, Limits{}, {});
    CHECK_MESSAGE(ok.accepted, ok.reason);
    for (const char *f : {"a S b", "H (a -> Y b)", "(a S b) U (Y a)", "G (a -> F b)", "Y Y b"}) {
        CAPTURE(f);
        Formula formula = Formula::parse(f, {"a", "b"});
        agrees_with_exhaustive(compile_formula(formula, PositionEncoding::Unbounded, false), n);
        agrees_with_exhaustive(compile_formula(formula, PositionEncoding::Bounded, false), n);
    }
}

TEST_CASE("layerwise gives one beta per layer from the gaps over the value sets") {
    Model m = load_case("prev-a-earlier-b");
    LayerwiseResult lw = certify_layerwise(m, 64, Rational(1, 100), Limits{});
    REQUIRE(lw.applies);
    CHECK(lw.readout_exact);
    std::size_t attention = 0;
    for (const auto &layer : lw.layers)
        for (const auto &h : layer.heads) {
            ++attention;
            CHECK(h.min_gap->exact() == 1); // proofs/ltl-construction.md
        }
    CHECK(attention == 3);
    // ln(63 * 99) = 8.73825... for the causal head (N = 64 - 1 ... and 64)
    CHECK(lw.beta_up > Rational(8738, 1000));
    CHECK(lw.beta_up < Rational(8739, 1000));
}

TEST_CASE("a broken rounding sublayer is rejected, naming the layer and unit") {
    Formula f = Formula::parse("a S b", {"a", "b"});
    Model m = compile_formula(f, PositionEncoding::Unbounded, false);
    // r(t) = ReLU(2t - 1/2) - ReLU(2t - 3/2): break the first unit's bias so
    // that a soft output within eps of 0 switches it on.
    Layer &att = m.layers.back();
    REQUIRE(att.ffn);
    bool broken = false;
    for (auto &row : att.ffn->w1)
        for (auto &x : row)
            if (!broken && x == Rational(-1, 2)) {
                x = Rational(-1, 1000);
                broken = true;
            }
    REQUIRE(broken);
    LayerwiseResult lw = certify_layerwise(m, 8, Rational(1, 100), Limits{});
    CHECK(!lw.applies);
    CHECK(lw.failure.find("layer " + std::to_string(m.layers.size()) +
                          ": ReLU unit 1 changes phase") != std::string::npos);
    // a non-rounded model: the perturbation reaches a later head
    LayerwiseResult two =
        certify_layerwise(load_case("has-ab-two-layer"), 8, Rational(1, 100), Limits{});
    CHECK(!two.applies);
    CHECK(two.failure.find("layer 1") != std::string::npos);
}

#include <fstream>
#include <nlohmann/json.hpp>

TEST_CASE("layerwise certificates of every bundled formula pass check; tampered ones do not") {
    std::ifstream in(std::string(TEMPCERT_TEST_DIR) + "/../cases/ltl/manifest.json");
    auto manifest = nlohmann::json::parse(in);
    const Rational eps(1, 100);
    int accepted = 0, rejected = 0;
    for (const auto &c : manifest.at("formulas")) {
        auto alphabet = c.at("alphabet").get<std::vector<std::string>>();
        for (auto pe : {PositionEncoding::Unbounded, PositionEncoding::Bounded})
            for (std::size_t n : {std::size_t(9), std::size_t(reduced() ? 12 : 33)}) {
                CAPTURE(c.at("formula").get<std::string>());
                CAPTURE(n);
                Model m = compile_formula(Formula::parse(c.at("formula"), alphabet), pe, false);
                LayerwiseResult lw = certify_layerwise(m, n, eps, Limits{});
                REQUIRE_MESSAGE(lw.applies, lw.failure);
                CertifyOptions o;
                o.n = n;
                o.eps = eps;
                CertJson doc =
                    layerwise_certificate_json(m, "", lw, o, to_string(lw.beta_up), "layerwise");
                CheckOutcome ok = check_certificate_text(doc.dump(), "cert", m, Limits{}, {});
                CHECK_MESSAGE(ok.accepted, ok.reason);
                accepted += ok.accepted;
                // a gap claimed larger than it is, and a beta just below the need
                for (auto &layer : doc["layers"])
                    for (auto &h : layer["heads"])
                        if (h["min_gap"] != "inf") {
                            CertJson bad = doc;
                            bad["layers"][layer["layer"].get<std::size_t>() - 1]["heads"][0]
                               ["min_gap"] = to_string(Rational(h["min_gap"].get<std::string>()) *
                                                       Rational(3, 2));
                            CheckOutcome no =
                                check_certificate_text(bad.dump(), "cert", m, Limits{}, {});
                            CHECK(!no.accepted);
                            CHECK(no.reason.find("min_gap") != std::string::npos);
                            rejected += !no.accepted;
                            break;
                        }
                if (lw.beta_up > 1) {
                    CertJson low = doc;
                    low["beta"]["spec"] = to_string(lw.beta_up * Rational(999999, 1000000));
                    CheckOutcome no = check_certificate_text(low.dump(), "cert", m, Limits{}, {});
                    CHECK(!no.accepted);
                    CHECK(no.reason.find("needs beta") != std::string::npos);
                    rejected += !no.accepted;
                }
            }
    }
    MESSAGE("accepted " << accepted << ", tampered and rejected " << rejected);
    CHECK(accepted >= 80);
}

#include "random_model.hpp"

namespace {

// The layerwise preconditions on a random one-layer model: values and
// outputs leave the feature coordinates alone.
void leave_features_alone(Model &m) {
    for (auto &h : m.layers[0].heads)
        for (const auto &f : m.positions) {
            for (auto &row : h.value)
                row[f.dim] = 0;
            for (auto &x : h.output[f.dim])
                x = 0;
        }
}

} // namespace

TEST_CASE("layerwise gaps on random one-layer models (BOS or not) = enumeration = the checker's") {
    int compared = 0, finite = 0, bos = 0, bos_compared = 0;
    const unsigned seeds = reduced() ? 120 : 300;
    for (unsigned seed = 1; seed <= seeds; ++seed) {
        CAPTURE(seed);
        Model m = load_model_text(random_model_json(seed), "random", Limits{});
        bos += m.has_bos();
        leave_features_alone(m);
        const std::size_t n = m.alphabet.size() <= 2 ? 6 : 4;
        LayerwiseResult lw = certify_layerwise(m, n, Rational(1, 10), Limits{});
        if (!lw.applies) continue; // ties of different values, or a phase change
        GapReport ex = min_gaps_plain(m, n, Limits{}, PrecisionPolicy{});
        for (std::size_t h = 0; h < ex.heads.size(); ++h) {
            const auto &a = ex.heads[h].min_gap, &b = lw.layers[0].heads[h].min_gap;
            REQUIRE(a.has_value() == b.has_value());
            if (a) CHECK(a->exact() == b->exact());
            finite += a.has_value();
        }
        CertifyOptions o;
        o.n = n;
        o.eps = Rational(1, 10);
        CertJson doc = layerwise_certificate_json(m, "", lw, o, to_string(lw.beta_up), "layerwise");
        CheckOutcome ok = check_certificate_text(doc.dump(), "cert", m, Limits{}, {});
        if (ok.reason.find("not affine") != std::string::npos) continue; // (j-2)^2 and j*j/4
        CHECK_MESSAGE(ok.accepted, ok.reason);
        ++compared;
        bos_compared += m.has_bos();
    }
    MESSAGE("models compared " << compared << " (" << bos_compared << " with BOS, of " << bos
                               << "), finite gaps " << finite);
    CHECK(compared >= static_cast<int>(seeds / 5));
    CHECK(bos_compared >= static_cast<int>(seeds / 10));
}

TEST_CASE("profile-judged certificates of random one-layer models: the checker against "
          "enumeration") {
    // One layer: the value set is the alphabet, so the profile bound is the
    // tight beta itself. A certificate at the engine's profile need must
    // verify; one at a beta that enumeration refutes (just below the
    // exhaustive bracket's lower end) must not, whatever the engine says.
    int accepted = 0, refused = 0, by_profile = 0;
    const unsigned seeds = reduced() ? 40 : 200;
    for (unsigned seed = 1; seed <= seeds; ++seed) {
        CAPTURE(seed);
        Model m = load_model_text(random_model_json(seed), "random", Limits{});
        leave_features_alone(m);
        const std::size_t n = m.alphabet.size() <= 2 ? 5 : 4;
        const Rational eps(1, 10);
        LayerwiseResult lw = certify_layerwise(m, n, eps, Limits{}, true);
        if (!lw.applies || lw.profile_up >= lw.beta_up || lw.profile_up <= 0) continue;
        CertifyOptions o;
        o.n = n;
        o.eps = eps;
        CertJson doc = layerwise_certificate_json(m, "", lw, o, to_string(lw.profile_up), "user");
        CheckOutcome ok = check_certificate_text(doc.dump(), "cert", m, Limits{}, {});
        if (ok.reason.find("not affine") != std::string::npos) continue;
        CHECK_MESSAGE(ok.accepted, ok.reason);
        accepted += ok.accepted;
        by_profile += doc.dump().find("judged_by") != std::string::npos;
        TightResult t = tight_exhaustive(m, o, Rational(1, 1000000));
        CHECK(t.beta_hi <= lw.profile_up * Rational(1000001, 1000000)); // the same threshold
        if (!t.lo_witness || t.beta_lo <= 0) continue;
        CertJson low = layerwise_certificate_json(m, "", lw, o, to_string(t.beta_lo), "user");
        CheckOutcome no = check_certificate_text(low.dump(), "cert", m, Limits{}, {});
        CHECK_MESSAGE(!no.accepted, "refuted by enumeration at " << to_string(t.beta_lo));
        refused += !no.accepted;
    }
    MESSAGE("accepted " << accepted << " (" << by_profile << " judged by profile), refused below "
                        << refused);
    CHECK(by_profile >= static_cast<int>(seeds / 10));
    CHECK(refused >= static_cast<int>(seeds / 10));
}
