// Shared helpers for the unit tests.
#pragma once

#include "tempcert/expr.hpp"
#include "tempcert/model.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace tempcert::test {

// An expression's value at (j, n).
inline Real at(const char *text, long j, long n, Prec p = 128) {
    return Expr::parse(text).eval(Rational(j), Rational(n), p);
}

// The whole text of a file (empty when it cannot be read).
inline std::string slurp(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline std::string case_path(const std::string &name) {
    return std::string(TEMPCERT_TEST_DIR) + "/../cases/models/" + name + ".json";
}

inline Model load_case(const std::string &name) {
    return load_model_file(case_path(name), Limits{});
}

// Under sanitizers (about 10x slower) the heaviest tests use shorter words:
// the sanitizer run looks for memory and undefined-behaviour errors, the
// normal run for the full samples.
inline bool reduced() {
    return std::getenv("TEMPCERT_SANITIZED") != nullptr;
}

// The long tier (ctest unit_long, label long; docs/testing.md) sets
// TEMPCERT_LONG: the few tests whose full samples take minutes run them
// there, and a regression-sized sample in the default tier.
inline bool long_tier() {
    return std::getenv("TEMPCERT_LONG") != nullptr && !reduced();
}

inline Rational q(const char *text) {
    std::string why;
    return *parse_rational(text, why);
}

} // namespace tempcert::test
