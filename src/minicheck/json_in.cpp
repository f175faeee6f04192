// Strict JSON input; see json_in.hpp.
#include "json_in.hpp"

#include <fstream>
#include <set>
#include <sstream>
#include <vector>

namespace minicheck {
std::string read_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Failure{2, path, "cannot be opened"};
    std::string out;
    char buf[1 << 16];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        out.append(buf, static_cast<std::size_t>(in.gcount()));
        if (out.size() > kMaxFileBytes)
            throw Failure{3, path, "larger than " + std::to_string(kMaxFileBytes) + " bytes"};
    }
    if (in.bad()) throw Failure{2, path, "cannot be read (a directory?)"};
    return out;
}

Json parse_strict(const std::string &text) {
    std::vector<std::set<std::string>> keys; // one set per open object
    auto check = [&](int depth, Json::parse_event_t event, Json &value) {
        if (depth > 64) malformed("$", "nested more than 64 deep");
        switch (event) {
        case Json::parse_event_t::object_start:
            keys.emplace_back();
            break;
        case Json::parse_event_t::object_end:
            keys.pop_back();
            break;
        case Json::parse_event_t::key:
            if (!keys.back().insert(value.get<std::string>()).second)
                malformed("$", "the key \"" + value.get<std::string>().substr(0, 40) +
                                   "\" appears twice in one object");
            break;
        case Json::parse_event_t::value:
            if (value.is_number_float())
                malformed("$", "a JSON number with a fraction, an exponent or more than 64 bits "
                               "(write it as a string, \"1/10\")");
            break;
        default:
            break;
        }
        return true;
    };
    if (text.find('\0') != std::string::npos) malformed("$", "not JSON: a NUL byte");
    try {
        return Json::parse(text, check);
    } catch (const Json::exception &e) {
        malformed("$", std::string("not JSON: ") + e.what());
    }
}

const Json &at(const Json &obj, const std::string &path, const char *key) {
    require_object(obj, path);
    auto it = obj.find(key);
    if (it == obj.end()) malformed(path + "." + key, "missing");
    return *it;
}

std::string text_at(const Json &obj, const std::string &path, const char *key) {
    const Json &v = at(obj, path, key);
    if (!v.is_string()) malformed(path + "." + key, "expected a string");
    return v.get<std::string>();
}

std::uint64_t count_at(const Json &obj, const std::string &path, const char *key) {
    const Json &v = at(obj, path, key);
    if (!v.is_number_unsigned()) malformed(path + "." + key, "expected a non-negative integer");
    return v.get<std::uint64_t>();
}

void only_keys(const Json &obj, const std::string &path, std::initializer_list<const char *> keys) {
    require_object(obj, path);
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        bool known = false;
        for (const char *k : keys)
            known = known || it.key() == k;
        if (!known) malformed(path + "." + it.key().substr(0, 40), "not a field of the format");
    }
}

void require_object(const Json &v, const std::string &path) {
    if (!v.is_object()) malformed(path, "expected an object");
}

void require_array(const Json &v, const std::string &path) {
    if (!v.is_array()) malformed(path, "expected an array");
}
} // namespace minicheck
