// Reading JSON files for the loaders: size limit, parse errors with line and
// column, duplicate keys, and the exact-number rule (SPEC 8.1: a JSON number
// with a fraction or exponent is rejected with its line and a hint).
#pragma once

#include "tempcert/limits.hpp"
#include "tempcert/rational.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace tempcert {

using OJson = nlohmann::ordered_json;

// Reads a whole file, refusing one larger than `max_bytes` (InputError).
std::string read_text_file(const std::string &path, std::size_t max_bytes);

// Parses JSON text. Throws InputError(file, "line:col", ...) on syntax
// errors, duplicate keys, nesting deeper than 64, or any floating-point
// number literal (with a hint to write it as an exact string).
OJson parse_json_strict(const std::string &text, const std::string &file);

// A JSON value read as an exact number: an integer, or a string holding an
// integer, fraction or decimal. Throws InputError naming `path`.
Rational json_rational(const OJson &v, const std::string &file, const std::string &path,
                       std::size_t max_chars);

std::string json_type_name(const OJson &v);

} // namespace tempcert
