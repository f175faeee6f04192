// `certify --method layerwise` by the perturbation argument
// (proofs/perturbation.md): prints each layer's bounds and the verdict.
#include "certify_perturbation.hpp"
#include "run_context.hpp"
#include "tempcert/bounds.hpp"
#include "tempcert/certificate.hpp"
#include "tempcert/check.hpp"
#include "tempcert/error.hpp"
#include "tempcert/output.hpp"

#include <iostream>

namespace tempcert::cli {

namespace {

std::string up(const Rational &q) {
    return short_significant(q, 6, true);
}

Rational largest(const Vector &v) {
    Rational r = 0;
    for (const auto &x : v)
        r = std::max(r, x);
    return r;
}

CertJson run_json(const Model &m, const PerturbationRun &run, const std::string &beta_text,
                  const CertifyOptions &o, const std::string &rounding_failure) {
    return CertJson{{"model", m.name},
                    {"n", o.n},
                    {"eps", to_string(o.eps)},
                    {"criterion", to_string(o.criterion)},
                    {"method", "layerwise"},
                    {"argument", "perturbation"},
                    {"exact_rounding", rounding_failure},
                    {"beta", beta_text},
                    {"verdict", to_string(run.verdict)},
                    {"readout_deviation", to_string(run.readout_dev)},
                    {"readout_margin", run.readout_margin ? CertJson(to_string(*run.readout_margin))
                                                          : CertJson(nullptr)},
                    {"layers", perturbation_layers_json(run)},
                    {"reason", run.shortfall},
                    {"proof", "proofs/perturbation.md"}};
}

void print_run_text(const Model &m, const PerturbationRun &run, const std::string &beta_text,
                    const CertifyOptions &o, const std::string &rounding_failure) {
    std::cout << "model " << m.name << ", n <= " << o.n << ", eps = " << to_string(o.eps)
              << ", criterion " << to_string(o.criterion)
              << ", method layerwise (perturbation bounds, no enumeration)\n"
              << "  exact rounding does not apply: " << rounding_failure << "\n";
    for (std::size_t l = 0; l < run.layers.size(); ++l) {
        const PerturbedLayer &ly = run.layers[l];
        std::cout << "  layer " << l + 1 << ": " << ly.values << " hard values per position";
        for (const auto &h : ly.heads) {
            std::cout << "; head " << h.gap.head << " min gap "
                      << (h.gap.min_gap ? to_string(*h.gap.min_gap) : std::string("inf"))
                      << ", N = " << h.gap.max_allowed << ", scores move <= " << up(h.score_dev)
                      << ", tv <= " << up(h.tv);
            if (h.spread > 0)
                std::cout << " (keys spread by " << to_string(h.spread) << ", " << h.classes
                          << (h.classes == 1 ? " class)" : " classes)");
        }
        if (!ly.radius.empty()) std::cout << "; activations move <= " << up(largest(ly.radius));
        if (ly.kinks) std::cout << " (" << ly.kinks << " ReLU kinks within reach)";
        std::cout << "\n";
    }
    if (o.criterion != Criterion::Tv) {
        std::cout << "  read-out moves <= " << up(run.readout_dev);
        if (run.readout_margin)
            std::cout << ", least hard margin "
                      << decimal_significant(*run.readout_margin, 6, false);
        std::cout << "\n";
    }
    std::cout << "beta = " << beta_text << "\n";
    if (!run.shortfall.empty()) std::cout << "undecided: " << run.shortfall << "\n";
    std::cout << "verdict: " << to_string(run.verdict) << "\n";
}

// Written only when certified at betas that do not depend on n (one claim
// per layer), and only after this process's checker accepted it.
void write_certificate(const Model &m, const PerturbationRun &run, const BetaSpec &beta,
                       const std::string &beta_text, const po::variables_map &vm,
                       const CertifyOptions &o) {
    if (run.verdict != Verdict::Certified)
        throw LimitError("no certificate written: the perturbation claim is undecided (" +
                         run.shortfall + ")");
    if (beta.uses_n())
        throw LimitError("no certificate written: a perturbation certificate records betas that "
                         "do not depend on n");
    const std::string path = vm["output"].as<std::string>();
    CertJson doc = perturbation_certificate_json(m, m.source, run, o, beta_text,
                                                 vm.count("beta") ? "user" : "perturbation");
    CheckOutcome out = check_certificate_text(doc.dump(2), path, m, o.limits, o.precision);
    if (!out.accepted)
        throw LimitError("no certificate written: the checker could not verify it (" + out.reason +
                         ")");
    write_json_file(path, doc, &o.limits);
}

} // namespace

int certify_by_perturbation(const Model &m, const PerturbationArgument &arg,
                            const std::string &rounding_failure, const po::variables_map &vm,
                            const CertifyOptions &o, const Common &common) {
    if (!arg.applies())
        throw Undecided("the layerwise method does not apply: exact rounding: " + rounding_failure +
                        "; perturbation bounds: " + arg.failure() +
                        " (--method exhaustive enumerates words instead)");
    std::string beta_text;
    if (vm.count("beta")) {
        beta_text = beta_option(vm, m);
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
        beta_text = to_string(*found);
    }
    BetaSpec beta = parse_beta(beta_text, m, o.n, o.precision.start,
                               vm.count("beta") ? beta_place(vm, m) : "beta");
    PerturbationRun run = arg.run(beta, o.eps, o.criterion, o.precision.start, o.limits);
    if (vm.count("output")) write_certificate(m, run, beta, beta_text, vm, o);
    if (common.json)
        emit_json(run_json(m, run, beta_text, o, rounding_failure));
    else {
        print_run_text(m, run, beta_text, o, rounding_failure);
        if (vm.count("output"))
            std::cout << "certificate written to " << vm["output"].as<std::string>() << "\n";
    }
    return run.verdict == Verdict::Certified ? kExitOk : kExitUndecided;
}

} // namespace tempcert::cli
