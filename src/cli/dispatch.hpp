// The command table and the one place where errors become exit codes, shared
// by the executable (main.cpp) and the Python module (python/src/module.cpp),
// so both give the same answers, messages and codes.
#pragma once

#include "commands.hpp"
#include "run_context.hpp"

#include <csignal>
#include <ostream>

namespace tempcert::cli {

// Runs `args` (a command and its arguments; empty for the main job) and
// returns the exit code: 0 ok or certified, 1 refuted or a check failed, 2
// bad input, 3 undecided or a limit, 130 interrupted, 70 internal error.
// Results go to std::cout (--json results to `run.json` when set),
// messages ("tempcert: ...") to std::cerr; progress to `run.progress`.
int dispatch(const Args &args, const RunContext &run = {});

// Prints the list of commands (tempcert --help).
void usage(std::ostream &os);

// The executable's SIGINT handler: sets the flag of the runs whose context
// names no flag of its own, which every long loop polls through
// Limits::run (the Python module gives each call its own flag instead).
extern "C" void on_sigint(int);

} // namespace tempcert::cli
