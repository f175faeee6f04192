// Reading an input file with a bound on every read, whatever the file is
// (docs/reliability.md, Files and directories written): a regular file, a pipe, a FIFO with no
// writer yet, or a device such as /dev/zero. The file is opened without blocking and read in
// chunks; between chunks the wall-clock budget and SIGINT are checked, so a FIFO nobody writes to
// stops on Ctrl-C or --time-limit, and a stream that never ends is refused once it passes
// --max-file-bytes.
#include "json_source.hpp"
#include "tempcert/error.hpp"
#include "tempcert/limits.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tempcert {

namespace {

struct Fd {
    int fd;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

std::string too_large(std::size_t max_bytes) {
    return "file is larger than the limit of " + std::to_string(max_bytes) +
           " bytes (--max-file-bytes)";
}

} // namespace

std::string read_text_file(const std::string &path, std::size_t max_bytes, const Limits *budget) {
    Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
    if (f.fd < 0)
        throw InputError(path, "",
                         std::string("cannot open file for reading: ") + std::strerror(errno));
    struct stat st {};
    if (::fstat(f.fd, &st) != 0)
        throw InputError(path, "", std::string("cannot read file: ") + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw InputError(path, "", "is a directory, expected a file");
    if (S_ISREG(st.st_mode) && static_cast<unsigned long long>(st.st_size) > max_bytes)
        throw LimitError(InputError(path, "",
                                    "file has " + std::to_string(st.st_size) +
                                        " bytes, more than the limit " + std::to_string(max_bytes) +
                                        " (--max-file-bytes)")
                             .message());
    std::string text;
    char buf[1 << 16];
    for (;;) {
        if (budget) check_budget(*budget);
        pollfd p{f.fd, POLLIN, 0};
        int ready = ::poll(&p, 1, 100);
        if (ready < 0 && errno != EINTR)
            throw InputError(path, "", std::string("cannot read file: ") + std::strerror(errno));
        if (ready <= 0) continue; // nothing yet (a FIFO without a writer): check again
        ssize_t got = ::read(f.fd, buf, sizeof buf);
        if (got < 0) {
            if (errno == EAGAIN || errno == EINTR) continue;
            throw InputError(path, "", std::string("cannot read file: ") + std::strerror(errno));
        }
        if (got == 0) break;
        if (text.size() + static_cast<std::size_t>(got) > max_bytes)
            throw LimitError(InputError(path, "", too_large(max_bytes)).message());
        text.append(buf, static_cast<std::size_t>(got));
    }
    // for refusing it as an output and, under MPI, for comparing the ranks' inputs
    if (budget && budget->run) budget->run->inputs.note(path, st.st_dev, st.st_ino, text);
    return text;
}

} // namespace tempcert
