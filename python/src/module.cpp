// tempcert._core: the command line's commands run in-process, for the Python
// package (python/tempcert/). Each call runs one command exactly as the
// executable does (dispatch.cpp: same parsing, same engine, same messages and
// exit codes) on a worker thread, with std::cout and std::cerr captured, while
// the calling thread waits without the GIL and polls for KeyboardInterrupt
// and progress. A command's --json result reaches Python as the value the
// command built (run_json: dicts and lists made from it, never its text
// parsed back); the Python layer turns those into typed results.
#include "dispatch.hpp"
#include "tempcert/error.hpp"
#include "tempcert/limits.hpp"
#include "tempcert/model.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <future>
#include <iostream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace py = pybind11;
using namespace tempcert;

namespace {

// std::cout and std::cerr are process-wide, so one command runs at a time.
std::mutex g_run_mutex;

// Points std::cout and std::cerr at string buffers for one command.
class CapturedStreams {
  public:
    CapturedStreams()
        : old_out_(std::cout.rdbuf(out_.rdbuf())), old_err_(std::cerr.rdbuf(err_.rdbuf())) {}
    ~CapturedStreams() {
        std::cout.rdbuf(old_out_);
        std::cerr.rdbuf(old_err_);
    }
    CapturedStreams(const CapturedStreams &) = delete;
    CapturedStreams &operator=(const CapturedStreams &) = delete;
    std::string out() const { return out_.str(); }
    std::string err() const { return err_.str(); }

  private:
    std::ostringstream out_, err_;
    std::streambuf *old_out_, *old_err_;
};

struct Progress {
    std::atomic<std::uint64_t> done{0}, total{0};
    std::atomic<bool> fresh{false};
};

// Waits for the command without the GIL; between waits (every `poll`), lets
// Python deliver signals (KeyboardInterrupt) and calls `progress`. A Python
// exception there sets the command's `stop` flag, waits for it to stop (it
// polls the flag between units of work, well within a second) and
// propagates.
void wait_for(std::future<int> &result, const py::object &progress, Progress &state,
              std::chrono::milliseconds poll, volatile std::sig_atomic_t &stop) {
    for (;;) {
        std::future_status status;
        {
            py::gil_scoped_release release;
            status = result.wait_for(poll);
        }
        if (status == std::future_status::ready) return;
        try {
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            if (!progress.is_none() && state.fresh.exchange(false, std::memory_order_acquire))
                progress(state.done.load(), state.total.load());
        } catch (...) {
            stop = 1;
            py::gil_scoped_release release;
            result.wait();
            throw;
        }
    }
}

// A --json result as Python values: objects as dicts (in the command's key
// order), arrays as lists, integers as ints of any size the JSON holds.
py::object to_python(const nlohmann::ordered_json &j) {
    using T = nlohmann::ordered_json::value_t;
    switch (j.type()) {
    case T::null:
        return py::none();
    case T::boolean:
        return py::bool_(j.get<bool>());
    case T::number_integer:
        return py::int_(j.get<std::int64_t>());
    case T::number_unsigned:
        return py::int_(j.get<std::uint64_t>());
    case T::number_float:
        return py::float_(j.get<double>());
    case T::string:
        return py::str(j.get_ref<const std::string &>());
    case T::array: {
        py::list out;
        for (const auto &x : j)
            out.append(to_python(x));
        return out;
    }
    case T::object: {
        py::dict out;
        for (const auto &[key, value] : j.items())
            out[py::str(key)] = to_python(value);
        return out;
    }
    default:
        throw std::logic_error("a JSON value of no JSON type in a --json result");
    }
}

// One command on a worker thread with its own run context. `results`, when
// given, receives each --json result instead of standard output.
struct Finished {
    int code;
    std::string out, err;
};
Finished run_command(const std::vector<std::string> &args, const py::object &progress,
                     double poll_seconds, std::vector<nlohmann::ordered_json> *results) {
    std::unique_lock<std::mutex> lock(g_run_mutex, std::defer_lock);
    {
        py::gil_scoped_release release;
        lock.lock();
    }
    Progress state;
    volatile std::sig_atomic_t stop = 0; // this call's own interrupt flag
    cli::RunContext context;
    context.interrupted = &stop;
    context.progress = [&state](std::uint64_t done, std::uint64_t total) {
        state.done.store(done, std::memory_order_relaxed);
        state.total.store(total, std::memory_order_relaxed);
        state.fresh.store(true, std::memory_order_release);
    };
    if (results)
        context.json = [results](const nlohmann::ordered_json &doc) { results->push_back(doc); };
    CapturedStreams streams;
    std::packaged_task<int()> task([&args, &context] { return cli::dispatch(args, context); });
    std::future<int> result = task.get_future();
    std::thread worker(std::move(task));
    try {
        wait_for(result, progress, state,
                 std::chrono::milliseconds(static_cast<long>(poll_seconds * 1000)), stop);
    } catch (...) {
        worker.join();
        throw;
    }
    worker.join();
    return {result.get(), streams.out(), streams.err()};
}

// run(args, progress=None) -> (exit code, stdout, stderr)
py::tuple run(const std::vector<std::string> &args, const py::object &progress,
              double poll_seconds) {
    Finished f = run_command(args, progress, poll_seconds, nullptr);
    return py::make_tuple(f.code, py::bytes(f.out), py::bytes(f.err));
}

// run_json(args, progress=None) -> (exit code, result or None, stdout, stderr):
// args as run() takes them, with --json added; the result is the value the
// command rendered (one per command; None when it ended without one).
py::tuple run_json(std::vector<std::string> args, const py::object &progress, double poll_seconds) {
    args.push_back("--json");
    std::vector<nlohmann::ordered_json> results;
    Finished f = run_command(args, progress, poll_seconds, &results);
    if (results.size() > 1)
        throw std::logic_error("tempcert " + args.front() + " gave " +
                               std::to_string(results.size()) + " --json results, not one");
    py::object value = results.empty() ? py::object(py::none()) : to_python(results.front());
    return py::make_tuple(f.code, value, py::bytes(f.out), py::bytes(f.err));
}

// The loader's verdict on a model: ("ok", canonical JSON, sha256), or
// ("bad", message, "") for malformed input (the command line's exit 2), or
// ("limit", message, "") past a limit (exit 3). The canonical JSON is the
// form certificates hash.
template <class Load> py::tuple checked_model(Load load) {
    std::string status = "ok", first, second;
    {
        py::gil_scoped_release release;
        try {
            Model m = load();
            first = canonical_json(m);
            second = model_sha256(m);
        } catch (const InputError &e) {
            status = "bad";
            first = e.message();
        } catch (const LimitError &e) {
            status = "limit";
            first = e.what();
        }
    }
    return py::make_tuple(status, first, second);
}

py::tuple check_model_text(const std::string &text, const std::string &name) {
    return checked_model([&] { return load_model_text(text, name, Limits{}); });
}

py::tuple check_model_file(const std::string &path) {
    return checked_model([&] { return load_model_file(path, Limits{}); });
}

} // namespace

