// A failed GMP allocation exits 3 with a message instead
// of GMP's abort. The allocation runs in a child process under a 1 GiB
// address-space limit and asks for 4 GiB of limbs (within GMP's own size
// limit, so GMP itself does not abort first).
#include "tempcert/gmp_memory.hpp"
#include <doctest/doctest.h>

#include <csignal>
#include <cstdio>
#include <gmp.h>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define TEMPCERT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEMPCERT_ASAN 1
#endif
#endif

#ifndef TEMPCERT_ASAN
namespace {

struct ChildResult {
    int status = -1;
    std::string err;
};

// Runs the allocation in a child with stderr captured.
ChildResult allocate_in_child(bool install) {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        ::dup2(fds[1], STDERR_FILENO);
        ::close(fds[0]);
        std::signal(SIGABRT, SIG_DFL); // not the test framework's crash report
        std::FILE *null = std::fopen("/dev/null", "w");
        if (null) ::dup2(::fileno(null), STDOUT_FILENO);
        // installed first: composing the message allocates
        if (install) tempcert::install_gmp_out_of_memory_exit("tempcert-test");
        rlimit lim{1ul << 30, 1ul << 30};
        ::setrlimit(RLIMIT_AS, &lim);
        mpz_t x;
        mpz_init2(x, mp_bitcnt_t(1) << 35); // 2^35 bits = 4 GiB
        mpz_set_ui(x, 1);
        ::_exit(mpz_sgn(x) == 1 ? 0 : 1); // not reached: the allocation fails
    }
    ::close(fds[1]);
    ChildResult r;
    char buf[512];
    for (ssize_t k; (k = ::read(fds[0], buf, sizeof buf)) > 0;)
        r.err.append(buf, static_cast<std::size_t>(k));
    ::close(fds[0]);
    ::waitpid(pid, &r.status, 0);
    return r;
}

} // namespace
#endif

TEST_CASE("a failed GMP allocation exits 3 with a message, not GMP's abort") {
#ifdef TEMPCERT_ASAN
    MESSAGE(
        "skipped under AddressSanitizer (its allocator does not honour the address-space limit)");
#else
    ChildResult with = allocate_in_child(true);
    REQUIRE(WIFEXITED(with.status));
    CHECK(WEXITSTATUS(with.status) == 3);
    CHECK(with.err == "tempcert-test: limit reached: out of memory in exact arithmetic (lower n or "
                      "the limits)\n");
    // without the handler GMP aborts: the test can fail
    ChildResult without = allocate_in_child(false);
    CHECK_FALSE((WIFEXITED(without.status) && WEXITSTATUS(without.status) == 3));
#endif
}
