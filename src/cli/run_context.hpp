// What one command run reports through, in place of process globals: one
// context per dispatch() call (the executable's single run, each call from
// the Python module), visible to the commands on the thread that runs them.
#pragma once

#include <nlohmann/json.hpp>

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
};

// The context of the run on this thread; an empty one outside dispatch().
const RunContext &current_run();

// Makes `ctx` the context of this thread's run until the scope ends.
class RunScope {
  public:
    explicit RunScope(const RunContext &ctx);
    ~RunScope();
    RunScope(const RunScope &) = delete;
    RunScope &operator=(const RunScope &) = delete;

  private:
    const RunContext *outer_;
};

// A command's --json result, to the run's sink.
void emit_json(const nlohmann::ordered_json &doc);

} // namespace tempcert::cli
