#include "task_pool.hpp"

#include <mpfr.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace tempcert::detail {

void run_tasks(std::size_t count, unsigned threads, const std::function<void(std::size_t)> &task) {
    std::atomic<std::size_t> next{0};
    std::exception_ptr failure;
    std::size_t failed_task = count;
    std::mutex failure_mutex;
    auto worker = [&] {
        for (std::size_t i; (i = next.fetch_add(1)) < count;) {
            try {
                task(i);
            } catch (...) {
                std::lock_guard lock(failure_mutex);
                if (i < failed_task) {
                    failure = std::current_exception();
                    failed_task = i;
                }
                next = count; // no new tasks; the running ones finish
            }
        }
    };
    std::size_t workers = std::clamp<std::size_t>(threads, 1, std::max<std::size_t>(count, 1));
    std::vector<std::thread> pool;
    for (std::size_t k = 1; k < workers; ++k)
        pool.emplace_back([&worker] {
            worker();
            // MPFR keeps constant caches per thread; this thread frees its own.
            mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
        });
    worker();
    for (auto &t : pool)
        t.join();
    if (failure) std::rethrow_exception(failure);
}

} // namespace tempcert::detail
