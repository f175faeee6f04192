// The run context of the thread running a command (run_context.hpp).
#include "run_context.hpp"

#include <iostream>

namespace tempcert::cli {

namespace {

// One per thread: the Python module runs each call on a worker thread of
// its own, the executable its one command on the main thread.
thread_local const RunContext *t_current = nullptr;
thread_local Run *t_current_run = nullptr;

} // namespace

const RunContext &current_run() {
    static const RunContext kNone;
    return t_current ? *t_current : kNone;
}

Run &current_run_state() {
    thread_local Run own;
    return t_current_run ? *t_current_run : own;
}

RunScope::RunScope(const RunContext &ctx, Run &run) : outer_(t_current), outer_run_(t_current_run) {
    t_current = &ctx;
    t_current_run = &run;
}

RunScope::~RunScope() {
    t_current = outer_;
    t_current_run = outer_run_;
}

void emit_json(const nlohmann::ordered_json &doc) {
    if (const JsonSink &sink = current_run().json)
        sink(doc);
    else
        std::cout << doc.dump(2) << "\n";
}

} // namespace tempcert::cli
