// Helper programs through posix_spawn with an argument vector: see
// include/engine/tempcert/run_program.hpp.
#include "tempcert/run_program.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace tempcert {

namespace {

// argv as posix_spawn takes it: pointers into the strings, then nullptr.
std::vector<char *> argument_vector(const std::vector<std::string> &argv) {
    std::vector<char *> args;
    for (const auto &a : argv)
        args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    return args;
}

// Starts the program with `actions`; -1 when it cannot be started.
pid_t spawn(const std::vector<std::string> &argv, posix_spawn_file_actions_t &actions) {
    std::vector<char *> args = argument_vector(argv);
    pid_t pid = 0;
    int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    return rc == 0 ? pid : -1;
}

// Waits for the program to end; its exit status, -1 when a signal ended it.
int reap(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

int run_program(const std::vector<std::string> &argv, const std::string &output_path,
                const std::string &cwd) {
    if (argv.empty()) return -1;
    const char *out = output_path.empty() ? "/dev/null" : output_path.c_str();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out, O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
    pid_t pid = spawn(argv, actions);
    return pid < 0 ? -1 : reap(pid);
}

ProgramRun run_program_captured(const std::vector<std::string> &argv, const Limits &limits,
                                std::size_t max_output) {
    ProgramRun r;
    int fds[2];
    if (argv.empty() || pipe2(fds, O_CLOEXEC) != 0) return r;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
    pid_t pid = spawn(argv, actions);
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return r;
    }
    r.started = true;
    try {
        for (;;) { // until the pipe's end: every writer (the program) is gone
            check_budget(limits);
            pollfd p{fds[0], POLLIN, 0};
            if (poll(&p, 1, 20) <= 0) continue; // timeout, or EINTR from a signal
            char buf[4096];
            ssize_t got = read(fds[0], buf, sizeof buf);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) break;
            const std::size_t room = max_output - std::min(max_output, r.output.size());
            r.output.append(buf, std::min(room, static_cast<std::size_t>(got)));
            r.output_cut = r.output_cut || static_cast<std::size_t>(got) > room;
        }
    } catch (...) {
        kill(pid, SIGKILL);
        reap(pid);
        close(fds[0]);
        throw;
    }
    close(fds[0]);
    r.exit_code = reap(pid);
    return r;
}

} // namespace tempcert
