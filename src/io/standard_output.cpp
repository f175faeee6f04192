// The end of a program: see include/kernel/tempcert/standard_output.hpp.
#include "tempcert/standard_output.hpp"
#include "tempcert/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

namespace tempcert {

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
