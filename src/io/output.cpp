// Output files and directories: see include/tempcert/output.hpp.
#include "../numeric/distributed.hpp"
#include "tempcert/output.hpp"
#include "tempcert/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <set>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <utility>

namespace tempcert {

namespace {

namespace fs = std::filesystem;

std::mutex g_inputs_mutex;
std::set<std::pair<dev_t, ino_t>> g_inputs; // (device, inode) of every input read

std::string reason() {
    return std::strerror(errno);
}

// Writes all of `text` to fd; false on any error (errno set).
bool write_all(int fd, const std::string &text) {
    std::size_t done = 0;
    while (done < text.size()) {
        ssize_t w = ::write(fd, text.data() + done, text.size() - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        done += static_cast<std::size_t>(w);
    }
    return true;
}

// A symlink's final target (followed through every link), or the path itself.
fs::path resolve_links(const fs::path &path) {
    fs::path p = path;
    for (int hops = 0; hops < 40; ++hops) {
        std::error_code ec;
        if (!fs::is_symlink(p, ec)) return p;
        fs::path target = fs::read_symlink(p, ec);
        if (ec) return p;
        p = target.is_absolute() ? target : p.parent_path() / target;
    }
    throw InputError(path.string(), "", "too many levels of symbolic links");
}

void write_directly(const std::string &path, const std::string &text) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw InputError(path, "", "cannot open the output for writing: " + reason());
    bool ok = write_all(fd, text);
    std::string why = ok ? "" : reason();
    ::close(fd);
    if (!ok) throw InputError(path, "", "cannot write the output: " + why);
}

// An output written to its temporary file, not yet in place.
struct Staged {
    std::string shown;  // the path as the user gave it
    fs::path target;    // where it goes (symlinks followed)
    std::string tmp;    // the temporary file; empty for a device or FIFO
    std::string text;   // for a device or FIFO: written at commit
};

Staged stage(const std::string &path, const std::string &text) {
    if (path.empty()) throw InputError("", "-o", "expected an output file name");
    refuse_input_as_output(path);
    Staged st{path, resolve_links(path), "", ""};
    struct stat info {};
    if (::stat(st.target.c_str(), &info) == 0) {
        if (S_ISDIR(info.st_mode)) throw InputError(path, "", "is a directory, expected a file");
        if (!S_ISREG(info.st_mode)) { // a device or FIFO: written directly, never replaced
            st.text = text;
            return st;
        }
    }
    fs::path dir = st.target.parent_path().empty() ? fs::path(".") : st.target.parent_path();
    std::string tmpl = (dir / ("." + st.target.filename().string() + ".tmp-XXXXXX")).string();
    int fd = ::mkstemp(tmpl.data());
    if (fd < 0)
        throw InputError(path, "", "cannot create a temporary file beside the output: " + reason());
    bool ok = write_all(fd, text) && ::fsync(fd) == 0;
    std::string why = ok ? "" : reason();
    mode_t mask = ::umask(0); // mkstemp makes the file 0600; an output gets the usual mode
    ::umask(mask);
    if (ok) ::fchmod(fd, 0666 & ~mask);
    if (::close(fd) != 0 && ok) {
        ok = false;
        why = reason();
    }
    if (!ok) {
        ::unlink(tmpl.c_str());
        throw InputError(path, "", "cannot write the output: " + why);
    }
    st.tmp = tmpl;
    return st;
}

void discard(const std::vector<Staged> &staged) {
    for (const auto &s : staged)
        if (!s.tmp.empty()) ::unlink(s.tmp.c_str());
}

} // namespace

void note_input_file(const std::string &path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return;
    std::lock_guard lock(g_inputs_mutex);
    g_inputs.insert({st.st_dev, st.st_ino});
}

void refuse_input_as_output(const std::string &path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return;
    std::lock_guard lock(g_inputs_mutex);
    if (S_ISREG(st.st_mode) && g_inputs.count({st.st_dev, st.st_ino}))
        throw InputError(path, "",
                         "is also an input of this command; refusing to overwrite it "
                         "(name another output file)");
}

void write_output_file(const std::string &path, const std::string &text) {
    write_output_files({{path, text}});
}

void write_output_files(const std::vector<std::pair<std::string, std::string>> &files) {
    if (detail::rank_index() != 0) return; // under MPI, rank 0 writes for the job
    std::vector<Staged> staged;
    try {
        for (const auto &[path, text] : files) {
            if (path == "-") continue;
            for (const auto &s : staged)
                if (s.shown == path || s.target == resolve_links(path))
                    throw InputError(path, "", "is named for two outputs; name two files");
            staged.push_back(stage(path, text));
        }
    } catch (...) {
        discard(staged);
        throw;
    }
    // every output is written; now each takes its place
    for (std::size_t k = 0; k < staged.size(); ++k) {
        const Staged &s = staged[k];
        if (s.tmp.empty()) {
            write_directly(s.shown, s.text);
        } else if (::rename(s.tmp.c_str(), s.target.c_str()) != 0) {
            std::string why = reason();
            discard(std::vector<Staged>(staged.begin() + static_cast<long>(k), staged.end()));
            throw InputError(s.shown, "", "cannot move the output into place: " + why);
        }
    }
    for (const auto &[path, text] : files)
        if (path == "-") {
            std::cout << text << std::flush;
            if (!std::cout) throw InputError("-", "", "cannot write to standard output");
        }
}

void write_output_directory(const std::string &dir_text, const std::string &marker,
                            const std::function<void(const std::string &)> &fill) {
    if (detail::rank_index() != 0) return; // under MPI, rank 0 writes for the job
    fs::path dir = fs::absolute(resolve_links(dir_text)).lexically_normal();
    if (dir.filename().empty()) dir = dir.parent_path();
    std::error_code ec;
    bool exists = fs::exists(dir, ec);
    if (exists) {
        if (!fs::is_directory(dir, ec))
            throw InputError(dir_text, "", "exists and is not a directory");
        if (!fs::is_empty(dir, ec) && !fs::exists(dir / marker, ec))
            throw InputError(dir_text, "",
                             "exists and is not a tempcert report (no " + marker +
                                 "); name a new or empty directory");
    }
    fs::create_directories(dir.parent_path(), ec);
    std::string tmpl = (dir.parent_path() / ("." + dir.filename().string() + ".tmp-XXXXXX"))
                           .string();
    if (!::mkdtemp(tmpl.data()))
        throw InputError(dir_text, "", "cannot create a directory beside the output: " + reason());
    ::chmod(tmpl.c_str(), 0755);
    auto discard = [&](const std::string &p) { fs::remove_all(p, ec); };
    try {
        fill(tmpl);
    } catch (...) {
        discard(tmpl);
        throw;
    }
    if (!exists) {
        if (::rename(tmpl.c_str(), dir.c_str()) != 0) {
            std::string why = reason();
            discard(tmpl);
            throw InputError(dir_text, "", "cannot move the output into place: " + why);
        }
        return;
    }
    // RENAME_EXCHANGE: the old and the new directory trade places at once
    if (::syscall(SYS_renameat2, AT_FDCWD, tmpl.c_str(), AT_FDCWD, dir.c_str(), 2u) != 0) {
        std::string why = reason();
        discard(tmpl);
        throw InputError(dir_text, "", "cannot move the output into place: " + why);
    }
    discard(tmpl); // now the old contents
}

int finish_standard_output(const char *program, int code) {
    std::cout.flush();
    bool ok = !std::cout.fail();
    int err = ok ? 0 : errno;
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        ok = false;
        err = err ? err : errno;
    }
    if (std::fclose(stdout) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (ok) return code;
    std::cerr << program << ": cannot write standard output"
              << (err ? std::string(": ") + std::strerror(err) : std::string()) << "\n";
    return code == kExitOk ? kExitBadInput : code;
}

} // namespace tempcert
