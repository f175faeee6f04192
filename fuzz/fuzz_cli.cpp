// libFuzzer target: the command line's front door. An input is a command
// and its arguments, one per line; it runs through dispatch() exactly as
// the executable runs it, in a scratch directory holding two bundled
// models (m.json: has-b, t.json: has-ab-two-layer). Every ending must be
// 0, 1, 2 or 3: exit 70 (an internal error) or a crash is a finding.
//
// Safety and time: an argument that is an absolute path or contains ".."
// is refused (outputs stay in the scratch directory, which holds no links,
// and no input names a file elsewhere), the main job
// (no command) is skipped, and the run's limits come first after the
// command (--time-limit 2, --max-n 64, --max-words 20000, --threads 1), so
// the input cannot lift them ("--" would only make them positional after
// it) and a long computation stops with exit 3, not a fuzzer timeout.
#include "dispatch.hpp"

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

// Discards everything written to it.
class NullBuffer : public std::streambuf {
  protected:
    int overflow(int c) override { return c; }
    std::streamsize xsputn(const char *, std::streamsize n) override { return n; }
};

const char *const kModels[][2] = {{"m.json", "has-b.json"}, {"t.json", "has-ab-two-layer.json"}};

// The scratch directory, made on the first input; it goes with the
// process (libFuzzer ends by exit()).
fs::path g_scratch;

fs::path scratch() {
    if (!g_scratch.empty()) return g_scratch;
    g_scratch = fs::temp_directory_path() / ("tempcert-fuzz-cli-" + std::to_string(::getpid()));
    fs::create_directories(g_scratch);
    for (const auto &m : kModels)
        fs::copy_file(fs::path(TEMPCERT_SOURCE_DIR) / "cases" / "models" / m[1], g_scratch / m[0],
                      fs::copy_options::overwrite_existing);
    fs::current_path(g_scratch);
    std::atexit([] {
        std::error_code ec;
        fs::remove_all(g_scratch, ec);
    });
    ::setenv("TEMPCERT_CASES", (fs::path(TEMPCERT_SOURCE_DIR) / "cases").c_str(), 1);
    return g_scratch;
}

// Removes what the previous input wrote, so each input starts alike.
void tidy(const fs::path &dir) {
    std::error_code ec;
    for (const auto &e : fs::directory_iterator(dir, ec)) {
        std::string name = e.path().filename().string();
        if (name != kModels[0][0] && name != kModels[1][0]) fs::remove_all(e.path(), ec);
    }
}

// Whether an argument, read as a path, stays in the scratch directory:
// relative ("1/100" is a fraction or a file below it) and never climbing.
bool inside_scratch(const std::string &arg) {
    return arg.empty() || (arg[0] != '/' && arg.find("=/") == std::string::npos &&
                           arg.find("..") == std::string::npos);
}

bool split(const std::string &text, std::vector<std::string> &args) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (!inside_scratch(line) || line.size() > 80 || args.size() >= 12) return false;
        args.push_back(line);
    }
    return !args.empty() && !args[0].empty();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size > 600) return 0;
    const fs::path dir = scratch();
    std::vector<std::string> words;
    if (!split(std::string(reinterpret_cast<const char *>(data), size), words)) return 0;
    tempcert::cli::Args args{words[0], "--time-limit=2", "--max-n=64", "--max-words=20000",
                             "--threads=1"};
    args.insert(args.end(), words.begin() + 1, words.end());
    static NullBuffer null;
    std::streambuf *out = std::cout.rdbuf(&null), *err = std::cerr.rdbuf(&null);
    volatile std::sig_atomic_t stop = 0; // each run its own flag, never set here
    tempcert::cli::RunContext run;
    run.interrupted = &stop;
    int code = tempcert::cli::dispatch(args, run);
    std::cout.rdbuf(out);
    std::cerr.rdbuf(err);
    tidy(dir);
    if (code < 0 || code > 3) {
        std::cerr << "fuzz_cli: exit " << code << " for:";
        for (const auto &a : args)
            std::cerr << " [" << a << "]";
        std::cerr << "\n";
        std::abort();
    }
    return 0;
}
