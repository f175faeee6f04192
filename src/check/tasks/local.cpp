// check_tasks.hpp in a build without MPI: every task runs in this process.
// This is the implementation in the checker's trusted base
// (proofs/certificate.md, Trusted base); mpi.cpp is the other.
#include "../../parallel/launched_ranks.hpp"
#include "../../parallel/task_pool.hpp"
#include "../check_tasks.hpp"
#include "tempcert/error.hpp"

#include <iostream>

namespace tempcert::check {

void run_check_tasks(std::size_t count, const Limits &limits,
                     const std::function<void(std::size_t)> &task, const TaskParts &) {
    detail::run_tasks(count, limits.threads(), task);
}

int run_checker(int *, char ***, const std::function<int()> &run) {
    if (const long size = detail::launched_ranks(); size > 1) {
        std::cerr << "tempcert-check: this tempcert-check was built without MPI, so each of "
                  << size << " processes would check the whole certificate; build with "
                  << "-DTEMPCERT_MPI=ON or run one process\n";
        return kExitBadInput;
    }
    return run();
}

} // namespace tempcert::check
