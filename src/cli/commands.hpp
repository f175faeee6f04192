// Entry points of the subcommands. Each takes the arguments after its name
// and returns the process exit code (docs/commands.md); errors are thrown as the
// exceptions of tempcert/error.hpp and mapped to exit codes in main.
#pragma once

#include <string>
#include <vector>

namespace tempcert::cli {

using Args = std::vector<std::string>;

int run_eval(const Args &args);
int run_gap(const Args &args);
int run_bound(const Args &args);
int run_certify(const Args &args);
int run_tight(const Args &args);
int run_check(const Args &args);
int run_compile(const Args &args);
int run_export(const Args &args);
int run_theorem(const Args &args);
int run_report(const Args &args);
int run_import(const Args &args);
int run_horizon(const Args &args);
int run_main_job(const Args &args);

// Where the bundled cases live: $TEMPCERT_CASES, else ./cases when it
// exists, else the source tree's cases/.
std::string cases_dir();

} // namespace tempcert::cli
