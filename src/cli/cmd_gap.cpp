// `tempcert gap MODEL --n N [--json]`: minimum gap per head over all words
// of length 1..N with witnesses, and the unique-hard tie check (docs/semantics.md).
#include "commands.hpp"
#include "options.hpp"
#include "tempcert/error.hpp"
#include "tempcert/method.hpp"
#include "tempcert/outcome.hpp"

#include <iostream>

namespace tempcert::cli {

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
    GapOutcome out{&m, n, min_gaps(m, n, method, common.limits, common.precision)};
    render(out, common);
    return exit_code(out);
}

int run_bound(const Args &args) {
    po::options_description desc("bound options");
    po::variables_map vm;
    if (!parse_command("bound", "--n N --gap G --eps E [--json]", desc, args, nullptr, 0, vm))
        return kExitOk;
    Common common = read_common_options(vm);
    std::size_t n = read_n(vm, common.limits);
    Rational gap = read_fraction(vm, "gap"), eps = read_fraction(vm, "eps");
    BoundOutcome out{n, gap, eps, lemma_gt(n, Real(gap), eps, common.precision.start)};
    render(out, common);
    return kExitOk;
}

} // namespace tempcert::cli
