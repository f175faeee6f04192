// `tempcert certify`, `tempcert tight` and `tempcert check` (docs/semantics.md, docs/commands.md).
#include "certify_perturbation.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "tempcert/certificate.hpp"
#include "tempcert/enumerate.hpp"
#include "tempcert/error.hpp"
#include "tempcert/layerwise.hpp"
#include "tempcert/method.hpp"
#include "tempcert/outcome.hpp"
#include "tempcert/printable.hpp"

#include <iostream>

namespace tempcert::cli {

namespace {
// The slack eps - value of a certified binding, never below 0: certified
// means the quantity is at most eps, though the enclosure kept for display
// (at the working precision) may reach a little past it (docs/reliability.md, Numbers).
Rational safe_slack(const Rational &eps, const Rational &value) {
    return value <= eps ? Rational(eps - value) : Rational(0);
}

// Every certificate certify writes, the checker can verify
// (proofs/certificate.md): a layerwise certificate is checked in this process first (as fast
// as certifying it) and not written when the checker cannot back it, for
// example a head whose scores are not affine in the key position.
void write_backed_certificate(const std::string &path, const CertJson &doc, const Model &m,
                              const CertifyOptions &o) {
    CheckOutcome out = check_certificate_text(doc.dump(2), path, m, o.limits, o.precision);
    if (!out.accepted)
        throw LimitError("no certificate written: the checker could not verify it (" + out.reason +
                         ")");
    write_json_file(path, doc, &o.limits);
}

// The checker verifies exhaustive certificates whose gaps are exact
// rationals; a model whose least gaps are irrational (sqrt or log features
// reaching the scores) gets its verdict, but no certificate (item 21).
void refuse_irrational_gaps(const GapReport &gaps) {
    for (const auto &h : gaps.heads)
        if (h.min_gap && !h.min_gap->is_exact())
            throw LimitError("no certificate written: layer " + std::to_string(h.layer) + " head " +
                             std::to_string(h.head) +
                             " has an irrational least gap, and tempcert-check verifies exact "
                             "gaps only (without -o the verdict is printed)");
}
} // namespace

namespace {

CertifyOptions read_claim(const po::variables_map &vm, const Common &common) {
    CertifyOptions o;
    o.limits = common.limits;
    o.precision = common.precision;
    o.n = read_n(vm, common.limits);
    o.eps = read_fraction(vm, "eps");
    o.criterion = read_criterion(vm);
    o.allow_prefix = vm["method"].as<std::string>() != "plain";
    o.filter = !vm["no-filter"].as<bool>();
    return o;
}

} // namespace

namespace {

// `certify --method layerwise` where exact rounding applies
// (src/certify/layerwise.cpp): no enumeration, any n; certified when beta
// meets every layer's bound at every length.
int certify_by_layers(const Model &m, const LayerwiseResult &lw, const po::variables_map &vm,
                      const CertifyOptions &o, const Common &common) {
    std::string beta_text = vm.count("beta") ? beta_option(vm, m) : to_string(lw.beta_up);
    BetaSpec beta = parse_beta(beta_text, m, o.n, o.precision.start,
                               vm.count("beta") ? beta_place(vm, m) : "beta");
    LayerwiseVerdict lv = layerwise_verdict(lw, beta, o.n, o.criterion, o.precision.start);
    const Verdict verdict = lv.verdict;
    const std::string &shortfall = lv.shortfall;
    if (vm.count("output")) {
        if (!lv.certificate_ready)
            throw LimitError("no certificate written: " + lv.certificate_shortfall);
        write_backed_certificate(
            vm["output"].as<std::string>(),
            layerwise_certificate_json(m, m.source, lw, o, beta_text,
                                       vm.count("beta") ? "user" : "layerwise"),
            m, o);
    }
    if (common.json) {
        CertJson layers = CertJson::array();
        for (std::size_t l = 0; l < lw.layers.size(); ++l) {
            CertJson heads = CertJson::array();
            for (const auto &h : lw.layers[l].heads)
                heads.push_back({{"head", h.head},
                                 {"min_gap", h.min_gap ? to_string(*h.min_gap) : "inf"},
                                 {"N", h.max_allowed}});
            layers.push_back(
                {{"layer", l + 1},
                 {"values", lw.layers[l].values},
                 {"beta_up", beta_shown_up(lw.layers[l].beta)},
                 {"profile_up", lw.layers[l].has_profile ? CertJson(decimal_significant(
                                                               lw.layers[l].profile.hi, 12, true))
                                                         : CertJson(nullptr)},
                 {"heads", heads},
                 {"perturbed", lw.layers[l].perturbed}});
        }
        emit_json(CertJson{{"model", m.name},
                           {"n", o.n},
                           {"eps", to_string(o.eps)},
                           {"criterion", to_string(o.criterion)},
                           {"method", "layerwise"},
                           {"beta", beta_text},
                           {"verdict", to_string(verdict)},
                           {"readout_exact", lw.readout_exact},
                           {"layers", layers},
                           {"reason", shortfall},
                           {"proof", "proofs/layerwise.md"}});
    } else {
        std::cout << "model " << m.name << ", n <= " << o.n << ", eps = " << to_string(o.eps)
                  << ", criterion " << to_string(o.criterion)
                  << ", method layerwise (no enumeration)\n";
        for (std::size_t l = 0; l < lw.layers.size(); ++l) {
            std::cout << "  layer " << l + 1 << ": " << lw.layers[l].values
                      << " hard values per position";
            for (const auto &h : lw.layers[l].heads)
                std::cout << "; head " << h.head << " min gap "
                          << (h.min_gap ? to_string(*h.min_gap) : std::string("inf"))
                          << ", N = " << h.max_allowed;
            if (!lw.layers[l].heads.empty())
                std::cout << "; beta >= " << (beta_shown_up(lw.layers[l].beta)) << " (Lemma GT)";
            if (!lw.layers[l].heads.empty() && lw.layers[l].has_profile)
                std::cout << ", >= " << decimal_significant(lw.layers[l].profile.hi, 12, true)
                          << " (profile bound)";
            std::cout << "\n";
        }
        std::cout << "  read-outs "
                  << (lw.readout_exact ? std::string("exact (rounding restores every value read)")
                                       : "not exact: " + lw.readout_note)
                  << "\nbeta = " << beta_text << "\n";
        if (!shortfall.empty()) std::cout << "undecided: " << shortfall << "\n";
        std::cout << "verdict: " << to_string(verdict) << "\n";
        if (vm.count("output"))
            std::cout << "certificate written to " << vm["output"].as<std::string>() << "\n";
    }
    return verdict == Verdict::Certified ? kExitOk : kExitUndecided;
}

} // namespace

namespace {

// The exhaustive path's run: gaps, the beta certified, the verdict.
struct ExhaustiveRun {
    GapReport gaps;
    GapBound bgap;
    std::string beta_text, source;
    CertifyResult r;
};

ExhaustiveRun certify_exhaustively(const Model &m, const po::variables_map &vm,
                                   const CertifyOptions &o) {
    ExhaustiveRun run;
    run.gaps = o.allow_prefix ? min_gaps_exhaustive(m, o.n, o.limits, o.precision)
                              : min_gaps_plain(m, o.n, o.limits, o.precision);
    run.bgap = model_beta_gap(run.gaps, o.eps, o.precision.start);
    if (vm.count("beta")) {
        run.beta_text = beta_option(vm, m);
        run.source = "user";
    } else {
        run.beta_text = to_string(beta_to_certify(run.bgap));
        run.source = "beta_gap";
    }
    run.r = certify_auto(m,
                         parse_beta(run.beta_text, m, o.n, o.precision.start,
                                    vm.count("beta") ? beta_place(vm, m) : "beta"),
                         o);
    return run;
}

void print_certify_json(const CertJson &cert, const ExhaustiveRun &run, const Model &m,
                        const CertifyOptions &o) {
    const CertifyResult &r = run.r;
    const Binding *bind = r.verdict == Verdict::Certified ? r.binding() : nullptr;
    CertJson out = cert;
    out["min_gap"] = cert["gaps"]["min_gap"];
    out["filter"] = {{"used", o.filter && r.method == "exhaustive-prefix"},
                     {"decided", r.filter_decided},
                     {"fallbacks", r.filter_fallbacks}};
    if (bind)
        out["binding"] = {{"layer", bind->layer},
                          {"head", bind->head},
                          {"query", bind->query},
                          {"word", format_word(bind->word, m.alphabet)},
                          {"value_up", decimal_significant(bind->value, 12, true)},
                          {"slack", decimal_significant(safe_slack(o.eps, bind->value), 12, false)},
                          {"exact_choice", r.binding_exact}};
    emit_json(out);
}

// "binding: ..." : where a certified claim is tightest, and its slack.
void print_binding(const Binding &bind, const CertifyResult &r, const Model &m,
                   const CertifyOptions &o) {
    std::cout << "binding: "
              << (bind.layer ? "layer " + std::to_string(bind.layer) + " head " +
                                   std::to_string(bind.head) + " query "
                             : std::string("read-out at position "))
              << bind.query << " on " << format_word(bind.word, m.alphabet) << ", "
              << to_string(o.criterion) << " <= " << decimal_significant(bind.value, 6, true)
              << " against eps " << to_string(o.eps)
              << (bind.value <= o.eps
                      ? " (slack >= " +
                            decimal_significant(safe_slack(o.eps, bind.value), 6, false) + ")"
                      : std::string(" (slack >= 0: this enclosure reaches eps; the criterion was "
                                    "decided at a higher precision)"))
              << (r.binding_exact ? ""
                                  : " [largest of the near-maximal places the filter kept; "
                                    "--no-filter for the exact choice]")
              << "\n";
}

void print_certify_text(const ExhaustiveRun &run, const Model &m, const CertifyOptions &o,
                        const std::string *written) {
    const CertifyResult &r = run.r;
    std::cout << "model " << m.name << ", n <= " << o.n << ", eps = " << to_string(o.eps)
              << ", criterion " << to_string(o.criterion) << ", method " << r.method << "\n";
    std::cout << "minimum gap "
              << (run.gaps.min_gap ? to_string(*run.gaps.min_gap) : std::string("inf"));
    if (!run.bgap.trivial)
        std::cout << "; Lemma GT beta_gap = " << run.bgap.exact
                  << " <= " << run.bgap.beta_decimal_up;
    std::cout << "\nbeta = "
              << (run.source != "beta_gap" ? run.beta_text
                  : run.bgap.trivial
                      ? run.beta_text +
                            " (beta_gap is 0: every beta > 0 meets Lemma GT; 1 is certified)"
                      : run.bgap.beta_decimal_up + " (beta_gap, rounded up)")
              << ", " << r.words << " words checked\n";
    if (r.filter_decided + r.filter_fallbacks > 0)
        std::cout << "filter: " << r.filter_decided << " nodes decided in double intervals, "
                  << r.filter_fallbacks << " re-judged by the exact and MPFI path\n";
    if (r.counterexample)
        std::cout << "counterexample: " << format_word(r.counterexample->word, m.alphabet) << ": "
                  << r.counterexample->detail << "\n";
    if (r.undecided && r.verdict == Verdict::Undecided)
        std::cout << "undecided at " << o.precision.cap
                  << " bits: " << format_word(r.undecided->word, m.alphabet) << ": "
                  << r.undecided->detail << "\n";
    const Binding *bind = r.verdict == Verdict::Certified ? r.binding() : nullptr;
    if (bind && bind->value > 0) print_binding(*bind, r, m, o);
    std::cout << "verdict: " << to_string(r.verdict) << "\n";
    if (written) std::cout << "certificate written to " << *written << "\n";
}

int verdict_exit(Verdict v) {
    switch (v) {
    case Verdict::Certified:
        return kExitOk;
    case Verdict::Refuted:
        return kExitRefuted;
    case Verdict::Undecided:
        return kExitUndecided;
    }
    return kExitUndecided;
}

} // namespace

int run_certify(const Args &args) {
    po::options_description desc("certify options");
    po::variables_map vm;
    if (!parse_command(
            "certify",
            "MODEL --n N --eps E [--beta B] [--criterion tv|output|decision] [-o CERT] [--json]",
            desc, args, "model", 1, vm))
        return kExitOk;
    Common common = read_common_options(vm);
    std::string path = model_arg(vm, "certify");
    Model m = load_model_file(path, common.limits);
    CertifyOptions o = read_claim(vm, common);
    check_length(m, o.n);
    std::string method = vm["method"].as<std::string>();
    if (method == "layerwise" ||
        (method == "auto" && count_words(m.alphabet.size(), o.n) > o.limits.max_words)) {
        // computed once: it decides `auto` and is the result
        // profiles (sharper per-layer betas) while they stay cheap
        LayersChoice choice = choose_layers_method(m, o.n, o.eps, o.limits, o.n <= 64);
        if (choice.method == LayersMethod::ExactRounding)
            return certify_by_layers(m, choice.layerwise, vm, o, common);
        // without exact rounding, the perturbation argument: always for
        // --method layerwise (which then says why it does not apply), for
        // auto where it applies, as `tight` takes it; else the word budget's
        // refusal below says what enumeration would cost
        if (method == "layerwise" || choice.method == LayersMethod::Perturbation)
            return certify_by_perturbation(m, *choice.perturbation, choice.layerwise.failure, vm, o,
                                           common);
    }
    check_word_budget(m.alphabet.size(), o.n, o.limits.max_words);
    ExhaustiveRun run = certify_exhaustively(m, vm, o);
    CertificateInput in;
    in.model = &m;
    in.model_file = path;
    in.options = o;
    in.beta_spec = run.beta_text;
    in.beta_source = run.source;
    in.beta_gap = run.source == "beta_gap" ? &run.bgap : nullptr;
    in.gaps = &run.gaps;
    in.result = &run.r;
    CertJson cert = certificate_json(in);
    std::optional<std::string> written;
    if (vm.count("output") && run.r.verdict != Verdict::Undecided) {
        refuse_irrational_gaps(run.gaps);
        written = vm["output"].as<std::string>();
        write_json_file(*written, cert, &common.limits);
    }
    if (common.json)
        print_certify_json(cert, run, m, o);
    else
        print_certify_text(run, m, o, written ? &*written : nullptr);
    return verdict_exit(run.r.verdict);
}

namespace {

int print_per_layer(const Model &m, const CertifyOptions &o, const PerLayerTight &t,
                    const Common &common) {
    bool whole = t.whole.verdict == Verdict::Certified;
    if (common.json) {
        CertJson layers = CertJson::array();
        for (const auto &l : t.layers) {
            if (!l.has_heads) {
                layers.push_back({{"layer", l.layer}, {"heads", false}});
                continue;
            }
            layers.push_back(
                {{"layer", l.layer},
                 {"heads", true},
                 {"beta_lo", decimal_significant(l.beta_lo, 15, false)},
                 {"beta_hi", decimal_significant(l.beta_hi, 15, true)},
                 {"beta_lo_exact", to_string(l.beta_lo)},
                 {"beta_hi_exact", to_string(l.beta_hi)},
                 {"lo_witness", l.lo_witness ? CertJson(format_word(l.lo_witness->word, m.alphabet))
                                             : CertJson(nullptr)},
                 {"lo_violation",
                  l.lo_witness ? violation_json(*l.lo_witness, m) : CertJson(nullptr)},
                 {"converged", l.converged},
                 {"note", l.note}});
        }
        emit_json(CertJson{{"model", m.name},
                           {"n", o.n},
                           {"eps", to_string(o.eps)},
                           {"criterion", to_string(o.criterion)},
                           {"joint_beta_hi", decimal_significant(t.joint_hi, 15, true)},
                           {"per_layer", layers},
                           {"beta", t.betas.text()},
                           {"whole_model", to_string(t.whole.verdict)},
                           {"converged", t.converged},
                           {"certify_runs", t.certify_runs},
                           {"proof", "proofs/tight-bracket.md"}});
    } else {
        std::cout << "model " << m.name << ", n <= " << o.n << ", eps = " << to_string(o.eps)
                  << ", criterion tv, one beta per layer\n"
                  << "  one beta for all layers: certified at "
                  << decimal_significant(t.joint_hi, 15, true)
                  << "; then each layer's lowered in turn, the others as they stand\n";
        for (const auto &l : t.layers) {
            std::cout << "  layer " << l.layer << ": ";
            if (!l.has_heads) {
                std::cout << "no heads\n";
                continue;
            }
            std::cout << "beta in [" << decimal_significant(l.beta_lo, 15, false) << ", "
                      << decimal_significant(l.beta_hi, 15, true) << "] (bracket)";
            if (l.lo_witness)
                std::cout << "; beta_lo refuted by " << format_word(l.lo_witness->word, m.alphabet)
                          << " (" << l.lo_witness->detail << ")";
            if (!l.note.empty()) std::cout << "; note: " << l.note;
            std::cout << "\n";
        }
        std::cout << "whole model at beta = (";
        for (const auto &l : t.layers)
            std::cout << (l.layer > 1 ? ", " : "")
                      << decimal_significant(l.has_heads ? l.beta_hi : t.joint_hi, 15, true);
        std::cout << "): " << to_string(t.whole.verdict) << " for every word of length 1.." << o.n
                  << " (exact values: --json)\n";
    }
    return t.converged && whole ? kExitOk : kExitUndecided;
}

} // namespace

int run_tight(const Args &args) {
    po::options_description desc("tight options");
    po::variables_map vm;
    if (!parse_command("tight",
                       "MODEL --n N --eps E [--rel R] [--criterion ...] [--per-layer] [--json]",
                       desc, args, "model", 1, vm))
        return kExitOk;
    Common common = read_common_options(vm);
    std::string path = model_arg(vm, "tight");
    Model m = load_model_file(path, common.limits);
    CertifyOptions o = read_claim(vm, common);
    check_length(m, o.n);
    Rational rel = read_fraction(vm, "rel");
    if (vm["per-layer"].as<bool>())
        return print_per_layer(m, o, tight_per_layer(m, o, rel), common);
    TightOutcome out{&m, o.n, o.eps, o.criterion, tight_auto(m, o, rel, o.limits.max_words)};
    render(out, common);
    return exit_code(out);
}

int run_check(const Args &args) {
    po::options_description desc("check options");
    po::variables_map vm;
    if (!parse_command("check", "CERT --model MODEL [--json]", desc, args, "certificate", 1, vm))
        return kExitOk;
    Common common = read_common_options(vm);
    if (!vm.count("certificate")) throw InputError("", "tempcert check", "expected a CERT file");
    if (!vm.count("model")) throw InputError("", "tempcert check", "expected --model MODEL");
    std::string cert = vm["certificate"].as<std::vector<std::string>>().front();
    CheckAnswer out{cert, check_certificate(cert, vm["model"].as<std::string>(), common.limits,
                                            common.precision)};
    render(out, common);
    if (out.outcome.malformed) // bad input, said once on standard error like any other
        std::cerr << printable("tempcert: " +
                                   malformed_certificate_message(cert, out.outcome.reason),
                               true)
                  << "\n";
    return exit_code(out);
}

} // namespace tempcert::cli
