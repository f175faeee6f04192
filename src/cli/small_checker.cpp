// The small checker on a written certificate: see small_checker.hpp.
#include "small_checker.hpp"
#include "run_context.hpp"
#include "tempcert/error.hpp"
#include "tempcert/run_program.hpp"

#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <iostream>
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
    if (const char *given = std::getenv("TEMPCERT_MINICHECK"); given && runnable(given))
        return given;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec && runnable(self.parent_path() / "tempcert-minicheck"))
        return (self.parent_path() / "tempcert-minicheck").string();
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&small_checker_path), &info) != 0 && info.dli_fname) {
        const fs::path beside = fs::path(info.dli_fname).parent_path() / "tempcert-minicheck";
        if (runnable(beside)) return beside.string();
    }
    return "";
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

} // namespace

SmallCheck run_small_checker(const std::string &cert, const std::string &model,
                             const Limits &limits) {
    const std::string exe = small_checker_path();
    if (exe.empty()) return {SmallCheckVerdict::Absent, "no tempcert-minicheck beside tempcert"};
    ProgramRun r = run_program_captured({exe, cert, "--model", model}, limits, 64 << 10);
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

int run_small_checker_for_check(const std::string &cert, const std::string &model,
                                const Limits &limits, bool json) {
    const std::string exe = small_checker_path();
    if (exe.empty())
        throw InputError(cert, "$.method",
                         "an every-n certificate is verified by tempcert-minicheck, which is not "
                         "beside this tempcert");
    ProgramRun r = run_program_captured({exe, cert, "--model", model}, limits, 64 << 10);
    if (!r.started) throw InputError(cert, "$.method", "could not start " + exe);
    const int code = r.exit_code < 0 ? kExitUndecided : r.exit_code;
    std::string out = r.output;
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r'))
        out.pop_back();
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
        {"method", "every-n"},
        {"words", 0},
        {"claim", code == 0 ? after_prefix(out, verified_mark) : std::string()},
        {"checker", "tempcert-minicheck"}};
    emit_json(j);
    if (code != 0 && code != 1) std::cerr << out << "\n" << std::flush;
    return code;
}

std::string to_text(const SmallCheck &c) {
    switch (c.verdict) {
    case SmallCheckVerdict::Verified:
        return "the small checker: verified" + (c.detail.empty() ? "" : " (" + c.detail + ")");
    case SmallCheckVerdict::NotVerified:
        return "the small checker: NOT VERIFIED: " + c.detail;
    case SmallCheckVerdict::LeftOut:
        return "the small checker leaves it to tempcert-check (" + c.detail + ")";
    case SmallCheckVerdict::Failed:
        return "the small checker FAILED: " + c.detail;
    case SmallCheckVerdict::Absent:
        return "the small checker not run (" + c.detail + ")";
    }
    return "";
}

} // namespace tempcert::cli
