// Writing the files a command produces (docs/reliability.md, Files and directories written), in one
// place.
//
// An output appears whole or not at all: it is written to a temporary file
// with a unique name in the target's directory, flushed, and renamed over
// the target. A symlink is written through (its target is replaced, the link
// kept); a device or FIFO (/dev/null, a pipe) is written directly, never
// replaced, and so is a path naming a descriptor (/dev/stdout, /dev/fd/N,
// /proc/self/fd/N: `-o /dev/stdout >> log` appends); "-" is standard
// output. A replaced file keeps its mode. A failed write removes its temporary
// file and names the target and the reason. No output may be a file the
// same command reads: every input read through read_text_file is noted in
// its run's registry (Limits::run), and writing over one of them is refused
// when `budget` names that run.
#pragma once

#include "tempcert/limits.hpp"
#include "tempcert/standard_output.hpp"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tempcert {

// Writes `text` to `path` as above. Throws InputError naming `path` when the
// file cannot be written (the target is then unchanged) or is an input.
// With `budget`, a FIFO nobody reads yet is waited for within it (Ctrl-C,
// --time-limit); without, its open() blocks until a reader comes.
void write_output_file(const std::string &path, const std::string &text,
                       const Limits *budget = nullptr);

// Several outputs of one command: each is written to its temporary file
// first; then what cannot be taken back (devices, FIFOs, descriptors) is
// written, and only when all that succeeded do the files take their
// places, so a failure leaves none of them. Two outputs naming one file
// (or one descriptor) are refused.
void write_output_files(const std::vector<std::pair<std::string, std::string>> &files,
                        const Limits *budget = nullptr);

// The marker of a directory tempcert owns (a report): a JSON file naming
// its format, the tool and every file tempcert wrote there.
constexpr const char *kDirectoryMarker = "tempcert-directory.json";

// Writes a directory of plain files (docs/reliability.md, Files and directories written):
// `fill(tmp)` writes them into a fresh directory beside `dir`, with the marker added after. A new
// `dir` then appears whole, in one rename. An existing `dir` must be empty or carry a marker of
// `format`; then only the files its marker lists are replaced (each in one rename, keeping its
// mode) or removed, every other file is kept, and the marker moves last. Two commands writing one
// directory take turns; the last to finish wins. Refused (InputError, nothing written): the current
// directory or one containing it, a directory containing an input of this command, a non-empty
// directory without the marker, a marker of another format, a file tempcert's marker does not list
// where tempcert would write.
void write_output_directory(const std::string &dir, const std::string &format,
                            const std::function<void(const std::string &tmp)> &fill,
                            const Limits *budget);

// The refusals of write_output_directory, checked before a long computation.
void check_output_directory(const std::string &dir, const std::string &format,
                            const Limits *budget);

// `-o -` (or /dev/stdout): the command's results go to standard output,
// so what else it prints through std::cout (the human summary) goes to
// standard error, and the results can be piped on.
void claim_standard_output();
// Gives std::cout back at the end of a command (cli::dispatch does, so the
// Python module's next command in the same process starts afresh).
void release_standard_output();
bool names_standard_output(const std::string &path);

} // namespace tempcert
