// tempcert's commands by name, and the mapping of errors to exit codes
// (docs/commands.md, "Exit codes"). Internal errors (bugs) exit 70 with a
// request to report them.
#include "dispatch.hpp"
#include "tempcert/error.hpp"
#include "tempcert/limits.hpp"
#include "tempcert/output.hpp"
#include "tempcert/printable.hpp"

#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace tempcert::cli {

namespace {

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
    {"export", run_export, "a verified certificate's claim as a Coq file (export coq)"},
};

// What the SIGINT handler may touch. It is not the only process-wide state:
// io/output.cpp's claim_standard_output takes std::cout's buffer over while a
// command writes results to standard output (the Python module swaps
// std::cout and std::cerr around each call too), and numeric/form.cpp keeps
// one table of the atoms of irrational forms (log and sqrt terms) for the
// process; MPI's state is the ranks' (src/distributed).
volatile std::sig_atomic_t g_interrupted = 0;

int run_command(const Args &args) {
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
    if (!name.empty() && name[0] == '-') return run_main_job(args); // the job's options
    for (const auto &c : kCommands)
        if (name == c.name) return c.run(Args(args.begin() + 1, args.end()));
    std::cerr << "tempcert: unknown command \"" << name << "\" (see tempcert --help)\n";
    return kExitBadInput;
}

} // namespace

extern "C" void on_sigint(int) {
    g_interrupted = 1;
}

std::string cases_dir() {
    if (const char *env = std::getenv("TEMPCERT_CASES")) return env;
    if (std::filesystem::exists("cases/manifest.json")) return "cases";
    return std::string(TEMPCERT_SOURCE_DIR) + "/cases";
}

void usage(std::ostream &os) {
    os << "usage: tempcert [COMMAND] [ARGS...]\n\n"
          "With no command, runs the main job on the bundled cases.\n\ncommands:\n";
    for (const auto &c : kCommands)
        os << "  " << c.name << "  " << c.summary << "\n";
    os << "\n'tempcert COMMAND --help' describes each. Exit codes: 0 ok or certified, 1 refuted\n"
          "or a check failed, 2 bad input or usage, 3 undecided or a resource limit reached.\n";
}

int dispatch(const Args &args, const RunContext &run) {
    Run state; // this command's deadline, threads, progress and inputs, nobody else's
    state.interrupted = run.interrupted ? run.interrupted : &g_interrupted;
    RunScope scope(run, state);
    struct ReleaseOutput { // whatever way the command ends
        ~ReleaseOutput() { release_standard_output(); }
    } release;
    // messages may echo input (a name, a symbol): escaped, never raw
    auto say = [](const std::string &text) {
        std::cerr << printable("tempcert: " + text, true) << "\n";
    };
    try {
        return run_command(args);
    } catch (...) {
        CommandEnding end = ending_of_current_exception(
            "interrupted; no result was certified and no certificate written");
        say(end.message);
        return end.code;
    }
}

} // namespace tempcert::cli
