// Writing the files a command produces (issue 13, items 2-7), in one place.
//
// An output appears whole or not at all: it is written to a temporary file
// with a unique name in the target's directory, flushed, and renamed over
// the target. A symlink is written through (its target is replaced, the link
// kept); a device or FIFO (/dev/null, a pipe) is written directly, never
// replaced; "-" is standard output. A failed write removes its temporary
// file and names the target and the reason. No output may be a file the
// same command reads: every input read through read_text_file is recorded,
// and writing over one of them is refused.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tempcert {

// Writes `text` to `path` as above. Throws InputError naming `path` when the
// file cannot be written (the target is then unchanged) or is an input.
void write_output_file(const std::string &path, const std::string &text);

// The end of a command: flushes and closes standard output. If any of what
// was printed could not be written (a full disk, /dev/full, an I/O error),
// says so on standard error and returns exit 2 in place of 0, so results
// are never lost behind exit 0 (issue 33, item 2); other codes are kept.
int finish_standard_output(const char *program, int code);

// Several outputs of one command: each is written to its temporary file
// first, and only when all are written do they take their places, so a
// failure leaves none of them. Two outputs naming one file are refused.
void write_output_files(const std::vector<std::pair<std::string, std::string>> &files);

// Records that the command reads `path` (called by the input readers).
void note_input_file(const std::string &path);

// Throws InputError when `path` names a file the command reads.
void refuse_input_as_output(const std::string &path);

// Writes a directory of files atomically: `fill(tmp)` writes into a fresh
// directory beside `dir`, which then takes the place of `dir` in one rename
// (an existing `dir` must be one this function wrote before, marked by the
// file `marker`, or empty; anything else is refused, never deleted).
void write_output_directory(const std::string &dir, const std::string &marker,
                            const std::function<void(const std::string &tmp)> &fill);

} // namespace tempcert
