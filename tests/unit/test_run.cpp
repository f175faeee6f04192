// One run's state is its own (include/kernel/tempcert/run.hpp): two runs in
// one process do not share an interrupt, a deadline or the files they read,
// so the Python module's calls (one Run each) cannot leak into each other.
#include "tempcert/error.hpp"
#include "tempcert/limits.hpp"
#include "tempcert/model.hpp"
#include "tempcert/output.hpp"

#include <doctest/doctest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>

using namespace tempcert;
namespace fs = std::filesystem;

namespace {

const std::string kModel = std::string(TEMPCERT_TEST_DIR) + "/../cases/models/has-b.json";

// A scratch copy of a bundled model, removed at the end of the test.
struct ScratchModel {
    fs::path path;
    ScratchModel() {
        path = fs::temp_directory_path() /
               ("tempcert-test-run-" + std::to_string(::getpid()) + "-model.json");
        fs::copy_file(kModel, path, fs::copy_options::overwrite_existing);
    }
    ~ScratchModel() {
        std::error_code ec;
        fs::remove(path, ec);
    }
};

} // namespace

TEST_CASE("run: an interrupt or a deadline stops its own run only") {
    volatile std::sig_atomic_t stop_a = 0, stop_b = 0;
    Run a, b;
    a.interrupted = &stop_a;
    b.interrupted = &stop_b;
    Limits la, lb, none;
    la.run = &a;
    lb.run = &b;
    CHECK_NOTHROW(check_budget(la));
    stop_a = 1;
    CHECK_THROWS_AS(check_budget(la), Interrupted);
    CHECK_NOTHROW(check_budget(lb));
    CHECK_NOTHROW(check_budget(none)); // library use: no run, never interrupted
    b.set_time_limit(0.001);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK_THROWS_WITH_AS(check_budget(lb), doctest::Contains("--time-limit"), LimitError);
    Run c;
    c.set_time_limit(0); // 0: no deadline
    Limits lc;
    lc.run = &c;
    CHECK_NOTHROW(check_budget(lc));
    CHECK(lc.threads() == 1);
    c.threads = 4;
    CHECK(lc.threads() == 4);
    CHECK(none.threads() == 1);
}

TEST_CASE("run: a file one run read is an input of that run, not of another") {
    ScratchModel scratch;
    const std::string p = scratch.path.string();
    Run reader, writer;
    Limits lr, lw;
    lr.run = &reader;
    lw.run = &writer;
    const std::uint64_t empty = reader.inputs.digest();
    Model m = load_model_file(p, lr);
    CHECK(m.alphabet.size() >= 1);
    REQUIRE(reader.inputs.paths().size() == 1);
    CHECK(reader.inputs.paths().front() == fs::weakly_canonical(scratch.path));
    CHECK(reader.inputs.digest() != empty);
    CHECK(writer.inputs.paths().empty());
    CHECK(writer.inputs.digest() == empty);
    // refused as the reader's output, through a link too; the file unchanged
    CHECK_THROWS_WITH_AS(write_output_file(p, "x", &lr), doctest::Contains("also an input"),
                         InputError);
    const fs::path link = scratch.path.string() + ".link";
    fs::create_symlink(scratch.path, link);
    CHECK_THROWS_WITH_AS(write_output_file(link.string(), "x", &lr),
                         doctest::Contains("also an input"), InputError);
    fs::remove(link);
    CHECK(fs::file_size(scratch.path) == fs::file_size(kModel));
    // the other run may write it
    CHECK_NOTHROW(write_output_file(p, "{}\n", &lw));
    std::ifstream in(p);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(text == "{}\n");
}

TEST_CASE("run: the digest is of the bytes read, in order") {
    ScratchModel scratch;
    Run once, twice;
    Limits l1, l2;
    l1.run = &once;
    l2.run = &twice;
    load_model_file(scratch.path.string(), l1);
    load_model_file(scratch.path.string(), l2);
    CHECK(once.inputs.digest() == twice.inputs.digest());
    load_model_file(scratch.path.string(), l2);
    CHECK(once.inputs.digest() != twice.inputs.digest());
    CHECK(twice.inputs.paths().size() == 2);
}
