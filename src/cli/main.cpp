// tempcert command line: dispatch to subcommands and map errors to the exit
// codes of SPEC 7 (0 ok, 1 refuted, 2 bad input, 3 undecided or a limit).
// Internal errors (bugs) exit 70 with a request to report them.
#include "commands.hpp"
#include "tempcert/error.hpp"
#include "tempcert/limits.hpp"

#include <boost/program_options/errors.hpp>

#include <csignal>
#include <cstdlib>
#include <gmp.h>
#include <unistd.h>
#include <filesystem>
#include <iostream>
#include <new>

namespace {

using namespace tempcert;
using namespace tempcert::cli;

struct Command {
    const char *name;
    int (*run)(const Args &);
    const char *summary;
};

const Command kCommands[] = {
    {"eval", run_eval, "hard and/or soft evaluation of a model on one word"},
    {"gap", run_gap, "minimum gap per head over all words up to n, with witnesses"},
    {"bound", run_bound, "the Lemma GT inverse temperature for N, gap and eps"},
    {"certify", run_certify, "certify or refute a beta for all words up to n"},
    {"tight", run_tight, "bracket the tight inverse temperature"},
    {"check", run_check, "independently re-verify a certificate"},
    {"compile", run_compile, "compile an LTL formula into a hard-attention model"},
    {"theorem", run_theorem, "check instances of the theorems in proofs/"},
    {"report", run_report, "tables and plots of tight temperatures over cases and n"},
    {"import", run_import, "read a Tracr model (safetensors) into an exact model file"},
    {"horizon", run_horizon, "the longest n up to which a model meets the criterion"},
};

void usage(std::ostream &os) {
    os << "usage: tempcert [COMMAND] [ARGS...]\n\n"
          "With no command, runs the main job on the bundled cases.\n\ncommands:\n";
    for (const auto &c : kCommands)
        os << "  " << c.name << "  " << c.summary << "\n";
    os << "\n'tempcert COMMAND --help' describes each. Exit codes: 0 ok or certified, 1 refuted\n"
          "or a check failed, 2 bad input or usage, 3 undecided or a resource limit reached.\n";
}

} // namespace

namespace tempcert::cli {

namespace {
// The only process-wide state: what the SIGINT handler may touch.
volatile std::sig_atomic_t g_interrupted = 0;
extern "C" void on_sigint(int) {
    g_interrupted = 1;
}
} // namespace

const volatile std::sig_atomic_t *interrupt_flag() {
    return &g_interrupted;
}

std::string cases_dir() {
    if (const char *env = std::getenv("TEMPCERT_CASES")) return env;
    if (std::filesystem::exists("cases/manifest.json")) return "cases";
    return std::string(TEMPCERT_SOURCE_DIR) + "/cases";
}

} // namespace tempcert::cli

namespace {

// GMP's (and so MPFR's) allocation: on failure GMP would abort (exit 134);
// here the command says so and exits 3, as for any resource limit (issue
// 13, item 10). Outputs are written only when complete, so none is left.
[[noreturn]] void out_of_memory() {
    static const char kMessage[] =
        "tempcert: limit reached: out of memory in exact arithmetic (lower n or the limits)\n";
    ssize_t ignored = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
    (void)ignored;
    ::_exit(kExitUndecided);
}
void *gmp_allocate(std::size_t size) {
    void *p = std::malloc(size);
    if (!p) out_of_memory();
    return p;
}
void *gmp_reallocate(void *old, std::size_t, std::size_t size) {
    void *p = std::realloc(old, size);
    if (!p) out_of_memory();
    return p;
}
void gmp_free(void *p, std::size_t) {
    std::free(p);
}

} // namespace

int main(int argc, char **argv) {
    mp_set_memory_functions(gmp_allocate, gmp_reallocate, gmp_free);
    Args args(argv + 1, argv + argc);
    std::signal(SIGINT, tempcert::cli::on_sigint);
    try {
        if (args.empty()) return run_main_job(args);
        const std::string &name = args.front();
        if (name == "--help" || name == "-h" || name == "help") {
            usage(std::cout);
            return kExitOk;
        }
        if (name == "--version") {
            std::cout << "tempcert " << TEMPCERT_VERSION << "\n";
            return kExitOk;
        }
        for (const auto &c : kCommands)
            if (name == c.name) return c.run(Args(args.begin() + 1, args.end()));
        std::cerr << "tempcert: unknown command \"" << name << "\" (see tempcert --help)\n";
        return kExitBadInput;
    } catch (const InputError &e) {
        std::cerr << "tempcert: " << e.message() << "\n";
        return kExitBadInput;
    } catch (const LimitError &e) {
        std::cerr << "tempcert: limit reached: " << e.what() << "\n";
        return kExitUndecided;
    } catch (const Undecided &e) {
        std::cerr << "tempcert: undecided: " << e.what() << "\n";
        return kExitUndecided;
    } catch (const Interrupted &) {
        std::cerr << "tempcert: interrupted; no result was certified and no certificate written\n";
        return 130;
    } catch (const std::bad_alloc &) {
        std::cerr << "tempcert: out of memory (lower n or the limits)\n";
        return kExitUndecided;
    } catch (const std::exception &e) {
        std::cerr << "tempcert: internal error: " << e.what() << " (please report this)\n";
        return 70;
    }
}
