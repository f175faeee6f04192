// Reading JSON files for the loaders: size limit, parse errors with line and
// column, duplicate keys, and the exact-number rule (docs/model-format.md: a JSON number
// with a fraction or exponent is rejected with its line and a hint).
#pragma once

#include "tempcert/limits.hpp"
#include "tempcert/rational.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace tempcert {

using OJson = nlohmann::ordered_json;

// Reads a whole file of any kind (regular, pipe, FIFO, device), never more
// than `max_bytes` (LimitError naming --max-file-bytes), a directory being
// InputError. With `budget`, SIGINT and --time-limit are checked between
// reads, so a FIFO without a writer cannot block the command (read_file.cpp).
std::string read_text_file(const std::string &path, std::size_t max_bytes,
                           const Limits *budget = nullptr);

// Parses JSON text. Throws InputError(file, "line:col", ...) on syntax
// errors, duplicate keys, nesting deeper than 64, or any number literal with
// a fraction or exponent (with a hint to write it as an exact string).
// Integer literals of any size are kept exactly: those beyond 64 bits as a
// binary value holding their digits (is_big_integer, json_integer).
// `budget`: when given, --time-limit and Ctrl-C are polled while parsing.
OJson parse_json_strict(const std::string &text, const std::string &file,
                        const Limits *budget = nullptr);

// A JSON value read as an exact number: an integer, or a string holding an
// integer, fraction or decimal. Throws InputError naming `path`.
Rational json_rational(const OJson &v, const std::string &file, const std::string &path,
                       std::size_t max_chars);

std::string json_type_name(const OJson &v);

// Whether v is an integer literal beyond 64 bits kept by parse_json_strict.
bool is_big_integer(const OJson &v);

// v as an exact integer of any size, or nullopt when v is not an integer
// literal. Every reader of integers goes through this (never get<long long>,
// which wraps unsigned values at or above 2^63).
std::optional<Integer> json_integer(const OJson &v);

} // namespace tempcert
