// `tempcert gap MODEL --n N [--json]`: minimum gap per head over all words
// of length 1..N with witnesses, and the unique-hard tie check (docs/semantics.md).
#include "commands.hpp"
#include "options.hpp"
#include "tempcert/certificate.hpp"
#include "tempcert/error.hpp"
#include "tempcert/method.hpp"
#include "tempcert/symbolic.hpp"

#include <iostream>

namespace tempcert::cli {

namespace {

std::string argmax_text(const std::vector<std::size_t> &v) {
    std::string s;
    for (auto x : v)
        s += (s.empty() ? "" : " ") + std::to_string(x);
    return "{" + s + "}";
}

} // namespace

int run_gap(const Args &args) {
    po::options_description desc("gap options");
    po::variables_map vm;
    if (!parse_command("gap", "MODEL --n N [--method auto|symbolic|exhaustive|plain] [--json]",
                       desc, args, "model", 1, vm))
        return kExitOk;
    Common common = read_common_options(vm);
    if (!vm.count("model")) throw InputError("", "tempcert gap", "expected a MODEL file");
    GapMethodAsked method = gap_method_asked(vm["method"].as<std::string>());
    std::string path = vm["model"].as<std::vector<std::string>>().front();
    Model m = load_model_file(path, common.limits);
    std::size_t n = read_n(vm, common.limits);
    check_length(m, n);
    GapReport g = min_gaps(m, n, method, common.limits, common.precision);
    bool ties = false;
    for (const auto &h : g.heads)
        ties = ties || h.tie.has_value();
    if (common.json) {
        CertJson heads = CertJson::array();
        for (const auto &h : g.heads)
            heads.push_back(
                {{"layer", h.layer},
                 {"head", h.head},
                 {"kind", to_string(h.kind)},
                 {"mask", to_string(h.mask)},
                 {"min_gap", h.min_gap
                                 ? (h.min_gap->is_exact()
                                        ? CertJson(to_string(h.min_gap->exact()))
                                        : CertJson::array({h.min_gap->interval()->lower_decimal(),
                                                           h.min_gap->interval()->upper_decimal()}))
                                 : CertJson("inf")},
                 {"N", h.max_allowed},
                 {"witness", h.witness ? witness_json(*h.witness, m) : CertJson(nullptr)},
                 {"ties", h.tie ? witness_json(*h.tie, m) : CertJson(nullptr)}});
        CertJson out{{"model", m.name},
                     {"n", n},
                     {"heads", heads},
                     {"min_gap", g.min_gap ? CertJson(to_string(*g.min_gap)) : CertJson("inf")},
                     {"method", to_string(g.method)},
                     {"words", g.words}};
        emit_json(out);
    } else {
        if (g.method == GapMethod::Symbolic)
            std::cout << "minimum gaps of " << m.name << " over all words of length 1.." << n
                      << " (symbolic, no enumeration; proofs/symbolic-gap.md)\n";
        else
            std::cout << "minimum gaps of " << m.name << " over all " << g.words
                      << " words of length 1.." << n << " (" << to_string(g.method) << ")\n";
        for (const auto &h : g.heads) {
            std::cout << "  layer " << h.layer << " head " << h.head << " (" << to_string(h.kind)
                      << ", " << to_string(h.mask) << "): min gap "
                      << (h.min_gap ? to_string(*h.min_gap) : std::string("inf"))
                      << ", N = " << h.max_allowed;
            if (h.witness)
                std::cout << "; witness " << format_word(h.witness->word, m.alphabet) << " query "
                          << h.witness->query << " argmax " << argmax_text(h.witness->argmax)
                          << " runner-up " << *h.witness->runner_up;
            std::cout << "\n";
            if (h.tie)
                std::cout << "    TIES: unique-hard query " << h.tie->query << " on "
                          << format_word(h.tie->word, m.alphabet) << " ties positions "
                          << argmax_text(h.tie->argmax)
                          << " with different values: softmax cannot simulate this head\n";
        }
        std::cout << "model minimum gap: "
                  << (g.min_gap ? to_string(*g.min_gap) : std::string("inf"))
                  << (ties ? "; tie check FAILED" : "; tie check passed") << "\n";
    }
    return ties ? kExitRefuted : kExitOk;
}

int run_bound(const Args &args) {
    po::options_description desc("bound options");
    po::variables_map vm;
    if (!parse_command("bound", "--n N --gap G --eps E [--json]", desc, args, nullptr, 0, vm))
        return kExitOk;
    Common common = read_common_options(vm);
    std::size_t n = read_n(vm, common.limits);
    Rational gap = read_fraction(vm, "gap"), eps = read_fraction(vm, "eps");
    GapBound b = lemma_gt(n, Real(gap), eps, common.precision.start);
    if (common.json) {
        CertJson out{{"N", n},
                     {"gap", to_string(gap)},
                     {"eps", to_string(eps)},
                     {"trivial", b.trivial},
                     {"argument", to_string(b.argument)},
                     {"beta_exact", b.exact},
                     {"beta_up", to_string(b.beta_up)},
                     {"beta", b.beta_decimal_up},
                     {"tau", b.tau_decimal_down},
                     {"proof", "proofs/lemma-gt.md"}};
        emit_json(out);
    } else if (b.trivial) {
        std::cout << "(N-1)(1-eps)/eps = " << to_string(b.argument)
                  << " <= 1: every beta >= 0 gives TV <= eps (proofs/lemma-gt.md)\n";
    } else {
        std::cout << "Lemma GT: beta_gap = " << b.exact << " <= " << b.beta_decimal_up
                  << " (rounded up)\n          tau_gap = 1/beta_gap >= " << b.tau_decimal_down
                  << " (rounded down)\n(proofs/lemma-gt.md)\n";
    }
    return kExitOk;
}

} // namespace tempcert::cli
