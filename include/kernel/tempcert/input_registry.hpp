// The files a command reads (docs/reliability.md, Files and directories
// written). Every input read through read_text_file is recorded here, so
// that the engine's output writers (tempcert/output.hpp) can refuse to write
// over an input of the same command or into a directory holding one.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace tempcert {

// Records that the command reads `path` (called by the input readers).
void note_input_file(const std::string &path);

// The inputs of one command: the files noted from its construction to its
// destruction. Every command (dispatch, the Python module's calls) runs in
// one, so a file one command read is not taken for an input of the next in
// the same process. Commands do not overlap (the Python module runs one at
// a time).
class InputScope {
  public:
    InputScope();
    ~InputScope();
    InputScope(const InputScope &) = delete;
    InputScope &operator=(const InputScope &) = delete;
};

// Throws InputError when `path` names a regular file the command reads.
void refuse_input_as_output(const std::string &path);

// The paths of the command's inputs, links followed (those that could be
// resolved), in the order they were read.
std::vector<std::filesystem::path> input_paths();

} // namespace tempcert
