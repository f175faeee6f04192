// The small checker on a written certificate: see small_checker.hpp.
#include "small_checker.hpp"
#include "../model/json_source.hpp"
#include "run_context.hpp"
#include "tempcert/error.hpp"
#include "tempcert/output.hpp"
#include "tempcert/run_program.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace tempcert::cli {

namespace {

// The executable beside this one, or "" when there is none to run.
std::string small_checker_path() {
    namespace fs = std::filesystem;
    auto runnable = [](const fs::path &p) { return !p.empty() && access(p.c_str(), X_OK) == 0; };
    // an explicit path first (TEMPCERT_MINICHECK), then the binary beside
    // this executable, then beside the library this code is in (the Python
    // module: the package ships tempcert-minicheck next to _core)
    // (under its name tempcert-check, or its first name tempcert-minicheck)
    if (const char *given = std::getenv("TEMPCERT_MINICHECK"); given && runnable(given))
        return given;
    std::vector<fs::path> dirs;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) dirs.push_back(self.parent_path());
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&small_checker_path), &info) != 0 && info.dli_fname)
        dirs.push_back(fs::path(info.dli_fname).parent_path());
    for (const fs::path &dir : dirs)
        for (const char *name : {"tempcert-check", "tempcert-minicheck"})
            if (runnable(dir / name)) return (dir / name).string();
    return "";
}

// TMPDIR, or /tmp.
std::string temp_dir() {
    const char *t = std::getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

// A file of this process's own (mkstemp) in `dir`, holding `text`, removed
// when it goes out of scope: where the small checker reads a certificate
// that is not (yet) a regular file of the user's. InputError naming `for_path`
// when it cannot be made or filled.
struct PrivateFile {
    std::string path;
    PrivateFile(const std::string &dir, const std::string &text, const std::string &for_path)
        : path(dir + "/.tempcert-check-XXXXXX") {
        const int fd = mkstemp(path.data());
        const bool whole =
            fd >= 0 && ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
        if (fd >= 0) close(fd);
        if (!whole) {
            if (fd >= 0) std::remove(path.c_str());
            path.clear();
            throw InputError(for_path, "",
                             "cannot create a file in " + dir + " to check the certificate in");
        }
    }
    PrivateFile(const PrivateFile &) = delete;
    PrivateFile &operator=(const PrivateFile &) = delete;
    ~PrivateFile() {
        if (!path.empty()) std::remove(path.c_str());
    }
};

// The run's --threads, for the small checker's walkers (at most its 256).
std::string threads_of(const Limits &limits) {
    return std::to_string(std::clamp(limits.threads(), 1u, 256u));
}

// Its message without the trailing newline, on one line, at most 300
// characters: the job prints it inside its own line.
std::string one_line(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r'))
        s.pop_back();
    for (char &c : s)
        if (c == '\n' || c == '\r') c = ' ';
    if (s.size() > 300) {
        s.resize(297);
        s += "...";
    }
    return s;
}

// What follows `mark` in its message (all of it when `mark` is not there).
std::string after_prefix(const std::string &out, const std::string &mark) {
    const auto at = out.find(mark);
    return at == std::string::npos ? out : out.substr(at + mark.size());
}

// `s` up to the first `mark` in it (as it is when `mark` is not there): the
// echoed claim after the mark is left out.
std::string before_mark(std::string s, const std::string &mark) {
    const auto at = s.find(mark);
    if (at != std::string::npos) s.resize(at);
    return s;
}

// The small checker `exe` on cert and model at the run's threads, under its
// limits (Ctrl-C and --time-limit stop it), its output captured.
ProgramRun small_checker_run(const std::string &exe, const std::string &cert,
                             const std::string &model, const Limits &limits) {
    return run_program_captured({exe, cert, "--model", model, "--threads", threads_of(limits)},
                                limits, 64 << 10);
}

} // namespace

SmallCheck run_small_checker(const std::string &cert, const std::string &model,
                             const Limits &limits) {
    const std::string exe = small_checker_path();
    if (exe.empty()) return {SmallCheckVerdict::Absent, "no tempcert-check beside tempcert"};
    ProgramRun r = small_checker_run(exe, cert, model, limits);
    const std::string out = one_line(r.output);
    if (!r.started) return {SmallCheckVerdict::Absent, "could not start " + exe};
    switch (r.exit_code) {
    case 0: // "s VERIFIED CERT (what ... by the small checker): claim", said as "what ..."
        return {SmallCheckVerdict::Verified,
                before_mark(after_prefix(out, "s VERIFIED " + cert + " ("),
                            " by the small checker): ")};
    case 1: // "s NOT VERIFIED CERT: PATH: what", said as "PATH: what"
        return {SmallCheckVerdict::NotVerified, after_prefix(out, "s NOT VERIFIED " + cert + ": ")};
    case 3:
        return {SmallCheckVerdict::LeftOut, after_prefix(out, "not checked: ")};
    default:
        return {SmallCheckVerdict::Failed,
                (r.exit_code < 0 ? std::string("killed by a signal")
                                 : "exit " + std::to_string(r.exit_code)) +
                    (out.empty() ? "" : ": " + out)};
    }
}

