// The checker's tasks, on threads in one process, and what they produce.
// Two files implement this header and a build compiles one:
// tasks/local.cpp (the default: src/parallel's task pool, nothing more)
// and tasks/mpi.cpp (with -DTEMPCERT_MPI=ON: the tasks spread over the
// ranks of an MPI job by src/distributed, whose lines a reader who runs
// tempcert-check as one process does not trust; proofs/certificate.md,
// Trusted base).
#pragma once

#include "tempcert/limits.hpp"
#include "tempcert/rational.hpp"
#include "tempcert/word.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tempcert::check {

// One head's gap facts from the words a task scanned: the least gap, the
// first word attaining it (and its first query attaining it), the first
// word showing a tie.
struct HeadFacts {
    std::optional<Rational> min_gap; // nullopt: inf
    Word witness, tie;
    std::size_t witness_query = 0, tie_query = 0, N = 0;
    std::vector<std::size_t> witness_argmax, tie_argmax;
    std::optional<std::size_t> witness_runner_up, tie_runner_up;
};

// The words a task judged: how many, and its first failure ("" for none).
struct JudgedPart {
    Word failed;
    std::string failure;
    std::uint64_t words = 0;
};

// Where the tasks of one walk put their results: part task + 1 of exactly
// one of these (part 0 is the walk's first part, run before the tasks in
// this process). Under MPI every rank needs every part when the tasks are
// done; the ranks hand each other the parts, which is why their types are
// fixed here.
struct TaskParts {
    std::vector<std::vector<HeadFacts>> *gaps = nullptr;
    std::vector<JudgedPart> *judged = nullptr;
};

// Runs task(0..count-1), each once, with limits.threads() threads (under
// MPI: on some rank, and then every rank holds every task's part); a
// task's exception is rethrown as run_tasks does (src/parallel/task_pool.hpp).
void run_check_tasks(std::size_t count, const Limits &limits,
                     const std::function<void(std::size_t)> &task, const TaskParts &parts);

// tempcert-check's main around run(): without MPI it refuses a job of
// several processes started by mpirun (exit 2; each would do all the
// work); under MPI rank 0 prints, the others stay silent.
int run_checker(int *argc, char ***argv, const std::function<int()> &run);

} // namespace tempcert::check
