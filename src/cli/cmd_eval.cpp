// `tempcert eval MODEL --input WORD [--hard] [--beta B] [--summary] [--json]`: hard
// and/or soft evaluation with per-layer weights and scores (docs/commands.md).
#include "commands.hpp"
#include "options.hpp"
#include "tempcert/error.hpp"
#include "tempcert/eval.hpp"
#include "tempcert/outcome.hpp"

#include <iostream>

namespace tempcert::cli {

int run_eval(const Args &args) {
    po::options_description desc("eval options");
    po::variables_map vm;
    if (!parse_command("eval", "MODEL --input WORD [--hard] [--beta B] [--summary] [--json]", desc,
                       args, "model", 1, vm))
        return kExitOk;
    Common common = read_common_options(vm);
    common.precision.budget = &common.limits; // eval stops on SIGINT and --time-limit too
    if (!vm.count("model")) throw InputError("", "tempcert eval", "expected a MODEL file");
    if (!vm.count("input")) throw InputError("", "tempcert eval", "expected --input WORD");
    std::string path = vm["model"].as<std::vector<std::string>>().front();
    Model m = load_model_file(path, common.limits);
    Word w = parse_word(vm["input"].as<std::string>(), m.alphabet);
    if (w.size() > common.limits.max_n)
        throw LimitError("the word has length " + std::to_string(w.size()) +
                         ", more than the limit " + std::to_string(common.limits.max_n) +
                         " (--max-n)");
    const bool summary = vm["summary"].as<bool>();
    // A trace holds every query's weights: about n^2 per head, so memory
    // grows with the square of the word; bounded up front (docs/reliability.md, Limits and what
    // they bound). --summary keeps O(n) per head and needs no such bound.
    if (!summary) {
        double n = static_cast<double>(w.size() + (m.has_bos() ? 1 : 0)), heads = 0;
        for (const auto &layer : m.layers)
            heads += static_cast<double>(layer.heads.size());
        double weights = n * n * heads * (vm.count("beta") ? 2 : 1);
        if (weights > static_cast<double>(common.limits.max_entries))
            throw LimitError("evaluating a word of length " + std::to_string(w.size()) +
                             " keeps about " + std::to_string(static_cast<long long>(weights)) +
                             " attention weights (n^2 per head), more than the limit " +
                             std::to_string(common.limits.max_entries) +
                             " (--max-entries; --summary keeps only each head's extremes)");
    }
    Rational width = read_fraction(vm, "width");

    EvalOutcome out;
    out.model = &m;
    out.model_path = path;
    out.word = w;
    out.show_hard = vm["hard"].as<bool>() || !vm.count("beta");
    std::optional<BetaSpec> beta;
    if (vm.count("beta")) {
        out.beta = beta_option(vm, m);
        beta = parse_beta(out.beta, m, w.size(), common.precision.start, beta_place(vm, m));
    }
    SoftOptions options;
    options.precision = common.precision;
    options.target_width = width;
    if (summary) {
        out.summary = evaluate_summary(m, w, beta, options);
    } else {
        out.hard = evaluate_hard(m, w, common.precision);
        if (beta) out.soft = evaluate_soft(m, w, *beta, out.hard, options);
    }
    render(out, common);
    if (exit_code(out) == kExitUndecided)
        std::cerr << "tempcert eval: soft weights are not narrower than the requested width at "
                  << common.precision.cap << " bits (--prec-cap, --width)\n";
    return exit_code(out);
}

} // namespace tempcert::cli
