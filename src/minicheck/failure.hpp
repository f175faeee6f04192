// How the small checker stops: one exception type carrying the exit code
// (1: a claim does not hold, 2: bad input, 3: outside what this checker
// verifies or over a limit) and one message naming the place.
#pragma once

#include <string>

namespace minicheck {
struct Failure {
    int code;
    std::string file; // empty: the file being read when it was thrown
    std::string what; // "JSON path: what was expected or found"
};

[[noreturn]] inline void rejected(const std::string &path, const std::string &what) {
    throw Failure{1, "", path + ": " + what};
}
[[noreturn]] inline void malformed(const std::string &path, const std::string &what) {
    throw Failure{2, "", path + ": " + what};
}
[[noreturn]] inline void unsupported(const std::string &path, const std::string &what) {
    throw Failure{3, "", path + ": " + what};
}
} // namespace minicheck
