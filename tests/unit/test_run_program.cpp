// Helper programs run without a shell (include/engine/tempcert/run_program.hpp):
// what they print is captured, their exit status returned, and the run's
// interrupt or deadline kills them within the 20 ms poll, so a helper never
// outlives the command that started it (the main job's small checker).
#include "tempcert/error.hpp"
#include "tempcert/limits.hpp"
#include "tempcert/run_program.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <thread>

using namespace tempcert;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

} // namespace

TEST_CASE("run_program_captured: output, exit status, arguments unexpanded") {
    Limits none;
    ProgramRun r = run_program_captured({"printf", "%s|%s", "a b", "$HOME;*"}, none);
    CHECK(r.started);
    CHECK(r.exit_code == 0);
    CHECK(r.output == "a b|$HOME;*"); // no shell: each argument as it is
    ProgramRun f = run_program_captured({"false"}, none);
    CHECK(f.started);
    CHECK(f.exit_code == 1);
    ProgramRun missing = run_program_captured({"/nonexistent/tempcert-helper"}, none);
    CHECK_FALSE(missing.started);
    ProgramRun cut = run_program_captured({"head", "-c", "100000", "/dev/zero"}, none, 1000);
    CHECK(cut.exit_code == 0);
    CHECK(cut.output.size() == 1000);
    CHECK(cut.output_cut);
}

TEST_CASE("run_program_captured: an interrupt or a deadline kills the helper at once") {
    volatile std::sig_atomic_t stop = 0;
    Run run;
    run.interrupted = &stop;
    Limits lim;
    lim.run = &run;
    std::thread setter([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        stop = 1;
    });
    auto t = std::chrono::steady_clock::now();
    CHECK_THROWS_AS(run_program_captured({"sleep", "30"}, lim), Interrupted);
    setter.join();
    CHECK(seconds_since(t) < 5); // not the helper's 30 s

    Run timed;
    timed.set_time_limit(0.2);
    Limits tl;
    tl.run = &timed;
    t = std::chrono::steady_clock::now();
    CHECK_THROWS_AS(run_program_captured({"sleep", "30"}, tl), LimitError);
    CHECK(seconds_since(t) < 5);
}
