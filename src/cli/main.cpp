// tempcert command line: install the SIGINT handler and GMP's allocation
// failure handler, then run the command (dispatch.cpp maps errors to exit
// codes).
#include "dispatch.hpp"
#include "tempcert/error.hpp"

#include <csignal>
#include <cstdlib>
#include <gmp.h>
#include <unistd.h>

namespace {

// GMP's (and so MPFR's) allocation: on failure GMP would abort (exit 134);
// here the command says so and exits 3, as for any resource limit (issue
// 13, item 10). Outputs are written only when complete, so none is left.
[[noreturn]] void out_of_memory() {
    static const char kMessage[] =
        "tempcert: limit reached: out of memory in exact arithmetic (lower n or the limits)\n";
    ssize_t ignored = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
    (void)ignored;
    ::_exit(tempcert::kExitUndecided);
}
void *gmp_allocate(std::size_t size) {
    void *p = std::malloc(size);
    if (!p) out_of_memory();
    return p;
}
void *gmp_reallocate(void *old, std::size_t, std::size_t size) {
    void *p = std::realloc(old, size);
    if (!p) out_of_memory();
    return p;
}
void gmp_free(void *p, std::size_t) {
    std::free(p);
}

} // namespace

int main(int argc, char **argv) {
    mp_set_memory_functions(gmp_allocate, gmp_reallocate, gmp_free);
    std::signal(SIGINT, tempcert::cli::on_sigint);
    return tempcert::cli::dispatch(tempcert::cli::Args(argv + 1, argv + argc));
}
