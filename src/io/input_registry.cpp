// The files one run reads: see include/kernel/tempcert/input_registry.hpp.
#include "tempcert/input_registry.hpp"
#include "tempcert/error.hpp"

#include <sys/stat.h>

namespace tempcert {

namespace fs = std::filesystem;

std::uint64_t fold_digest(std::uint64_t h, std::string_view bytes) {
    for (unsigned char c : bytes)
        h = (h ^ c) * 0x100000001b3ull; // FNV-1a's prime
    return (h ^ bytes.size()) * 0x100000001b3ull;
}

void InputRegistry::note(const std::string &path, dev_t device, ino_t inode,
                         std::string_view bytes) {
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(fs::absolute(path, ec), ec);
    std::lock_guard lock(mutex_);
    files_.insert({device, inode});
    if (!ec) paths_.push_back(canonical);
    digest_ = fold_digest(digest_, bytes);
}

void InputRegistry::refuse_as_output(const std::string &path) const {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return;
    std::lock_guard lock(mutex_);
    if (S_ISREG(st.st_mode) && files_.count({st.st_dev, st.st_ino}))
        throw InputError(path, "",
                         "is also an input of this command; refusing to overwrite it "
                         "(name another output file)");
}

std::vector<fs::path> InputRegistry::paths() const {
    std::lock_guard lock(mutex_);
    return paths_;
}

std::uint64_t InputRegistry::digest() const {
    std::lock_guard lock(mutex_);
    return digest_;
}

} // namespace tempcert
