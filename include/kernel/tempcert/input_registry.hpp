// The files one run of a command reads (docs/reliability.md, Files and
// directories written). Every input read through read_text_file is noted in
// its run's registry (tempcert/run.hpp), so that the engine's output writers
// (tempcert/output.hpp) can refuse to write over an input of the same
// command or into a directory holding one, and so that under MPI the ranks
// can check that they read the same bytes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace tempcert {

// FNV-1a: its offset basis, and digest h with `bytes` folded in, then their
// length (so that "ab" then "c" differs from "a" then "bc").
constexpr std::uint64_t kDigestBasis = 0xcbf29ce484222325ull;
std::uint64_t fold_digest(std::uint64_t h, std::string_view bytes);

class InputRegistry {
  public:
    // Records that the run read `bytes` from `path`, the file (device,
    // inode) the reader opened: its identity, its path (links followed) and
    // its bytes in the digest.
    void note(const std::string &path, dev_t device, ino_t inode, std::string_view bytes);

    // Throws InputError when `path` names a regular file the run read.
    void refuse_as_output(const std::string &path) const;

    // The paths of the run's inputs, links followed (those that could be
    // resolved), in the order they were read.
    std::vector<std::filesystem::path> paths() const;

    // FNV-1a over every input's bytes, in the order they were read: the
    // ranks of an MPI run compare it before they share out work.
    std::uint64_t digest() const;

  private:
    mutable std::mutex mutex_;
    std::set<std::pair<dev_t, ino_t>> files_;
    std::vector<std::filesystem::path> paths_;
    std::uint64_t digest_ = kDigestBasis;
};

} // namespace tempcert
