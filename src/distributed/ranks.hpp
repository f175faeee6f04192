// Tasks spread over the processes of an MPI job (docs/commands.md, Running under MPI), with threads
// inside each process. Every rank runs the whole command; the enumerations
// hand their fixed task lists (prefix_split_length) to run_tasks_everywhere,
// which runs each task on exactly one rank and then gives every rank every
// task's result, so that all ranks merge the same parts in task order and
// go on in step. Results therefore do not depend on the number of ranks, as
// they do not depend on --threads. Only rank 0 prints or writes files.
//
// Without -DTEMPCERT_MPI=ON, or when not started by mpirun, there is one
// rank and run_tasks_everywhere is run_tasks. Two files implement this
// header and a build compiles one: ranks_local.cpp (one process, the
// default) and ranks_mpi.cpp (with MPI). The checker has its own front
// (src/check/check_tasks.hpp) and links this room only in a build with MPI.
#pragma once

#include "../parallel/launched_ranks.hpp"
#include "bytes.hpp"
#include "tempcert/limits.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tempcert::detail {

// Starts MPI when this process was started by mpirun (OpenMPI or PMIx in
// the environment) and tempcert was built with it; a rank other than 0 then
// sends its standard output and error to /dev/null. Without MPI support, a
// job of more than one process is refused (each would do all the work and
// write the same files): returns a message for that, else "".
std::string start_ranks(int *argc, char ***argv, const char *program);
// MPI_Finalize, when started, once every rank has come to its end. A rank
// whose command failed (exit code other than 0 and 1) may be the only one:
// the others may wait for it in a collective step it never reaches (a
// --time-limit or SIGINT met outside a task, a file one machine cannot
// read). It waits at most a second for the others and then ends the job
// with MPI_Abort (mpirun names the rank and the code) rather than hang.
void stop_ranks(int exit_code);

// A program's main under MPI: start_ranks (a refusal is printed as
// "PROGRAM: message", exit 2), then run(), then stop_ranks with its code.
int run_on_ranks(int *argc, char ***argv, const char *program, const std::function<int()> &run);
int rank_index(); // 0 without MPI
int rank_count(); // 1 without MPI

// Runs task(0..count-1), each once, on some rank with limits.threads()
// workers there; tasks are handed out in order: rank 0's workers take them one at a
// time, and a rank that asks (while it holds fewer than 2 x `threads`
// waiting tasks) gets a run of them, a share of what is left (at most 256,
// down to one at the end).
// After a task ran, pack(i) turns its result into bytes; when every task
// ran, each rank calls unpack(i, bytes) for each task another rank ran.
// First the ranks compare the task count and the digest of the files the
// run read (InputRegistry::digest): a file that changed or is not shared
// between machines would make tasks that do not fit together, so that is
// refused. Every rank checks that each task ran exactly once. A task that throws
// stops the handing out; every rank then throws the error of the
// lowest-numbered failed task (as run_tasks does), rebuilt from its kind
// and message. Waits on other ranks poll the run's budget: a second after
// its deadline or an interrupt they throw as check_budget does, so a rank
// that stopped answering cannot hold the job past --time-limit or Ctrl-C.
// `progress`, when given, counts on rank 0 what the other
// ranks add to their own counters too (they report it when they ask).
void run_tasks_everywhere(std::size_t count, const Limits &limits,
                          const std::function<void(std::size_t)> &task,
                          const std::function<std::string(std::size_t)> &pack,
                          const std::function<void(std::size_t, ByteReader &)> &unpack,
                          std::atomic<std::uint64_t> *progress = nullptr);

} // namespace tempcert::detail
