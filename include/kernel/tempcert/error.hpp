// Error kinds and the exit codes they map to (docs/commands.md).
//
// Every failure the tool can report is one of these. Bad input names the
// file and the place (JSON path, line:column, option) so that the one-line
// message a user sees says what was expected where.
#pragma once

#include <stdexcept>
#include <string>

namespace tempcert {

// The exit codes of both programs (tempcert, tempcert-check), exported to
// the Python module as well: one mapping, written once.
enum ExitCode : int {
    kExitOk = 0,
    kExitRefuted = 1,
    kExitBadInput = 2,
    kExitUndecided = 3,     // also a limit reached, out of memory
    kExitInternal = 70,     // EX_SOFTWARE: a bug, please report
    kExitInterrupted = 130, // 128 + SIGINT
};

// Malformed model, expression, word, certificate or option (exit 2).
// `file` may be empty (command-line input); `place` is a JSON path such as
// "$.layers[0].heads[1].query", a "line:column", or an option name.
class InputError : public std::runtime_error {
  public:
    InputError(std::string file, std::string place, const std::string &what)
        : std::runtime_error(what), file_(std::move(file)), place_(std::move(place)) {}
    const std::string &file() const { return file_; }
    const std::string &place() const { return place_; }
    // "FILE: PLACE: what" with empty parts left out.
    std::string message() const;

  private:
    std::string file_, place_;
};

// A limit checked before or during work (precision cap, n, sizes): exit 3.
class LimitError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A question that interval arithmetic could not decide at the precision cap
// (for example a tie between irrational scores): exit 3, never a guess.
class Undecided : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// How a command that threw ends: its exit code and the message that
// follows the program's name. Call inside a catch block (it rethrows the
// current exception to classify it); `interrupted` is the program's own
// sentence for Ctrl-C.
struct CommandEnding {
    int code;
    std::string message;
};
CommandEnding ending_of_current_exception(const std::string &interrupted);

} // namespace tempcert
