// The perturbation argument (proofs/perturbation.md; proofs/perturbation.md): its bounds
// on has-ab-two-layer against closed forms, and its certified betas against
// enumeration on random multi-layer models (a false "certified" here is the
// worst bug the project can have).
#include "helpers.hpp"
#include "random_deep_model.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/error.hpp"
#include "tempcert/layerwise.hpp"
#include "tempcert/perturbation.hpp"

#include <doctest/doctest.h>

#include <cmath>

using namespace tempcert;
using namespace tempcert::test;

namespace {

double as_double(const Rational &q) {
    return q.convert_to<double>();
}

} // namespace

TEST_CASE("perturbation bounds on has-ab-two-layer match their closed forms") {
    Model m = load_case("has-ab-two-layer");
    REQUIRE(!certify_layerwise(m, 1000, Rational(1, 100), Limits{}).applies);
    PerturbationArgument arg(m, 1000, Limits{});
    REQUIRE_MESSAGE(arg.applies(), arg.failure());
    PerturbationRun run = arg.run(BetaSpec::constant(Rational(12)), Rational(1, 100),
                                  Criterion::Decision, kPrecStart, Limits{});
    REQUIRE(run.layers.size() == 2);
    // layer 1: a rightmost strict head with gap 1 over at most 999 keys, exact scores
    const PerturbedHead &h1 = run.layers[0].heads[0];
    CHECK(h1.gap.min_gap->exact() == 1);
    CHECK(h1.gap.max_allowed == 999);
    CHECK(h1.score_dev == 0);
    CHECK(h1.spread == 1);
    CHECK(h1.classes == 1);
    // its keys j are spread (one class, spread 1): at most one competitor per
    // unit of gap, so X = e^-12 / (1 - e^-12) rather than 998 e^-12
    double x1 = std::exp(-12.0) / (1 - std::exp(-12.0)), tv1 = x1 / (1 + x1);
    CHECK(as_double(h1.tv) >= tv1);
    CHECK(as_double(h1.tv) == doctest::Approx(tv1).epsilon(1e-12));
    // its output (prev_a, coordinate 4) moves by tv1; ab_here = ReLU(prev_a + is_b - 1)
    // sits on its kink at two hard values, so coordinate 5 moves by as much
    CHECK(run.layers[0].kinks == 2);
    CHECK(run.layers[0].radius[4] == h1.tv);
    CHECK(run.layers[0].radius[5] == h1.tv);
    CHECK(run.layers[0].radius[6] == 0);
    // layer 2 reads ab_here through its key (query 1): scores move by tv1
    const PerturbedHead &h2 = run.layers[1].heads[0];
    CHECK(h2.score_dev == h1.tv);
    double e = as_double(h1.tv), x2 = 999 * std::exp(-12.0 * (1 - 2 * e));
    double tv2 = x2 / (1 + x2) + std::tanh(12.0 * e / 2);
    CHECK(as_double(h2.tv) == doctest::Approx(tv2).epsilon(1e-12));
    // the read-out reads coordinate 6 = value deviation (tv1) + tv2 * span 1
    CHECK(as_double(run.readout_dev) == doctest::Approx(e + tv2).epsilon(1e-12));
    CHECK(*run.readout_margin == Rational(1, 2));
    CHECK(run.verdict == Verdict::Certified);
    // at beta 5 the read-out may cross its margin
    PerturbationRun low = arg.run(BetaSpec::constant(Rational(5)), Rational(1, 100),
                                  Criterion::Decision, kPrecStart, Limits{});
    CHECK(low.verdict == Verdict::Undecided);
    CHECK(low.shortfall.find("layer 2 head 1: total variation") == std::string::npos);
    CHECK(!low.shortfall.empty());
    MESSAGE("at beta 5: " << low.shortfall);
}

TEST_CASE("perturbation betas on has-ab-two-layer are certified by enumeration") {
    Model m = load_case("has-ab-two-layer");
    const std::size_t n = reduced() ? 8 : 11;
    PerturbationArgument arg(m, n, Limits{});
    for (Criterion c : {Criterion::Tv, Criterion::Output, Criterion::Decision}) {
        CAPTURE(std::string(to_string(c)));
        auto beta = arg.find_beta(Rational(1, 100), c, kPrecStart, Limits{}, Rational(1, 1000));
        REQUIRE(beta);
        CertifyOptions o;
        o.n = n;
        o.eps = Rational(1, 100);
        o.criterion = c;
        CHECK(certify_auto(m, BetaSpec::constant(*beta), o).verdict == Verdict::Certified);
        // and the bisection stopped near where the bounds stop closing
        CHECK(arg.run(BetaSpec::constant(*beta * Rational(99, 100)), o.eps, c, kPrecStart, Limits{})
                  .verdict == Verdict::Undecided);
    }
}

