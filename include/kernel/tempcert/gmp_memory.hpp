// GMP's (and so MPFR's and MPFI's) allocation failure (docs/reliability.md, Limits and what they
// bound).
//
// GMP aborts (exit 134) when an allocation fails. After
// install_gmp_out_of_memory_exit(program), a failed GMP allocation instead
// writes "PROGRAM: limit reached: out of memory in exact arithmetic (...)" to
// standard error and exits 3, the exit code of every resource limit.
// Outputs are staged and moved into place only when complete, so none is
// left half-written; a staging file in progress may remain. Not for a
// process that must survive the failure (the Python module keeps GMP's
// default).
#pragma once

#include <string>

namespace tempcert {

void install_gmp_out_of_memory_exit(const std::string &program);

} // namespace tempcert
