// GMP allocation functions that exit 3 with a message on failure
// (include/kernel/tempcert/gmp_memory.hpp).
#include "tempcert/gmp_memory.hpp"
#include "tempcert/error.hpp"

#include <cstdlib>
#include <cstring>
#include <gmp.h>
#include <unistd.h>

namespace tempcert {

namespace {

// Composed once at installation: on failure nothing may allocate.
char g_message[256];
std::size_t g_length = 0;

[[noreturn]] void out_of_memory() {
    ssize_t ignored = ::write(STDERR_FILENO, g_message, g_length);
    (void)ignored;
    ::_exit(kExitUndecided);
}
void *allocate(std::size_t size) {
    void *p = std::malloc(size);
    if (!p) out_of_memory();
    return p;
}
void *reallocate(void *old, std::size_t, std::size_t size) {
    void *p = std::realloc(old, size);
    if (!p) out_of_memory();
    return p;
}
void release(void *p, std::size_t) {
    std::free(p);
}

} // namespace

void install_gmp_out_of_memory_exit(const std::string &program) {
    std::string m = program.substr(0, 64) +
                    ": limit reached: out of memory in exact arithmetic (lower n or the limits)\n";
    g_length = m.size();
    std::memcpy(g_message, m.data(), g_length);
    mp_set_memory_functions(allocate, reallocate, release);
}

} // namespace tempcert
