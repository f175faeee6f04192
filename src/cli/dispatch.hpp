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

// Interruption: the SIGINT handler of the executable and the Python module's
// KeyboardInterrupt both set one flag that every long loop polls through
// Limits::interrupted; clear_interrupt() re-arms it before a run.
extern "C" void on_sigint(int);
void request_interrupt();
void clear_interrupt();

} // namespace tempcert::cli
