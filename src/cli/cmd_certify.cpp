// `tempcert certify`, `tempcert tight` and `tempcert check` (docs/semantics.md, docs/commands.md).
#include "../model/json_source.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "small_checker.hpp"
#include "tempcert/certificate.hpp"
#include "tempcert/enumerate.hpp"
#include "tempcert/error.hpp"
#include "tempcert/every_n.hpp"
#include "tempcert/layerwise.hpp"
#include "tempcert/method.hpp"
#include "tempcert/outcome.hpp"
#include "tempcert/printable.hpp"

#include <cstdio>
#include <iostream>

namespace tempcert::cli {

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
    if (vm.count("pump-length"))
        o.pump_length = static_cast<std::size_t>(vm["pump-length"].as<long long>());
    return o;
}

} // namespace

namespace {

// The user's --beta, parsed, or none.
UserBeta user_beta(const po::variables_map &vm, const Model &m, const CertifyOptions &o) {
    if (!vm.count("beta")) return std::nullopt;
    std::string text = beta_option(vm, m);
    return BetaChoice{text, parse_beta(text, m, o.n, o.precision.start, beta_place(vm, m))};
}

// Writes -o's certificate through the small checker's guard (`write`
// fills the unchecked file) and sets `written`; returns why none was
// written when the small checker left it out, "" otherwise.
template <class Write>
std::string write_guarded(const po::variables_map &vm, const std::string &model_path,
                          const Limits &limits, std::optional<std::string> &written, Write write) {
    written.reset();
    if (!vm.count("output")) return "";
    const std::string cert = vm["output"].as<std::string>();
    try {
        if (write_small_checked(cert, model_path, limits, write)) written = cert;
    } catch (const Undecided &e) {
        return e.what();
    }
    return "";
}

// The answer rendered; then, where the small checker left -o's certificate
// out, why, and exit 3 (the answer stands, unbacked by a certificate).
// With --json the answer carries it as "certificate_not_written" (null
// when nothing was left out), as tight's does.
template <class Outcome>
int answer(const Outcome &out, const Common &common, const std::string &not_written) {
    if (common.json) {
        nlohmann::ordered_json j = to_json(out);
        j["certificate_not_written"] =
            not_written.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(not_written);
        emit_json(j);
    } else {
        render(out, common);
    }
    if (not_written.empty()) return exit_code(out);
    std::cerr << printable("tempcert: " + not_written, true) << "\n";
    return kExitUndecided;
}

// Renders a certify outcome after writing its certificate when -o asks,
// put in place only when the small checker verifies it.
template <class Outcome>
int finish_certify(Outcome out, const std::string &model_path, const po::variables_map &vm,
                   const Common &common) {
    const std::string not_written =
        write_guarded(vm, model_path, common.limits, out.written,
                      [&](const std::string &unchecked) { write_certificate(out, unchecked); });
    return answer(out, common, not_written);
}

// The claim of --every-n: eps, criterion, and --n as the longest length
// examined exactly (default kEveryNLongestExact).
CertifyOptions every_n_claim(const po::variables_map &vm, const Common &common) {
    CertifyOptions o;
    o.limits = common.limits;
    o.precision = common.precision;
    o.n = vm.count("n") ? read_n(vm, common.limits) : kEveryNLongestExact;
    o.eps = read_fraction(vm, "eps");
    o.criterion = read_criterion(vm);
    return o;
}

// tight --every-n: the supremum over every length (proofs/every-n.md).
int run_tight_every_n(const po::variables_map &vm, const Common &common, const Model &m) {
    for (const char *other : {"per-layer", "output"})
        if (vm.count(other) && (std::string(other) != "per-layer" || vm[other].as<bool>()))
            throw InputError("", std::string("--") + other,
                             "--every-n brackets one beta for every length; it takes neither "
                             "--per-layer nor -o (certify --every-n --beta B -o CERT writes the "
                             "certificate of a beta)");
    if (vm["method"].as<std::string>() != "auto")
        throw InputError("", "--method",
                         "--every-n chooses its own method (symbolic and the "
                         "tail bound); leave --method at auto");
    const CertifyOptions o = every_n_claim(vm, common);
    const Rational rel = read_fraction(vm, "rel");
    EveryNOutcome out{&m, o.n, o.eps, o.criterion, tight_every_n(m, o, rel)};
    render(out, common);
    return exit_code(out);
}

// certify --every-n --beta B: the every-n certificate, verified by the
// small checker before it is put in place (it is the one checker that reads
// every-n certificates).
int run_certify_every_n(const po::variables_map &vm, const Common &common, const Model &m,
                        const std::string &path) {
    if (!vm.count("beta"))
        throw InputError("", "--beta", "--every-n certifies a given beta: expected --beta B");
    if (vm["method"].as<std::string>() != "auto")
        throw InputError("", "--method",
                         "--every-n chooses its own method; leave --method at auto");
    const CertifyOptions o = every_n_claim(vm, common);
    const std::string text = beta_option(vm, m);
    BetaSpec spec = parse_beta(text, m, o.n, o.precision.start, beta_place(vm, m));
    if (spec.per_layer() || spec.uses_n())
        throw InputError("", "--beta",
                         "--every-n certifies one beta for every length: a number, "
                         "not a list or an expression in n");
    Real value = spec.at(0, 1, o.precision.start);
    if (!value.is_exact())
        throw InputError("", "--beta", "--every-n needs a rational beta (no log or sqrt)");
    EveryNCertifyOutcome out = certify_every_n(m, path, o, {text, spec}, value.exact());
    std::string not_written;
    if (out.verdict == Verdict::Certified)
        not_written = write_guarded(vm, path, o.limits, out.written, [&](const std::string &f) {
            write_json_file(f, certificate_of(out), &o.limits);
        });
    return answer(out, common, not_written);
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
    if (vm["every-n"].as<bool>()) return run_certify_every_n(vm, common, m, path);
    CertifyOptions o = read_claim(vm, common);
    check_length(m, o.n);
    CertifyAnswer out = certify_chosen(
        m, path, o, certify_method_asked(vm["method"].as<std::string>()), user_beta(vm, m, o));
    return std::visit([&](auto &c) { return finish_certify(std::move(c), path, vm, common); }, out);
}

int run_tight(const Args &args) {
    po::options_description desc("tight options");
    po::variables_map vm;
    if (!parse_command(
            "tight",
            "MODEL --n N --eps E [--rel R] [--criterion ...] [--per-layer | --every-n] [-o CERT] "
            "[--json]",
            desc, args, "model", 1, vm))
        return kExitOk;
    Common common = read_common_options(vm);
    std::string path = model_arg(vm, "tight");
    Model m = load_model_file(path, common.limits);
    if (vm["every-n"].as<bool>()) return run_tight_every_n(vm, common, m);
    CertifyOptions o = read_claim(vm, common);
    check_length(m, o.n);
    Rational rel = read_fraction(vm, "rel");
    const CertifyMethodAsked asked = certify_method_asked(vm["method"].as<std::string>());
    if (vm["per-layer"].as<bool>()) {
        if (asked == CertifyMethodAsked::Layerwise)
            throw InputError("", "--method",
                             "--per-layer lowers each layer's beta by enumeration; it takes "
                             "--method auto, exhaustive or plain, not layerwise");
        if (vm.count("output"))
            throw InputError("", "-o",
                             "tight writes a certificate of its one beta_hi, not of "
                             "--per-layer betas");
        PerLayerTightOutcome out{&m, o.n, o.eps, o.criterion, tight_per_layer(m, o, rel)};
        render(out, common);
        return exit_code(out);
    }
    TightOutcome out{
        &m, o.n, o.eps, o.criterion, tight_auto(m, o, rel, o.limits.max_words, nullptr, asked),
        {}, {},  {}};
    // where the small checker leaves it out, the bracket stands (not_written)
    out.not_written = write_guarded(vm, path, o.limits, out.written, [&](const std::string &f) {
        write_upper_end_certificate(out, path, o, f);
    });
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
    // the small checker is the checker (docs/certificates.md, "Two checkers")
    return run_small_checker_for_check(cert, vm["model"].as<std::string>(), common.limits,
                                       common.json);
}

} // namespace tempcert::cli
