// `tempcert horizon MODEL --eps E [--criterion C] [--beta B|native]
// [--max-n N]` (docs/import.md): the largest n <= N up to which every input meets
// the criterion, and the shortest counterexample beyond it.
#include "commands.hpp"
#include "options.hpp"
#include "tempcert/certificate.hpp"
#include "tempcert/error.hpp"
#include "tempcert/horizon.hpp"
#include "tempcert/outcome.hpp"
#include "tempcert/word.hpp"

#include <nlohmann/json.hpp>

#include <iostream>

namespace tempcert::cli {

namespace {

// N: --max-n when given, else the model's max_length.
std::size_t horizon_length(const po::variables_map &vm, const Model &m, const Limits &limits) {
    bool given = !vm["max-n"].defaulted();
    if (!given && !m.max_length)
        throw InputError("", "--max-n",
                         "expected --max-n N: the model declares no max_length to stop at");
    std::size_t n = given ? limits.max_n : *m.max_length;
    if (m.max_length && n > *m.max_length)
        throw InputError(m.source, "$.max_length",
                         "the model is defined for inputs up to length " +
                             std::to_string(*m.max_length) + ", not --max-n " + std::to_string(n));
    return n;
}

} // namespace

int run_horizon(const Args &args) {
    po::options_description desc("horizon options");
    po::variables_map vm;
    if (!parse_command("horizon",
                       "MODEL --eps E [--criterion C] [--beta B|native] [--max-n N] [--json]", desc,
                       args, "model", 1, vm))
        return kExitOk;
    Common common = read_common_options(vm);
    // --max-n is horizon's N, which may be below the model's max_length
    // (docs/import.md); the model is read under the usual input-length cap
    Limits reading = common.limits;
    reading.max_n = std::max(reading.max_n, Limits{}.max_n);
    Model m = load_model_file(model_arg(vm, "horizon"), reading);
    CertifyOptions o;
    o.limits = common.limits;
    o.precision = common.precision;
    o.eps = read_fraction(vm, "eps");
    o.criterion = read_criterion(vm);
    o.n = horizon_length(vm, m, common.limits);
    std::string beta_text;
    if (vm.count("beta"))
        beta_text = beta_option(vm, m);
    else if (m.beta_native)
        beta_text = m.beta_native->canonical();
    else
        throw InputError("", "--beta", "expected --beta B (the model has no beta_native)");
    BetaSpec beta = parse_beta(beta_text, m, o.n, o.precision.start, beta_place(vm, m));
    HorizonOutcome out{&m, beta.text(), o.eps, o.criterion, horizon(m, beta, o)};
    render(out, common);
    return exit_code(out);
}

} // namespace tempcert::cli
