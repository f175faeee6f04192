// tempcert-fastcheck: the large certificate checker (docs/certificates.md,
// "Two checkers"). It links only the check library and the kernel, never
// the engine that writes certificates, but shares the kernel with it, so it
// never says VERIFIED: `tempcert check` and tempcert-check run the small
// checker, which shares nothing.
//
//   tempcert-fastcheck CERT --model MODEL [--prec-cap BITS] [--time-limit S]
//                  [--threads T] [--max-n N, --max-width W, ...: every resource
//                  limit tempcert's commands take, tempcert/limit_options.hpp]
//
// Prints one line, "c fast check passed CERT (...)" (exit 0) or
// "c fast check failed CERT: JSON-PATH: reason" (exit 1) when a claim is false
// or not shown. A malformed certificate (unreadable, not JSON, a field
// missing, unknown or mistyped, another format) is bad input like a bad
// model or bad usage: one message on standard error, exit 2. A limit
// exits 3, SIGINT 130.
#include "../check_tasks.hpp"
#include "tempcert/check.hpp"
#include "tempcert/error.hpp"
#include "tempcert/gmp_memory.hpp"
#include "tempcert/limit_options.hpp"
#include "tempcert/printable.hpp"
#include "tempcert/standard_output.hpp"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <thread>

namespace {

using namespace tempcert;

volatile std::sig_atomic_t g_interrupted = 0;
extern "C" void on_sigint(int) {
    g_interrupted = 1;
}

// A whole number in [lo, hi] for an option, or InputError naming it.
long long whole(const std::string &option, const std::string &text, long long lo, long long hi) {
    std::size_t used = 0;
    long long v = 0;
    try {
        v = std::stoll(text, &used);
    } catch (const std::exception &) {
        used = 0;
    }
    if (used != text.size() || text.empty() || v < lo || v > hi)
        throw InputError("", option,
                         "expected a whole number from " + std::to_string(lo) + " to " +
                             std::to_string(hi) + ", got \"" + abbreviated(text) + "\"");
    return v;
}

std::size_t limit_default(const LimitOption &l) {
    return Limits{}.*l.field;
}

struct Options {
    std::string certificate, model;
    Run run; // the check's deadline, threads, interrupt flag and inputs
    Limits limits;
    PrecisionPolicy precision;
};

// Fills `o` (in place: its limits and precision point into it).
void parse(int argc, char **argv, Options &o) {
    std::map<std::string, std::string> values;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a.rfind("--", 0) == 0) {
            if (i + 1 >= argc) throw InputError("", a, "expected a value after " + a);
            if (!values.emplace(a, argv[++i]).second) throw InputError("", a, "given twice");
        } else if (o.certificate.empty()) {
            o.certificate = a;
        } else {
            throw InputError("", "tempcert-fastcheck", "one CERT only, got \"" + a + "\" too");
        }
    }
    for (const auto &[k, v] : values) {
        if (k == "--model")
            o.model = v;
        else if (k == "--prec-cap")
            o.precision.cap = o.limits.prec_cap = whole(k, v, kPrecStart, kPrecMax);
        else if (k == "--threads")
            o.run.threads = static_cast<unsigned>(whole(k, v, 1, kMaxThreads));
        else if (const LimitOption *l = find_limit_option(std::string_view(k).substr(2)))
            o.limits.*l->field = static_cast<std::size_t>(whole(k, v, l->lo, l->hi));
        else if (k == "--time-limit") {
            o.run.set_time_limit(static_cast<double>(whole(k, v, 0, 10000000)));
        } else
            throw InputError("", k, "unknown option (see the usage at the top of --help)");
    }
    if (o.certificate.empty() || o.model.empty())
        throw InputError("", "tempcert-fastcheck", "usage: tempcert-fastcheck CERT --model MODEL");
    if (!values.count("--threads")) {
        unsigned cores = std::thread::hardware_concurrency();
        o.run.threads = std::clamp(cores, 1u, kMaxThreads);
    }
    o.run.interrupted = &g_interrupted;
    o.limits.run = &o.run;
    o.precision.budget = &o.limits;
}

} // namespace

int run(int argc, char **argv) {
    if (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
        std::cout << "usage: tempcert-fastcheck CERT --model MODEL [--prec-cap BITS] "
                     "[--time-limit S] [--threads T] [--LIMIT VALUE ...]\n"
                     "(--threads: default all cores; the verdict does not depend on it)\n"
                     "resource limits, as tempcert's commands take them:\n";
        for (const LimitOption &l : limit_options())
            std::cout << "  --" << l.name << " (" << l.lo << ".." << l.hi << ", default "
                      << limit_default(l) << "): " << l.help << "\n";
        return 0;
    }
    try {
        Options o;
        parse(argc, argv, o);
        CheckOutcome out = check_certificate(o.certificate, o.model, o.limits, o.precision);
        if (out.malformed) {
            std::cerr << printable("tempcert-fastcheck: " +
                                       malformed_certificate_message(o.certificate, out.reason),
                                   true)
                      << "\n";
            return kExitBadInput;
        }
        std::cout << verdict_line(o.certificate, out) << "\n";
        return out.accepted ? kExitOk : kExitRefuted;
    } catch (...) {
        CommandEnding end = ending_of_current_exception("interrupted; nothing was verified");
        std::cerr << printable("tempcert-fastcheck: " + end.message, true) << "\n";
        return end.code;
    }
}

int main(int argc, char **argv) {
    std::signal(SIGINT, on_sigint);
    install_gmp_out_of_memory_exit("tempcert-fastcheck");
    // under mpirun (a build with MPI) the walk's tasks are spread over the
    // ranks (check_tasks.hpp); rank 0 prints the verdict
    int code = check::run_checker(&argc, &argv, [&] { return run(argc, argv); });
    return finish_standard_output("tempcert-fastcheck", code);
}
