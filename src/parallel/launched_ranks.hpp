// How many processes mpirun started alongside this one. Both the ranks of
// an MPI job (src/distributed) and the checker without MPI
// (src/check/tasks/local.cpp, which refuses such a job) read it here, from
// one list of the environment's names.
#pragma once

namespace tempcert::detail {

// The number of processes mpirun started, from its environment (OpenMPI's
// or PMIx's name for it; 0: not started by mpirun).
long launched_ranks();

} // namespace tempcert::detail
