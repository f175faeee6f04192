// Running a helper program (MONA, the small checker) without a shell: the
// arguments go to the program as they are, so no input string is ever
// interpreted by a shell (docs/reliability.md, What reaches a terminal or a
// report).
#pragma once

#include "tempcert/limits.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace tempcert {

// Runs argv[0] (searched on PATH) with the arguments in argv, its standard
// input from /dev/null and its standard output and error to `output_path`
// ("" for /dev/null), in the working directory `cwd` ("" for this one).
// Returns the exit status, or -1 when it could not be started or was killed.
int run_program(const std::vector<std::string> &argv, const std::string &output_path = "",
                const std::string &cwd = "");

// What a program run by run_program_captured said and how it ended.
struct ProgramRun {
    bool started = false;    // false: it could not be started (nothing else is set)
    int exit_code = -1;      // its exit status; -1 when a signal ended it
    std::string output;      // standard output and error, interleaved
    bool output_cut = false; // more than `max_output` bytes: the rest was discarded
};

// Runs argv[0] as run_program does, its standard output and error captured
// (the first `max_output` bytes kept). The run's deadline and interrupt
// (`limits.run`) are checked every 20 ms while it runs: when either ends
// the run, the program is killed and reaped and check_budget's exception
// (LimitError, Interrupted) propagates, so a helper never outlives the
// command that started it.
ProgramRun run_program_captured(const std::vector<std::string> &argv, const Limits &limits,
                                std::size_t max_output = 1 << 20);

} // namespace tempcert
