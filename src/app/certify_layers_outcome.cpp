// certify without enumeration, by the layerwise method or the perturbation
// argument: the runs, their certificates and renderings
// (include/engine/tempcert/outcome.hpp).
#include "render_parts.hpp"
#include "tempcert/bounds.hpp"
#include "tempcert/error.hpp"
#include "tempcert/outcome.hpp"

#include <algorithm>
#include <sstream>

namespace tempcert {

namespace {

using Json = nlohmann::ordered_json;

// Every certificate certify writes, the checker can verify
// (proofs/certificate.md): it is checked in this process first (as fast as
// certifying it) and not written when the checker cannot back it, for
// example a head whose scores are not affine in the key position.
void write_backed_certificate(const std::string &path, const CertJson &doc, const Model &m,
                              const CertifyOptions &o) {
    CheckOutcome out = check_certificate_text(doc.dump(2), path, m, o.limits, o.precision);
    if (!out.accepted)
        throw LimitError("no certificate written: the checker could not verify it (" + out.reason +
                         ")");
    write_json_file(path, doc, &o.limits);
}

std::string up(const Rational &q) {
    return short_significant(q, 6, true);
}

Rational largest(const Vector &v) {
    Rational r = 0;
    for (const auto &x : v)
        r = std::max(r, x);
    return r;
}

int certified_or_undecided(Verdict v) {
    return v == Verdict::Certified ? kExitOk : kExitUndecided;
}

} // namespace

LayerwiseCertifyOutcome certify_layerwise_at(const Model &m, const CertifyOptions &o,
                                             LayerwiseResult analysis, const BetaChoice &beta,
                                             const std::string &beta_source) {
    LayerwiseCertifyOutcome c;
    c.model = &m;
    c.options = o;
    c.analysis = std::move(analysis);
    c.beta = beta.first;
    c.beta_source = beta_source;
    c.verdict = layerwise_verdict(c.analysis, beta.second, o.n, o.criterion, o.precision.start);
    return c;
}

void write_certificate(LayerwiseCertifyOutcome &c, const std::string &path) {
    if (c.verdict.verdict != Verdict::Certified)
        throw LimitError("no certificate written: " + c.verdict.certificate_shortfall);
    const Model &m = *c.model;
    write_backed_certificate(
        path, layerwise_certificate_json(m, m.source, c.analysis, c.options, c.beta, c.beta_source),
        m, c.options);
    c.written = path;
}

Json to_json(const LayerwiseCertifyOutcome &c) {
    const LayerwiseResult &lw = c.analysis;
    const CertifyOptions &o = c.options;
    Json layers = Json::array();
    for (std::size_t l = 0; l < lw.layers.size(); ++l) {
        Json heads = Json::array();
        for (const auto &h : lw.layers[l].heads)
            heads.push_back(
                {{"head", h.head}, {"min_gap", app::gap_text(h.min_gap)}, {"N", h.max_allowed}});
        layers.push_back(
            {{"layer", l + 1},
             {"values", lw.layers[l].values},
             {"beta_up", beta_shown_up(lw.layers[l].beta)},
             {"profile_up", lw.layers[l].has_profile
                                ? Json(decimal_significant(lw.layers[l].profile.hi, 12, true))
                                : Json()},
             {"heads", heads},
             {"perturbed", lw.layers[l].perturbed}});
    }
    return {{"model", c.model->name},
            {"n", o.n},
            {"eps", to_string(o.eps)},
            {"criterion", to_string(o.criterion)},
            {"method", "layerwise"},
            {"beta", c.beta},
            {"verdict", to_string(c.verdict.verdict)},
            {"readout_exact", lw.readout_exact},
            {"layers", layers},
            {"reason", c.verdict.shortfall},
            {"proof", "proofs/layerwise.md"}};
}

std::string to_text(const LayerwiseCertifyOutcome &c) {
    const LayerwiseResult &lw = c.analysis;
    std::ostringstream out;
    out << app::claim_line(*c.model, c.options.n, c.options.eps, c.options.criterion)
        << ", method layerwise (no enumeration)\n";
    for (std::size_t l = 0; l < lw.layers.size(); ++l) {
        const auto &layer = lw.layers[l];
        out << "  layer " << l + 1 << ": " << layer.values << " hard values per position";
        for (const auto &h : layer.heads)
            out << "; head " << h.head << " min gap " << app::gap_text(h.min_gap)
                << ", N = " << h.max_allowed;
        if (!layer.heads.empty()) out << "; beta >= " << beta_shown_up(layer.beta) << " (Lemma GT)";
        if (!layer.heads.empty() && layer.has_profile)
            out << ", >= " << decimal_significant(layer.profile.hi, 12, true) << " (profile bound)";
        out << "\n";
    }
    out << "  read-outs "
        << (lw.readout_exact ? std::string("exact (rounding restores every value read)")
                             : "not exact: " + lw.readout_note)
        << "\nbeta = " << c.beta << "\n";
    if (!c.verdict.shortfall.empty()) out << "undecided: " << c.verdict.shortfall << "\n";
    out << "verdict: " << to_string(c.verdict.verdict) << "\n";
    if (c.written) out << "certificate written to " << *c.written << "\n";
    return out.str();
}

int exit_code(const LayerwiseCertifyOutcome &c) {
    return certified_or_undecided(c.verdict.verdict);
}

PerturbationCertifyOutcome certify_perturbation_at(const Model &m, const CertifyOptions &o,
                                                   const PerturbationArgument &arg,
                                                   const std::string &rounding_failure,
                                                   const UserBeta &user_beta) {
    if (!arg.applies())
        throw Undecided("the layerwise method does not apply: exact rounding: " + rounding_failure +
                        "; perturbation bounds: " + arg.failure() +
                        " (--method exhaustive enumerates words instead)");
    PerturbationCertifyOutcome c;
    c.model = &m;
    c.options = o;
    c.rounding_failure = rounding_failure;
    std::optional<BetaSpec> beta;
    if (user_beta) {
        c.beta = user_beta->first;
        c.beta_source = "user";
        beta = user_beta->second;
    } else {
        std::string futile;
        std::optional<Rational> found = arg.find_beta(o.eps, o.criterion, o.precision.start,
                                                      o.limits, Rational(1, 10000), &futile);
        if (!found && !futile.empty())
            throw Undecided("the perturbation bounds close at no beta: " + futile +
                            ", whatever beta is");
        if (!found)
            throw Undecided("the perturbation bounds close at no beta up to 2^64 (run with --beta "
                            "to see which layer fails)");
        c.beta = to_string(*found);
        c.beta_source = "perturbation";
        beta =
            BetaSpec::parse(c.beta, m.layers.size(), "beta"); // positive: the bounds closed at it
    }
    c.beta_uses_n = beta->uses_n();
    c.run = arg.run(*beta, o.eps, o.criterion, o.precision.start, o.limits);
    return c;
}

void write_certificate(PerturbationCertifyOutcome &c, const std::string &path) {
    if (c.run.verdict != Verdict::Certified)
        throw LimitError("no certificate written: the perturbation claim is undecided (" +
                         c.run.shortfall + ")");
    if (c.beta_uses_n)
        throw LimitError("no certificate written: a perturbation certificate records betas that "
                         "do not depend on n");
    const Model &m = *c.model;
    write_backed_certificate(
        path, perturbation_certificate_json(m, m.source, c.run, c.options, c.beta, c.beta_source),
        m, c.options);
    c.written = path;
}

Json to_json(const PerturbationCertifyOutcome &c) {
    const PerturbationRun &run = c.run;
    const CertifyOptions &o = c.options;
    return {{"model", c.model->name},
            {"n", o.n},
            {"eps", to_string(o.eps)},
            {"criterion", to_string(o.criterion)},
            {"method", "layerwise"},
            {"argument", "perturbation"},
            {"exact_rounding", c.rounding_failure},
            {"beta", c.beta},
            {"verdict", to_string(run.verdict)},
            {"readout_deviation", to_string(run.readout_dev)},
            {"readout_margin", run.readout_margin ? Json(to_string(*run.readout_margin)) : Json()},
            {"layers", perturbation_layers_json(run)},
            {"reason", run.shortfall},
            {"proof", "proofs/perturbation.md"}};
}

std::string to_text(const PerturbationCertifyOutcome &c) {
    const PerturbationRun &run = c.run;
    std::ostringstream out;
    out << app::claim_line(*c.model, c.options.n, c.options.eps, c.options.criterion)
        << ", method layerwise (perturbation bounds, no enumeration)\n"
        << "  exact rounding does not apply: " << c.rounding_failure << "\n";
    for (std::size_t l = 0; l < run.layers.size(); ++l) {
        const PerturbedLayer &ly = run.layers[l];
        out << "  layer " << l + 1 << ": " << ly.values << " hard values per position";
        for (const auto &h : ly.heads) {
            out << "; head " << h.gap.head << " min gap " << app::gap_text(h.gap.min_gap)
                << ", N = " << h.gap.max_allowed << ", scores move <= " << up(h.score_dev)
                << ", tv <= " << up(h.tv);
            if (h.spread > 0)
                out << " (keys spread by " << to_string(h.spread) << ", " << h.classes
                    << (h.classes == 1 ? " class)" : " classes)");
        }
        if (!ly.radius.empty()) out << "; activations move <= " << up(largest(ly.radius));
        if (ly.kinks) out << " (" << ly.kinks << " ReLU kinks within reach)";
        out << "\n";
    }
    if (c.options.criterion != Criterion::Tv) {
        out << "  read-out moves <= " << up(run.readout_dev);
        if (run.readout_margin)
            out << ", least hard margin " << decimal_significant(*run.readout_margin, 6, false);
        out << "\n";
    }
    out << "beta = " << c.beta << "\n";
    if (!run.shortfall.empty()) out << "undecided: " << run.shortfall << "\n";
    out << "verdict: " << to_string(run.verdict) << "\n";
    if (c.written) out << "certificate written to " << *c.written << "\n";
    return out.str();
}

int exit_code(const PerturbationCertifyOutcome &c) {
    return certified_or_undecided(c.run.verdict);
}

} // namespace tempcert
