// The small checker (tempcert-minicheck, docs/minicheck.md) run on a
// certificate the main job wrote: as its own process, from the binary
// beside this one, so that it shares nothing with the engine that wrote
// the certificate, not even an address space.
#pragma once

#include "tempcert/limits.hpp"

#include <functional>
#include <string>

namespace tempcert::cli {

enum class SmallCheckVerdict {
    Verified,    // exit 0: every claim re-derived by its own code
    NotVerified, // exit 1: a claim it refuses (a failure of the job)
    LeftOut,     // exit 3: outside its class or over its limits; tempcert-check's word stands
    Failed,      // anything else: bad input to it, a crash, an internal error
    Absent,      // no tempcert-minicheck beside this executable: not run
};

struct SmallCheck {
    SmallCheckVerdict verdict = SmallCheckVerdict::Absent;
    std::string detail; // its own words: what it re-evaluated, or why not
};

// Runs `tempcert-minicheck CERT --model MODEL` (the binary in this
// executable's directory). The run's deadline and Ctrl-C stop it as they
// stop the job (run_program_captured).
SmallCheck run_small_checker(const std::string &cert, const std::string &model,
                             const Limits &limits);

// Runs it on a certificate's text (written to a private file in TMPDIR,
// removed after): what is checked is exactly these bytes.
SmallCheck run_small_checker_on_text(const std::string &text, const std::string &model,
                                     const Limits &limits);

// Runs it for `tempcert check`: its verdict line on standard output (with
// `json`, check's JSON fields from it), anything else on standard error,
// and its exit code (bad input when it is not beside this one). A
// certificate it leaves out (exit 3) is not verified; the message says
// so and names tempcert-fastcheck, which never says VERIFIED.
int run_small_checker_for_check(const std::string &cert, const std::string &model,
                                const Limits &limits, bool json);

// The engine's guard on what it writes: `write(unchecked)` writes the
// certificate to a private file (beside `path`, or in TMPDIR for standard
// output and devices), the small checker runs on it, and only when it is
// verified are its bytes written to `path` (through write_output_file).
// The private file is removed in every case (Ctrl-C included). Otherwise
// "no certificate written: the small checker ...": Undecided where it
// leaves the certificate out or is not there, an internal error (exit 70)
// where it refuses it. Returns false when `write` wrote nothing (an
// undecided verdict, which claims nothing).
bool write_small_checked(const std::string &path, const std::string &model, const Limits &limits,
                         const std::function<void(const std::string &)> &write);

// One phrase for the job's line: "the small checker: verified (...)".
std::string to_text(const SmallCheck &c);

} // namespace tempcert::cli
