// Output files and directories: see include/engine/tempcert/output.hpp.
#include "tempcert/output.hpp"
#include "../distributed/ranks.hpp"
#include "tempcert/error.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>
#include <utility>

namespace tempcert {

namespace {

namespace fs = std::filesystem;

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

// The descriptor a path names without naming a file: /dev/stdout,
// /dev/stderr, /dev/fd/N, /proc/self/fd/N. Such an output is written into
// the descriptor the caller opened (so `-o /dev/stdout >> log` appends),
// never resolved to the file behind it and replaced.
std::optional<int> descriptor_of(const std::string &path) {
    if (path == "/dev/stdout") return 1;
    if (path == "/dev/stderr") return 2;
    for (const char *prefix : {"/dev/fd/", "/proc/self/fd/"}) {
        std::string pre = prefix;
        if (path.compare(0, pre.size(), pre) != 0 || path.size() == pre.size() ||
            path.size() > pre.size() + 6)
            continue;
        int fd = 0;
        for (std::size_t i = pre.size(); i < path.size(); ++i) {
            if (!std::isdigit(static_cast<unsigned char>(path[i]))) return std::nullopt;
            fd = fd * 10 + (path[i] - '0');
        }
        return fd;
    }
    return std::nullopt;
}

// While a command has claimed standard output (claim_standard_output): a
// stream onto the real standard output, and std::cout's own buffer, which
// release_standard_output gives back.
std::unique_ptr<std::ostream> g_results_stream;
std::streambuf *g_saved_cout = nullptr;

void write_to_descriptor(const std::string &path, int fd, const std::string &text) {
    if (fd == 1 && g_results_stream) {
        *g_results_stream << text << std::flush;
        if (!*g_results_stream) throw InputError(path, "", "cannot write to standard output");
        return;
    }
    if (fd == 1) std::cout.flush(); // what was printed before comes first
    if (!write_all(fd, text)) throw InputError(path, "", "cannot write the output: " + reason());
}

// Opens a device or FIFO for writing. A FIFO with no reader makes a
// blocking open() wait forever, so it is opened without blocking and tried
// again every 20 ms (ENXIO: no reader yet), checking the run's budget
// (Ctrl-C, --time-limit) between tries.
int open_for_writing(const std::string &path, const Limits *budget) {
    for (;;) {
        int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd >= 0) {
            ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
            return fd;
        }
        if (errno != ENXIO && errno != EINTR)
            throw InputError(path, "", "cannot open the output for writing: " + reason());
        if (budget) check_budget(*budget);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

void write_directly(const std::string &path, const std::string &text, const Limits *budget) {
    int fd = open_for_writing(path, budget);
    bool ok = write_all(fd, text);
    std::string why = ok ? "" : reason();
    ::close(fd);
    if (!ok) throw InputError(path, "", "cannot write the output: " + why);
}

// An output written to its temporary file, not yet in place.
struct Staged {
    std::string shown; // the path as the user gave it
    fs::path target;   // where it goes (symlinks followed)
    std::string tmp;   // the temporary file; empty for a device, FIFO or descriptor
    std::string text;  // for a device, FIFO or descriptor: written at commit
    int fd = -1;       // for a descriptor path (descriptor_of)
};

// The mode an output gets: an existing file's own (a 0600 file stays
// 0600), else the usual 0666 less the umask (mkstemp makes files 0600).
mode_t current_umask() {
    mode_t mask = ::umask(0);
    ::umask(mask);
    return mask;
}

mode_t output_mode(const struct stat *existing) {
    if (existing) return existing->st_mode & 07777;
    return 0666 & ~current_umask();
}

// The inputs of the budget's run (none in library use without a run).
const InputRegistry *inputs_of(const Limits *budget) {
    return budget && budget->run ? &budget->run->inputs : nullptr;
}

Staged stage(const std::string &path, const std::string &text, const InputRegistry *inputs) {
    if (path.empty()) throw InputError("", "-o", "expected an output file name");
    if (auto fd = descriptor_of(path)) {
        Staged st{path, path, "", text, *fd};
        return st;
    }
    if (inputs) inputs->refuse_as_output(path);
    Staged st{path, resolve_links(path), "", "", -1};
    struct stat info {};
    bool exists = ::stat(st.target.c_str(), &info) == 0;
    if (exists) {
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
    if (ok) ::fchmod(fd, output_mode(exists ? &info : nullptr));
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

bool names_standard_output(const std::string &path) {
    return path == "-" || descriptor_of(path) == 1;
}

void claim_standard_output() {
    if (g_results_stream) return;
    // the results keep the real standard output; everything else printed
    // through std::cout (the human summary) goes to standard error
    g_saved_cout = std::cout.rdbuf();
    g_results_stream = std::make_unique<std::ostream>(g_saved_cout);
    std::cout.rdbuf(std::cerr.rdbuf());
}

void release_standard_output() {
    if (!g_results_stream) return;
    g_results_stream->flush();
    std::cout.rdbuf(g_saved_cout);
    g_results_stream.reset();
}

void write_output_file(const std::string &path, const std::string &text, const Limits *budget) {
    write_output_files({{path, text}}, budget);
}

void write_output_files(const std::vector<std::pair<std::string, std::string>> &files,
                        const Limits *budget) {
    if (detail::rank_index() != 0) return; // under MPI, rank 0 writes for the job
    std::vector<Staged> staged;
    try {
        for (const auto &[path, text] : files) {
            Staged next = path == "-" ? Staged{path, path, "", text, 1}
                                      : stage(path, text, inputs_of(budget));
            for (const auto &s : staged)
                if (s.shown == path || s.target == next.target || (s.fd >= 0 && s.fd == next.fd)) {
                    if (!next.tmp.empty()) ::unlink(next.tmp.c_str());
                    throw InputError(path, "", "is named for two outputs; name two files");
                }
            staged.push_back(std::move(next));
        }
    } catch (...) {
        discard(staged);
        throw;
    }
    // Every file is staged. What cannot be taken back (a device, a FIFO, a
    // descriptor) is written first: if it fails, no file has been replaced.
    try {
        for (const Staged &s : staged)
            if (s.fd >= 0)
                write_to_descriptor(s.shown, s.fd, s.text);
            else if (s.tmp.empty())
                write_directly(s.shown, s.text, budget);
    } catch (...) {
        discard(staged);
        throw;
    }
    for (std::size_t k = 0; k < staged.size(); ++k) {
        const Staged &s = staged[k];
        if (!s.tmp.empty() && ::rename(s.tmp.c_str(), s.target.c_str()) != 0) {
            std::string why = reason();
            discard(std::vector<Staged>(staged.begin() + static_cast<long>(k), staged.end()));
            throw InputError(s.shown, "", "cannot move the output into place: " + why);
        }
    }
}

namespace {

// A directory tempcert owns carries kDirectoryMarker, naming the format, the
// tool and every file tempcert wrote there; those files, and no others, are
// tempcert's to replace or remove.
struct DirectoryMarker {
    std::set<std::string> files;
};

bool plain_file_name(const std::string &name) {
    return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
           name.find('\0') == std::string::npos && name != kDirectoryMarker;
}

// The marker of `dir`, nullopt when it has none. A marker tempcert cannot
// have written (another format, malformed, names outside the directory) is
// refused: its directory is then not one tempcert may touch.
std::optional<DirectoryMarker> read_marker(const std::string &shown, const fs::path &dir,
                                           const std::string &format) {
    const fs::path path = dir / kDirectoryMarker;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return std::nullopt;
    auto refuse = [&](const std::string &why) {
        return InputError(shown, "",
                          "holds " + std::string(kDirectoryMarker) + " that " + why +
                              "; name another directory");
    };
    if (!S_ISREG(st.st_mode) || st.st_size > (1 << 20))
        throw refuse("is not a regular file of at most 1 MiB");
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (!doc.is_object() || !doc.contains("format") || doc["format"] != format ||
        !doc.contains("files") || !doc["files"].is_array())
        throw refuse("tempcert did not write (expected \"format\": \"" + format + "\")");
    DirectoryMarker m;
    for (const auto &f : doc["files"]) {
        if (!f.is_string() || !plain_file_name(f.get<std::string>()))
            throw refuse("lists a file outside the directory");
        m.files.insert(f.get<std::string>());
    }
    return m;
}

bool is_empty_directory(const fs::path &dir) {
    std::error_code ec;
    return fs::is_empty(dir, ec) && !ec;
}

// The marker of an existing directory tempcert may write into; none for an
// empty one. A non-empty directory without a marker is refused.
std::optional<DirectoryMarker> owned_marker(const std::string &shown, const fs::path &dir,
                                            const std::string &format) {
    std::optional<DirectoryMarker> marker = read_marker(shown, dir, format);
    if (!marker && !is_empty_directory(dir))
        throw InputError(shown, "",
                         "is not empty and not a directory tempcert wrote (it has no " +
                             std::string(kDirectoryMarker) + "); name a new or empty directory");
    return marker;
}

// Refuses a directory tempcert may not write into: the current directory
// or one containing it, one containing an input of this command, a file,
// a non-empty directory without the marker.
void check_directory(const std::string &shown, const fs::path &dir, const std::string &format,
                     const InputRegistry *inputs) {
    std::error_code ec;
    const fs::path cwd = fs::weakly_canonical(fs::current_path(ec), ec);
    auto within = [](const fs::path &inner, const fs::path &outer) {
        auto [o, i] = std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end());
        return o == outer.end();
    };
    if (!ec && within(cwd, dir))
        throw InputError(shown, "",
                         "is the current directory or contains it; name a directory for the "
                         "output below it");
    for (const auto &input : inputs ? inputs->paths() : std::vector<fs::path>{})
        if (within(input, dir))
            throw InputError(shown, "",
                             "contains " + input.string() +
                                 ", an input of this command; name another directory");
    struct stat st {};
    if (::lstat(dir.c_str(), &st) != 0) return; // a new directory
    if (!S_ISDIR(st.st_mode)) throw InputError(shown, "", "exists and is not a directory");
    owned_marker(shown, dir, format);
}

fs::path output_directory_path(const std::string &shown) {
    if (shown.empty()) throw InputError("", "--out", "expected a directory name");
    std::error_code ec;
    fs::path dir = fs::weakly_canonical(fs::absolute(shown, ec), ec);
    if (ec) throw InputError(shown, "", "cannot resolve the directory: " + ec.message());
    if (dir.filename().empty()) dir = dir.parent_path();
    return dir;
}

// Holds an exclusive lock on a directory (flock), so that two commands
// writing one directory take turns: the last to finish wins, whole.
class DirectoryLock {
  public:
    DirectoryLock(const std::string &shown, const fs::path &dir) {
        fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd_ < 0) throw InputError(shown, "", "cannot open the directory: " + reason());
        // another tempcert holds it for a few renames; wait at most 2 s
        for (int tries = 0; ::flock(fd_, LOCK_EX | LOCK_NB) != 0; ++tries) {
            if (errno != EWOULDBLOCK || tries == 200) {
                ::close(fd_);
                throw InputError(shown, "",
                                 "cannot lock the directory: another command is "
                                 "writing it");
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
    ~DirectoryLock() { ::close(fd_); }
    DirectoryLock(const DirectoryLock &) = delete;
    DirectoryLock &operator=(const DirectoryLock &) = delete;

  private:
    int fd_ = -1;
};

// Moves the files of `staged` (a filled directory beside `dir`) into the
// existing `dir`, replacing only files the old marker lists and removing
// those of them the new one does not; the marker moves last.
void replace_owned_files(const std::string &shown, const fs::path &dir, const fs::path &staged,
                         const std::vector<std::string> &names, const std::string &format) {
    DirectoryLock lock(shown, dir);
    // read again under the lock: another command may have written it since
    std::optional<DirectoryMarker> old = owned_marker(shown, dir, format);
    const std::set<std::string> mine = old ? old->files : std::set<std::string>{};
    for (const auto &name : names) {
        struct stat st {};
        if (::lstat((dir / name).c_str(), &st) != 0) continue;
        if (!mine.count(name) || S_ISDIR(st.st_mode))
            throw InputError(shown, "",
                             "holds " + name +
                                 ", which tempcert did not write; move it or "
                                 "name another directory");
        ::chmod((staged / name).c_str(), st.st_mode & 07777); // keep the user's mode
    }
    for (const auto &name : names)
        if (::rename((staged / name).c_str(), (dir / name).c_str()) != 0)
            throw InputError(shown, "", "cannot move " + name + " into place: " + reason());
    if (::rename((staged / kDirectoryMarker).c_str(), (dir / kDirectoryMarker).c_str()) != 0)
        throw InputError(shown, "", "cannot move the marker into place: " + reason());
    for (const auto &name : mine) {
        struct stat st {};
        if (std::find(names.begin(), names.end(), name) == names.end() &&
            ::lstat((dir / name).c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
            ::unlink((dir / name).c_str()); // an output of the earlier run, no longer made
    }
}

} // namespace

void check_output_directory(const std::string &shown, const std::string &format,
                            const Limits *budget) {
    check_directory(shown, output_directory_path(shown), format, inputs_of(budget));
}

void write_output_directory(const std::string &shown, const std::string &format,
                            const std::function<void(const std::string &)> &fill,
                            const Limits *budget) {
    if (detail::rank_index() != 0) return; // under MPI, rank 0 writes for the job
    const fs::path dir = output_directory_path(shown);
    check_directory(shown, dir, format, inputs_of(budget));
    std::error_code ec;
    fs::create_directories(dir.parent_path(), ec);
    std::string tmpl =
        (dir.parent_path() / ("." + dir.filename().string() + ".tmp-XXXXXX")).string();
    if (!::mkdtemp(tmpl.data()))
        throw InputError(shown, "", "cannot create a directory beside the output: " + reason());
    // mkdtemp makes it 0700; a directory needs its search bits (0777, not
    // a file's 0666, less the umask: without them its owner could not
    // write into it)
    ::chmod(tmpl.c_str(), 0777 & ~current_umask());
    try {
        fill(tmpl);
        std::vector<std::string> names;
        for (const auto &entry : fs::directory_iterator(tmpl)) {
            if (!entry.is_regular_file() || !plain_file_name(entry.path().filename().string()))
                throw std::logic_error("an output directory may hold only plain files: " +
                                       entry.path().string());
            names.push_back(entry.path().filename().string());
        }
        std::sort(names.begin(), names.end());
        nlohmann::json marker = {{"format", format},
                                 {"tool", std::string("tempcert ") + TEMPCERT_VERSION},
                                 {"files", names}};
        std::ofstream(fs::path(tmpl) / kDirectoryMarker) << marker.dump(2) << "\n";
        // a new directory appears whole, in one rename; one that exists by
        // now (made by the user, or by a concurrent tempcert) is written into
        if (::rename(tmpl.c_str(), dir.c_str()) == 0) return;
        if (errno != ENOTEMPTY && errno != EEXIST)
            throw InputError(shown, "", "cannot move the output into place: " + reason());
        replace_owned_files(shown, dir, tmpl, names, format);
    } catch (...) {
        fs::remove_all(tmpl, ec);
        throw;
    }
    fs::remove_all(tmpl, ec);
}

} // namespace tempcert
