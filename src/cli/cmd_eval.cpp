// `tempcert eval MODEL --input WORD [--hard] [--beta B] [--json]`: hard
// and/or soft evaluation with per-layer weights and scores (docs/commands.md).
#include "commands.hpp"
#include "options.hpp"
#include "tempcert/error.hpp"
#include "tempcert/eval.hpp"
#include "trace_json.hpp"
#include "trace_text.hpp"

#include <iostream>

namespace tempcert::cli {

int run_eval(const Args &args) {
    po::options_description desc("eval options");
    po::variables_map vm;
    if (!parse_command("eval", "MODEL --input WORD [--hard] [--beta B] [--json]", desc, args,
                       "model", 1, vm))
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
    // A trace holds every query's weights: about n^2 per head, so memory
    // grows with the square of the word; bounded up front (docs/reliability.md, Limits and what
    // they bound).
    {
        double n = static_cast<double>(w.size() + (m.has_bos() ? 1 : 0)), heads = 0;
        for (const auto &layer : m.layers)
            heads += static_cast<double>(layer.heads.size());
        double weights = n * n * heads * (vm.count("beta") ? 2 : 1);
        if (weights > static_cast<double>(common.limits.max_entries))
            throw LimitError("evaluating a word of length " + std::to_string(w.size()) +
                             " keeps about " + std::to_string(static_cast<long long>(weights)) +
                             " attention weights (n^2 per head), more than the limit " +
                             std::to_string(common.limits.max_entries) + " (--max-entries)");
    }
    Rational width = read_fraction(vm, "width");

    bool want_soft = vm.count("beta") > 0;
    bool want_hard = vm["hard"].as<bool>() || !want_soft;
    Trace hard = evaluate_hard(m, w, common.precision);
    std::optional<Trace> soft;
    if (want_soft) {
        BetaSpec beta =
            parse_beta(beta_option(vm, m), m, w.size(), common.precision.start, beta_place(vm, m));
        SoftOptions options;
        options.precision = common.precision;
        options.target_width = width;
        soft = evaluate_soft(m, w, beta, hard, options);
    }

    if (common.json) {
        Json out;
        out["model"] = m.name;
        out["word"] = format_word(w, m.alphabet);
        out["outputs"] = decoded_outputs_json(m, hard, soft ? &*soft : nullptr);
        out["hard"] = trace_json(m, hard, false);
        if (soft) {
            Json s = trace_json(m, *soft, true);
            s["beta"] = beta_option(vm, m);
            out["soft"] = s;
        }
        emit_json(out);
    } else {
        std::cout << "model " << m.name << " (" << path << "), word " << format_word(w, m.alphabet)
                  << ", n = " << w.size() << "\n";
        if (want_hard) {
            std::cout << "hard model (exact):\n";
            print_trace(std::cout, m, hard, false);
        }
        if (soft) {
            std::cout << "soft model at beta = " << beta_option(vm, m) << " (" << soft->prec
                      << "-bit intervals):\n";
            print_trace(std::cout, m, *soft, true);
        }
    }
    if (soft && !soft->width_reached) {
        std::cerr << "tempcert eval: soft weights are not narrower than the requested width at "
                  << common.precision.cap << " bits (--prec-cap, --width)\n";
        return kExitUndecided;
    }
    return kExitOk;
}

} // namespace tempcert::cli
