// What one command run reports through and is stopped by, in place of
// process globals: one context per dispatch() call (the executable's single
// run, each call from the Python module), visible to the commands on the
// thread that runs them. dispatch() makes the run's tempcert::Run from it
// (its deadline, threads, progress and inputs), which the commands' Limits
// refer to.
#pragma once

#include "tempcert/run.hpp"

#include <nlohmann/json.hpp>

#include <csignal>
#include <cstdint>
#include <functional>

namespace tempcert::cli {

// Progress of an enumeration: words done, words in all.
using ProgressHook = std::function<void(std::uint64_t, std::uint64_t)>;
// Receives a command's --json result as a value.
using JsonSink = std::function<void(const nlohmann::ordered_json &)>;

struct RunContext {
    // Empty: a progress line on standard error when it is a terminal (or
    // TEMPCERT_PROGRESS=1); the Python module passes its callback.
    ProgressHook progress;
    // Empty: std::cout, indented by 2. The Python module keeps the value
    // and builds its dict from it, so the executable's --json and the
    // module's results are one rendering, never parsed back from text.
    JsonSink json;
    // Set to stop the run. nullptr: the flag of the executable's SIGINT
    // handler; the Python module passes a flag of each call's own.
    const volatile std::sig_atomic_t *interrupted = nullptr;
};

// The context of the run on this thread; an empty one outside dispatch().
const RunContext &current_run();

// The run on this thread, which the commands' Limits refer to (Limits::run).
// Outside dispatch(): a run of the thread's own, never interrupted.
Run &current_run_state();

// Makes `ctx` and `run` this thread's run until the scope ends.
class RunScope {
  public:
    RunScope(const RunContext &ctx, Run &run);
    ~RunScope();
    RunScope(const RunScope &) = delete;
    RunScope &operator=(const RunScope &) = delete;

  private:
    const RunContext *outer_;
    Run *outer_run_;
};

// A command's --json result, to the run's sink.
void emit_json(const nlohmann::ordered_json &doc);

} // namespace tempcert::cli
