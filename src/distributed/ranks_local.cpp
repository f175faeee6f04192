// ranks.hpp in a build without MPI: one process, which runs every task
// itself; ranks_mpi.cpp is the other.
#include "../parallel/task_pool.hpp"
#include "ranks.hpp"

#include <string>

namespace tempcert::detail {

std::string start_ranks(int *, char ***, const char *) {
    if (launched_ranks() > 1)
        return "this tempcert was built without MPI, so each of the " +
               std::to_string(launched_ranks()) +
               " processes would do all the work and write the same files; build with "
               "-DTEMPCERT_MPI=ON or run one process";
    return "";
}
void stop_ranks(int) {}
int rank_index() {
    return 0;
}
int rank_count() {
    return 1;
}

void run_tasks_everywhere(std::size_t count, const Limits &limits,
                          const std::function<void(std::size_t)> &task,
                          const std::function<std::string(std::size_t)> &,
                          const std::function<void(std::size_t, ByteReader &)> &,
                          std::atomic<std::uint64_t> *) {
    run_tasks(count, limits.threads(), task);
}

} // namespace tempcert::detail