namespace {

// The certificate kind the verified claim ends with (", KIND certificate"),
// else "": the file itself is read by the small checker alone (it may be
// standard output's pipe, readable once).
std::string method_claimed(const std::string &claim) {
    const std::string tail = " certificate";
    if (claim.size() < tail.size() ||
        claim.compare(claim.size() - tail.size(), tail.size(), tail) != 0)
        return "";
    const std::string head = claim.substr(0, claim.size() - tail.size());
    const auto comma = head.rfind(", ");
    return comma == std::string::npos ? "" : head.substr(comma + 2);
}

// "K words re-evaluated" in the verdict line: K, else 0.
long long words_in(const std::string &line) {
    const auto at = line.find(" words re-evaluated");
    if (at == std::string::npos) return 0;
    auto from = line.rfind('(', at);
    if (from == std::string::npos) return 0;
    try {
        return std::stoll(line.substr(from + 1, at - from - 1));
    } catch (const std::exception &) {
        return 0;
    }
}

// A file that can be read only once (a pipe, standard input, a device) is
// copied to a private file in TMPDIR, read through the run's limits, for
// the small checker, which runs without this process's standard input;
// none for a regular file, which it reads itself.
std::optional<PrivateFile> copy_if_once_readable(const std::string &path, const Limits &limits) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return std::nullopt;
    return std::optional<PrivateFile>(std::in_place, temp_dir(),
                                      read_text_file(path, limits.max_file_bytes, &limits), path);
}

// `text` with every `from` replaced by `to`.
std::string replaced(std::string text, const std::string &from, const std::string &to) {
    for (auto at = text.find(from); !from.empty() && at != std::string::npos;
         at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

} // namespace

SmallCheck run_small_checker_on_text(const std::string &text, const std::string &model,
                                     const Limits &limits) {
    std::optional<PrivateFile> copy;
    try {
        copy.emplace(temp_dir(), text, "the certificate");
    } catch (const InputError &e) {
        return {SmallCheckVerdict::Failed, e.message()};
    }
    SmallCheck sc = run_small_checker(copy->path, model, limits);
    sc.detail = replaced(sc.detail, copy->path, "the certificate");
    return sc;
}

int run_small_checker_for_check(const std::string &cert, const std::string &model,
                                const Limits &limits, bool json) {
    const std::string exe = small_checker_path();
    if (exe.empty())
        throw InputError(cert, "tempcert check",
                         "certificates are verified by tempcert-check (the small checker), "
                         "which is not beside this tempcert");
    const std::optional<PrivateFile> once = copy_if_once_readable(cert, limits);
    const std::string read = once ? once->path : cert;
    ProgramRun r = small_checker_run(exe, read, model, limits);
    if (once) r.output = replaced(r.output, once->path, cert);
    if (!r.started) throw InputError(cert, "tempcert check", "could not start " + exe);
    const int code = r.exit_code < 0 ? kExitUndecided : r.exit_code;
    std::string out = r.output;
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r'))
        out.pop_back();
    if (code == kExitUndecided)
        out += "\ntempcert: " + cert +
               ": not verified; tempcert-fastcheck CERT --model MODEL checks it with the large "
               "checker, which never says VERIFIED (docs/certificates.md)";
    if (!json) {
        (code == 0 || code == 1 ? std::cout : std::cerr) << out << "\n" << std::flush;
        return code;
    }
    const std::string verified_mark = " by the small checker): ";
    nlohmann::ordered_json j{
        {"certificate", cert},
        {"accepted", code == 0},
        {"malformed", code == 2},
        {"reason", code == 0   ? std::string()
                   : code == 1 ? after_prefix(out, "s NOT VERIFIED " + cert + ": ")
                               : out},
        {"method", code == 0 ? method_claimed(after_prefix(out, verified_mark)) : std::string()},
        {"words", words_in(out)},
        {"claim", code == 0 ? after_prefix(out, verified_mark) : std::string()},
        {"checker", "tempcert-check"}};
    emit_json(j);
    if (code != 0 && code != 1) std::cerr << out << "\n" << std::flush;
    return code;
}

namespace {

// The directory of the file a certificate is checked in before it is
// written: the output's own where it is a path in a directory, else TMPDIR
// (standard output, a device, a descriptor).
std::string unchecked_dir(const std::string &path) {
    namespace fs = std::filesystem;
    const bool special = path == "-" || names_standard_output(path) ||
                         path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0;
    if (special) return temp_dir();
    return fs::path(path).has_parent_path() ? fs::path(path).parent_path().string() : ".";
}

} // namespace

bool write_small_checked(const std::string &path, const std::string &model, const Limits &limits,
                         const std::function<void(const std::string &)> &write) {
    const PrivateFile unchecked(unchecked_dir(path), "", path);
    write(unchecked.path);
    std::ifstream in(unchecked.path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (bytes.str().empty()) return false; // nothing written: an undecided verdict
    SmallCheck sc = run_small_checker(unchecked.path, model, limits);
    // outside its class or not installed: undecided; refused or crashed: the
    // engine claimed what its checker does not back, a bug to report
    if (sc.verdict == SmallCheckVerdict::LeftOut || sc.verdict == SmallCheckVerdict::Absent)
        throw Undecided("no certificate written: " + to_text(sc));
    if (sc.verdict != SmallCheckVerdict::Verified)
        throw std::runtime_error("no certificate written: " + to_text(sc));
    write_output_file(path, bytes.str(), &limits); // the bytes verified, nothing else
    return true;
}

std::string to_text(const SmallCheck &c) {
    switch (c.verdict) {
    case SmallCheckVerdict::Verified:
        return "the small checker: verified" + (c.detail.empty() ? "" : " (" + c.detail + ")");
    case SmallCheckVerdict::NotVerified:
        return "the small checker: NOT VERIFIED: " + c.detail;
    case SmallCheckVerdict::LeftOut:
        return "the small checker leaves it out (" + c.detail + ")";
    case SmallCheckVerdict::Failed:
        return "the small checker FAILED: " + c.detail;
    case SmallCheckVerdict::Absent:
        return "the small checker not run (" + c.detail + ")";
    }
    return "";
}

} // namespace tempcert::cli
