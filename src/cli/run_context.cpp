// The run context of the thread running a command (run_context.hpp).
#include "run_context.hpp"

#include <iostream>

namespace tempcert::cli {

namespace {

// One per thread: the Python module runs each call on a worker thread of
// its own, the executable its one command on the main thread.
thread_local const RunContext *t_current = nullptr;

} // namespace

const RunContext &current_run() {
    static const RunContext kNone;
    return t_current ? *t_current : kNone;
}

RunScope::RunScope(const RunContext &ctx) : outer_(t_current) {
    t_current = &ctx;
}

RunScope::~RunScope() {
    t_current = outer_;
}

void emit_json(const nlohmann::ordered_json &doc) {
    if (const JsonSink &sink = current_run().json)
        sink(doc);
    else
        std::cout << doc.dump(2) << "\n";
}

} // namespace tempcert::cli
