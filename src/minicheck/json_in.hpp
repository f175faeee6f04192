// Strict JSON input for the small checker: a bounded file read, a parse
// that refuses duplicate keys, non-integer JSON numbers and deep nesting,
// and field readers that name the JSON path of whatever is wrong.
#pragma once

#include "failure.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <string>

namespace minicheck {
using Json = nlohmann::ordered_json;

constexpr std::size_t kMaxFileBytes = 64u << 20;

// The file's bytes; a Failure naming it, exit 2 if unreadable, 3 if over
// kMaxFileBytes.
std::string read_file(const std::string &path);
Json parse_strict(const std::string &text);

const Json &at(const Json &obj, const std::string &path, const char *key);
std::string text_at(const Json &obj, const std::string &path, const char *key);
std::uint64_t count_at(const Json &obj, const std::string &path, const char *key);
void only_keys(const Json &obj, const std::string &path, std::initializer_list<const char *> keys);
void require_object(const Json &v, const std::string &path);
void require_array(const Json &v, const std::string &path);
} // namespace minicheck