TEST_CASE("the beta search stops at once when no beta can remove the shortfall") {
    // has-ab-two-layer with read-out bias 0: y is 0 on every word without
    // "ab", a hard margin of 0 that no beta changes (docs/reliability.md, Long steps obey Ctrl-C:
    // the search used to double beta 64 times, minutes on larger models)
    Model m = load_case("has-ab-two-layer");
    m.output.bias = Rational(0);
    PerturbationArgument arg(m, 6, Limits{});
    REQUIRE(arg.applies());
    PerturbationRun r = arg.run(BetaSpec::constant(Rational(1000)), Rational(1, 100),
                                Criterion::Decision, kPrecStart, Limits{});
    CHECK(r.verdict == Verdict::Undecided);
    CHECK(r.beta_independent);
    std::string why;
    CHECK_FALSE(arg.find_beta(Rational(1, 100), Criterion::Decision, kPrecStart, Limits{},
                              Rational(1, 1000), &why));
    CHECK_FALSE(why.empty());
    // tv does not read the read-out: its search still finds a beta
    why.clear();
    CHECK(arg.find_beta(Rational(1, 100), Criterion::Tv, kPrecStart, Limits{}, Rational(1, 1000),
                        &why));
    CHECK(why.empty());
}

TEST_CASE("a perturbation-certified beta in n holds by enumeration, N taken length by length") {
    Model m = load_case("has-ab-two-layer");
    const std::size_t n = reduced() ? 7 : 9;
    PerturbationArgument arg(m, n, Limits{});
    BetaSpec beta = BetaSpec::parse("2*log(n)+5", m.layers.size());
    PerturbationRun run = arg.run(beta, Rational(1, 10), Criterion::Tv, kPrecStart, Limits{});
    REQUIRE_MESSAGE(run.verdict == Verdict::Certified, run.shortfall);
    CHECK(run.layers[1].heads[0].gap.max_allowed == n); // the last length's N
    CertifyOptions o;
    o.n = n;
    o.eps = Rational(1, 10);
    CHECK(certify_auto(m, beta, o).verdict == Verdict::Certified);
}

TEST_CASE("perturbation-certified betas hold by enumeration on random multi-layer models") {
    int applied = 0, compared = 0, kinked = 0, spread = 0;
    // TEMPCERT_HUNT_SEEDS=K runs seeds 1..K instead (a longer hunt, by hand)
    const char *hunt = std::getenv("TEMPCERT_HUNT_SEEDS");
    const unsigned seeds = hunt ? static_cast<unsigned>(std::atoi(hunt)) : reduced() ? 150 : 800;
    Limits small; // value sets beyond 40 make the symbolic gaps slow, not more telling
    small.max_values = 40;
    for (unsigned seed = 1; seed <= seeds; ++seed) {
        CAPTURE(seed);
        Model m = load_model_text(random_deep_model_json(seed), "random", Limits{});
        const std::size_t n = m.alphabet.size() == 2 ? 6 : 4;
        std::optional<PerturbationArgument> made;
        try {
            made.emplace(m, n, small);
        } catch (const LimitError &) { // the symbolic gap's query budget
            continue;
        }
        const PerturbationArgument &arg = *made;
        if (!arg.applies()) continue;
        ++applied;
        for (Criterion c : {Criterion::Tv, Criterion::Output, Criterion::Decision}) {
            CAPTURE(std::string(to_string(c)));
            const Rational eps(1, 10);
            auto beta = arg.find_beta(eps, c, kPrecStart, Limits{}, Rational(1, 100));
            if (!beta) continue;
            for (const Rational &b : {*beta, Rational(*beta * 3)}) {
                PerturbationRun run = arg.run(BetaSpec::constant(b), eps, c, kPrecStart, Limits{});
                if (run.verdict != Verdict::Certified) continue;
                for (const auto &ly : run.layers) {
                    kinked += ly.kinks > 0;
                    for (const auto &h : ly.heads)
                        spread += h.spread > 0;
                }
                CertifyOptions o;
                o.n = n;
                o.eps = eps;
                o.criterion = c;
                CertifyResult ex = certify_auto(m, BetaSpec::constant(b), o);
                CHECK_MESSAGE(ex.verdict == Verdict::Certified,
                              "beta "
                                  << to_string(b) << ": "
                                  << (ex.counterexample ? ex.counterexample->detail : "undecided"));
                ++compared;
            }
        }
    }
    MESSAGE("models the argument applies to " << applied << ", betas compared " << compared
                                              << ", layers with kinks within reach " << kinked
                                              << ", heads with spread keys " << spread);
    CHECK(applied >= (reduced() ? 8 : 45));
    CHECK(compared >= (reduced() ? 25 : 250));
    CHECK(spread >= (reduced() ? 5 : 50));
}

