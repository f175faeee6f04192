// `tempcert theorem --list` and `tempcert theorem ID [params]`: instance
// checks of results stated in proofs/ (docs/commands.md, theorem and report). Exit 0 confirmed, 1
// with a counterexample.
#include "commands.hpp"
#include "options.hpp"
#include "tempcert/error.hpp"
#include "tempcert/outcome.hpp"
#include "tempcert/report.hpp"
#include "tempcert/theorems.hpp"

#include <nlohmann/json.hpp>

#include <iostream>

namespace tempcert::cli {

namespace {

TheoremOutcome gap_lemma(const po::variables_map &vm, const Common &common) {
    if (!vm.count("n"))
        throw InputError("", "--n", "expected --n N, the number of allowed positions");
    long long n = vm["n"].as<long long>();
    if (n < 2 || n > static_cast<long long>(common.limits.max_n))
        throw InputError("", "--n", "expected 2 <= N <= --max-n, got " + std::to_string(n));
    std::optional<BetaSpec> claimed;
    if (vm.count("beta")) claimed = BetaSpec::parse(vm["beta"].as<std::string>(), 1);
    return check_gap_lemma(static_cast<std::size_t>(n), read_fraction(vm, "gap"),
                           read_fraction(vm, "eps"), claimed, common.precision.start);
}

// The theorems about one model: profile-vs-gap, ahat-simulation.
TheoremOutcome model_theorem(const std::string &id, const std::vector<std::string> &ids,
                             const po::variables_map &vm, const Common &common) {
    if (ids.size() < 2) throw InputError("", "tempcert theorem " + id, "expected a MODEL file");
    Model m = load_model_file(ids[1], common.limits);
    if (id == "profile-vs-gap")
        return check_profile_vs_gap(m, read_n(vm, common.limits), read_fraction(vm, "eps"),
                                    common.limits);
    std::optional<Rational> claimed;
    if (vm.count("beta")) claimed = read_fraction(vm, "beta");
    return check_ahat_simulation(m, read_n(vm, common.limits), read_fraction(vm, "eps"), claimed,
                                 common.limits);
}

// The theorems about a formula over a range of lengths.
TheoremOutcome formula_theorem(const std::string &id, const std::vector<std::string> &ids,
                               const po::variables_map &vm, const Common &common) {
    if (ids.size() < 2) throw InputError("", "tempcert theorem " + id, "expected a FORMULA");
    std::vector<std::string> alphabet = read_alphabet(vm, common.limits);
    if (vm["every-n"].as<bool>()) {
        if (id != "ltl-unbounded-pe")
            throw InputError("", "--every-n",
                             "only ltl-unbounded-pe answers for every length (a constant beta); "
                             "the others' beta grows with n: give --range");
        if (vm.count("range"))
            throw InputError("", "--range", "--every-n answers for every length: drop --range");
        std::optional<Rational> claimed;
        if (vm.count("beta")) claimed = read_fraction(vm, "beta");
        return check_ltl_unbounded_pe_every_n(ids[1], alphabet, read_fraction(vm, "eps"), claimed,
                                              common.limits);
    }
    if (!vm.count("range"))
        throw InputError("", "--range", "expected --range 2..64 (or --every-n)");
    std::vector<std::size_t> ns =
        parse_n_list(vm["range"].as<std::string>(), common.limits.max_n, "--range");
    Rational eps = read_fraction(vm, "eps");
    if (id == "ltl-unbounded-pe") {
        std::optional<Rational> claimed;
        if (vm.count("beta")) claimed = read_fraction(vm, "beta");
        return check_ltl_unbounded_pe(ids[1], alphabet, ns, eps, claimed, common.limits);
    }
    Rational scale = vm.count("scale") ? read_fraction(vm, "scale") : Rational(1);
    return id == "counting-temperature"
               ? check_counting_temperature(ids[1], alphabet, ns, eps, scale, common.limits)
               : check_ltl_temperature_scaling(ids[1], alphabet, ns, eps, scale, common.limits);
}

} // namespace

int run_theorem(const Args &args) {
    po::options_description desc("theorem options");
    po::variables_map vm;
    if (!parse_command("theorem", "--list | ID [params] [--json]", desc, args, "id", 2, vm))
        return kExitOk;
    Common common = read_common_options(vm);
    if (vm["list"].as<bool>()) {
        render(TheoremList{}, common);
        return kExitOk;
    }
    if (!vm.count("id"))
        throw InputError("", "tempcert theorem", "expected a theorem ID (see --list)");
    auto ids = vm["id"].as<std::vector<std::string>>();
    const std::string &id = ids.front();
    TheoremOutcome out;
    if (id == "gap-lemma")
        out = gap_lemma(vm, common);
    else if (id == "profile-vs-gap" || id == "ahat-simulation")
        out = model_theorem(id, ids, vm, common);
    else if (id == "ltl-unbounded-pe" || id == "ltl-temperature-scaling" ||
             id == "counting-temperature")
        out = formula_theorem(id, ids, vm, common);
    else
        throw InputError("", "tempcert theorem", "unknown theorem \"" + id + "\" (see --list)");
    TheoremAnswer answer{id, out};
    render(answer, common);
    return exit_code(answer);
}

} // namespace tempcert::cli
