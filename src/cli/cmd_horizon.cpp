// `tempcert horizon MODEL --eps E [--criterion C] [--beta B|native]
// [--max-n N]` (docs/import.md): the largest n <= N up to which every input meets
// the criterion, and the shortest counterexample beyond it.
#include "commands.hpp"
#include "options.hpp"
#include "tempcert/certificate.hpp"
#include "tempcert/error.hpp"
#include "tempcert/every_n.hpp"
#include "tempcert/horizon.hpp"
#include "tempcert/outcome.hpp"
#include "tempcert/word.hpp"

#include <nlohmann/json.hpp>

#include <iostream>

namespace tempcert::cli {

namespace {

// Whether horizon asks about every length: no --max-n, no max_length.
bool every_length(const po::variables_map &vm, const Model &m) {
    return vm["max-n"].defaulted() && !m.max_length;
}

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
    const bool every = every_length(vm, m);
    if (every) {
        if (const std::string why = every_n_unavailable(m, o); !why.empty())
            throw InputError("", "--max-n",
                             "expected --max-n N: the model declares no max_length to stop at, "
                             "and every length at once does not apply (" +
                                 why + ")");
        o.n = kEveryNLongestExact;
    } else {
        o.n = horizon_length(vm, m, common.limits);
    }
    std::string beta_text;
    if (vm.count("beta"))
        beta_text = beta_option(vm, m);
    else if (m.beta_native)
        beta_text = m.beta_native->canonical();
    else
        throw InputError("", "--beta", "expected --beta B (the model has no beta_native)");
    BetaSpec beta = parse_beta(beta_text, m, o.n, o.precision.start, beta_place(vm, m));
    if (every) {
        Real value = beta.at(0, 1, o.precision.start);
        if (beta.per_layer() || beta.uses_n() || !value.is_exact())
            throw InputError("", "--beta",
                             "horizon for every length takes one rational beta (not a list, an "
                             "expression in n, log or sqrt); or give --max-n N");
        HorizonOutcome out{&m, beta.text(), o.eps, o.criterion, {}};
        try {
            out.result =
                horizon_every_n(m, model_arg(vm, "horizon"), o, {beta_text, beta}, value.exact());
        } catch (const Undecided &e) {
            // Theorem L's scope is known only once tried: outside it, as
            // outside the others', horizon needs a length to stop at
            if (!every_n_by_layers(m)) throw;
            throw InputError("", "--max-n",
                             "expected --max-n N: the model declares no max_length to stop at, "
                             "and every length at once does not apply (" +
                                 std::string(e.what()) + ")");
        }
        render(out, common);
        return exit_code(out);
    }
    HorizonOutcome out{&m, beta.text(), o.eps, o.criterion, horizon(m, beta, o)};
    render(out, common);
    return exit_code(out);
}

} // namespace tempcert::cli