#include "tempcert/certificate.hpp"
#include "tempcert/check.hpp"

namespace {

// Every number the certificate claims, by JSON pointer: lowering one (or
// raising a gap) must make the checker reject.
void tampered_claims(const CertJson &doc,
                     std::vector<std::pair<CertJson::json_pointer, bool>> &out) {
    for (std::size_t l = 0; l < doc["layers"].size(); ++l) {
        std::string p = "/layers/" + std::to_string(l);
        for (std::size_t h = 0; h < doc["layers"][l]["heads"].size(); ++h) {
            std::string hp = p + "/heads/" + std::to_string(h);
            out.push_back({CertJson::json_pointer(hp + "/score_deviation"), false});
            out.push_back({CertJson::json_pointer(hp + "/tv"), false});
            if (doc["layers"][l]["heads"][h]["min_gap"] != "inf")
                out.push_back({CertJson::json_pointer(hp + "/min_gap"), true});
        }
        for (std::size_t c = 0; c < doc["layers"][l]["radius"].size(); ++c)
            out.push_back({CertJson::json_pointer(p + "/radius/" + std::to_string(c)), false});
    }
    out.push_back({CertJson::json_pointer("/readout/deviation"), false});
}

} // namespace

TEST_CASE("perturbation certificates: the checker accepts them and rejects every lowered claim") {
    int accepted = 0, rejected = 0;
    std::vector<std::pair<Model, std::size_t>> models;
    // under sanitizers at n = 1000: the same checks, a tenth of the work
    models.push_back({load_case("has-ab-two-layer"), reduced() ? 1000 : 10000});
    Limits small;
    small.max_values = 40;
    for (unsigned seed = 1; seed <= (reduced() ? 100 : 300) && models.size() < 12; ++seed) {
        Model m = load_model_text(random_deep_model_json(seed), "random", Limits{});
        try {
            if (PerturbationArgument(m, 6, small).applies()) models.push_back({m, 6});
        } catch (const LimitError &) {
        }
    }
    for (const auto &entry : models) { // no structured bindings in CAPTURE (clang 14)
        const Model &m = entry.first;
        const std::size_t n = entry.second;
        CAPTURE(m.name);
        PerturbationArgument arg(m, n, Limits{});
        for (Criterion c : {Criterion::Tv, Criterion::Output, Criterion::Decision}) {
            CAPTURE(std::string(to_string(c)));
            CertifyOptions o;
            o.n = n;
            o.eps = Rational(1, 10);
            o.criterion = c;
            auto beta = arg.find_beta(o.eps, c, kPrecStart, Limits{}, Rational(1, 100));
            if (!beta) continue;
            PerturbationRun run =
                arg.run(BetaSpec::constant(*beta), o.eps, c, kPrecStart, Limits{});
            REQUIRE(run.verdict == Verdict::Certified);
            CertJson doc =
                perturbation_certificate_json(m, "", run, o, to_string(*beta), "perturbation");
            CheckOutcome ok = check_certificate_text(doc.dump(), "cert", m, Limits{}, {});
            REQUIRE_MESSAGE(ok.accepted, ok.reason);
            ++accepted;
            std::vector<std::pair<CertJson::json_pointer, bool>> claims;
            tampered_claims(doc, claims);
            for (const auto &claim : claims) {
                const CertJson::json_pointer &ptr = claim.first;
                const bool raise = claim.second;
                std::string why;
                Rational v = *parse_rational(doc[ptr].get<std::string>(), why);
                if (!raise && v == 0) continue; // nothing below 0 to claim
                CertJson bad = doc;
                bad[ptr] = to_string(raise ? Rational(v * 2) : Rational(v * Rational(999, 1000)));
                CheckOutcome no = check_certificate_text(bad.dump(), "cert", m, Limits{}, {});
                CHECK_MESSAGE(!no.accepted, ptr.to_string());
                rejected += !no.accepted;
            }
            // a lower beta than the claims were derived at (beta 1: no head needs one,
            // every tv claim is 0, and a lower beta is as good)
            if (*beta == 1) continue;
            CertJson low = doc;
            low["beta"]["spec"] = to_string(*beta * Rational(9, 10));
            CHECK(!check_certificate_text(low.dump(), "cert", m, Limits{}, {}).accepted);
        }
    }
    MESSAGE("certificates accepted " << accepted << ", tampered and rejected " << rejected);
    CHECK(accepted >= 15);
    CHECK(rejected >= 100);
}
