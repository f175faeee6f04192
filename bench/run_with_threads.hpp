// A run with a given number of worker threads, for the benchmarks' Limits
// (Limits::run): one per count, alive as long as the process.
#pragma once

#include "tempcert/run.hpp"

#include <map>
#include <memory>
#include <mutex>

inline tempcert::Run *run_with_threads(unsigned threads) {
    static std::mutex mutex;
    static std::map<unsigned, std::unique_ptr<tempcert::Run>> runs;
    std::lock_guard lock(mutex);
    std::unique_ptr<tempcert::Run> &run = runs[threads];
    if (!run) {
        run = std::make_unique<tempcert::Run>();
        run->threads = threads;
    }
    return run.get();
}
