// Running a helper program (MONA) without a shell: the arguments
// go to the program as they are, so no input string is ever interpreted by
// a shell (docs/reliability.md, What reaches a terminal or a report).
#pragma once

#include <string>
#include <vector>

namespace tempcert {

// Runs argv[0] (searched on PATH) with the arguments in argv, its standard
// input from /dev/null and its standard output and error to `output_path`
// ("" for /dev/null), in the working directory `cwd` ("" for this one).
// Returns the exit status, or -1 when it could not be started or was killed.
int run_program(const std::vector<std::string> &argv, const std::string &output_path = "",
                const std::string &cwd = "");

} // namespace tempcert
