// One run of a command: how long it may take, how it is stopped, how many
// threads it uses, whom it tells of its progress and what it read. One per
// run, in place of process globals: the executable makes one for its
// command, the Python module one per call, tempcert-check one. The work
// reaches it through Limits::run (tempcert/limits.hpp).
#pragma once

#include "tempcert/input_registry.hpp"

#include <chrono>
#include <csignal>
#include <cstdint>
#include <functional>
#include <optional>

namespace tempcert {

struct Run {
    // --time-limit: wall-clock budget; checked between units of work.
    std::optional<std::chrono::steady_clock::time_point> deadline;
    double time_limit_seconds = 0;
    // Set when the run is to stop: the executable's SIGINT handler, or the
    // Python module on KeyboardInterrupt (a flag of each call's own).
    const volatile std::sig_atomic_t *interrupted = nullptr;
    // Progress of an enumeration (words done, words in all); the command
    // line sets it only when stderr is a terminal.
    std::function<void(std::uint64_t, std::uint64_t)> progress;
    // --threads: workers for enumeration and symbolic analysis. Results,
    // witnesses and counts do not depend on it (see certify_prefix.cpp).
    unsigned threads = 1;
    // The files this run read.
    InputRegistry inputs;

    // Sets the deadline `seconds` from now (no deadline when seconds <= 0).
    void set_time_limit(double seconds);
};

} // namespace tempcert