PYBIND11_MODULE(_core, m) {
    m.doc() = "tempcert's commands, run in-process (see the tempcert package)";
    m.def("run", &run, py::arg("args"), py::arg("progress") = py::none(),
          py::arg("poll_seconds") = 0.05,
          "Runs one tempcert command; returns (exit code, stdout bytes, stderr bytes).");
    m.def("run_json", &run_json, py::arg("args"), py::arg("progress") = py::none(),
          py::arg("poll_seconds") = 0.05,
          "Runs one tempcert command with --json; returns (exit code, its result as\n"
          "dicts and lists or None, stdout bytes, stderr bytes).");
    m.def("check_model_text", &check_model_text, py::arg("text"), py::arg("name"),
          "Checks a model's JSON text: (status, canonical JSON or message, sha256).");
    m.def("check_model_file", &check_model_file, py::arg("path"),
          "Checks a model file: (status, canonical JSON or message, sha256).");
    m.attr("version") = TEMPCERT_VERSION;
    // the exit codes of the command line (include/kernel/tempcert/error.hpp), so the
    // package maps them to results and exceptions by name, not by literal
    py::dict codes;
    codes["ok"] = static_cast<int>(kExitOk);
    codes["refuted"] = static_cast<int>(kExitRefuted);
    codes["bad_input"] = static_cast<int>(kExitBadInput);
    codes["undecided"] = static_cast<int>(kExitUndecided);
    codes["internal"] = static_cast<int>(kExitInternal);
    codes["interrupted"] = static_cast<int>(kExitInterrupted);
    m.attr("exit_codes") = codes;
}
