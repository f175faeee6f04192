// A fixed list of tasks run on a pool of threads. Callers split work into
// tasks that do not depend on the thread count and merge the tasks' results
// in task order, so that results are the same for any --threads.
#pragma once

#include <cstddef>
#include <functional>

namespace tempcert::detail {

// Runs task(0), ..., task(count - 1), each exactly once, on min(threads,
// count) threads (the calling thread is one of them). A task that throws
// stops the handing out of tasks; once every thread has finished, the
// exception of the lowest-numbered failed task is rethrown. Tasks are handed
// out in order, so that is the failure one thread would have met first
// (timing-dependent ones, such as --time-limit, aside). Worker threads free
// MPFR's per-thread caches on exit.
void run_tasks(std::size_t count, unsigned threads, const std::function<void(std::size_t)> &task);

} // namespace tempcert::detail
