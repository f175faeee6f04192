// Strict JSON reading shared by the model and certificate loaders; see
// json_source.hpp.
#include "json_source.hpp"
#include "tempcert/error.hpp"

#include <fstream>
#include <set>
#include <sstream>
#include <vector>

namespace tempcert {

namespace {

struct Location {
    std::size_t line = 1, column = 1;
};

Location location_of(const std::string &text, std::size_t offset) {
    Location loc;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++loc.line;
            loc.column = 1;
        } else {
            ++loc.column;
        }
    }
    return loc;
}

std::string place(const Location &l) {
    return "line " + std::to_string(l.line) + ", column " + std::to_string(l.column);
}

// Offset and text of the first number literal with a fraction or exponent
// outside strings, if any.
bool first_float_literal(const std::string &text, std::size_t &offset, std::string &literal) {
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
            continue;
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            std::size_t j = i;
            while (j < text.size() &&
                   std::string_view("0123456789+-.eE").find(text[j]) != std::string_view::npos)
                ++j;
            std::string token = text.substr(i, j - i);
            if (token.find_first_of(".eE") != std::string::npos) {
                offset = i;
                literal = token;
                return true;
            }
            i = j - 1;
        }
    }
    return false;
}

std::string hint_for(const std::string &literal) {
    std::string why;
    // A plain decimal literal can be written as the same text in quotes.
    if (auto q = parse_rational(literal, why))
        return "write it as a string, \"" + literal + "\" (or \"" + to_string(*q) + "\")";
    return "write the exact value as a string, such as \"1/1000\" or \"0.001\"";
}

} // namespace

std::string read_text_file(const std::string &path, std::size_t max_bytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, "", "cannot open file for reading");
    in.seekg(0, std::ios::end);
    auto size = in.tellg();
    if (size < 0) throw InputError(path, "", "cannot read file");
    if (static_cast<std::size_t>(size) > max_bytes)
        throw InputError(path, "",
                         "file has " + std::to_string(size) + " bytes, more than the limit " +
                             std::to_string(max_bytes) + " (--max-file-bytes)");
    in.seekg(0);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

OJson parse_json_strict(const std::string &text, const std::string &file) {
    std::vector<std::set<std::string>> keys;
    std::string duplicate;
    auto callback = [&](int depth, OJson::parse_event_t event, OJson &parsed) {
        if (depth > 64) throw InputError(file, "", "JSON nested more than 64 levels deep");
        switch (event) {
        case OJson::parse_event_t::object_start:
            keys.emplace_back();
            break;
        case OJson::parse_event_t::object_end:
            if (!keys.empty()) keys.pop_back();
            break;
        case OJson::parse_event_t::key:
            if (!keys.empty() && !keys.back().insert(parsed.get<std::string>()).second &&
                duplicate.empty())
                duplicate = parsed.get<std::string>();
            break;
        default:
            break;
        }
        return true;
    };
    OJson doc;
    try {
        doc = OJson::parse(text, callback, /*allow_exceptions=*/true, /*ignore_comments=*/false);
    } catch (const OJson::parse_error &e) {
        Location loc = location_of(text, e.byte > 0 ? e.byte - 1 : 0);
        std::string what = e.what();
        if (auto p = what.find("syntax error"); p != std::string::npos) what = what.substr(p);
        throw InputError(file, place(loc), "invalid JSON: " + what);
    } catch (const OJson::exception &e) {
        // e.g. out_of_range for a number literal like 9e99999999, which
        // carries no position: point at the first fractional/exponent literal.
        std::size_t offset = 0;
        std::string literal;
        if (first_float_literal(text, offset, literal))
            throw InputError(
                file, place(location_of(text, offset)),
                "the JSON number " + literal.substr(0, 40) +
                    " is out of range and not exact: " + hint_for(literal.substr(0, 40)));
        std::string what = e.what();
        if (auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
        throw InputError(file, "", "invalid JSON: " + what);
    }
    if (!duplicate.empty()) {
        auto at = text.find("\"" + duplicate + "\"");
        at = text.find("\"" + duplicate + "\"", at + 1);
        throw InputError(file, place(location_of(text, at == std::string::npos ? 0 : at)),
                         "duplicate key \"" + duplicate + "\"");
    }
    std::size_t offset = 0;
    std::string literal;
    if (first_float_literal(text, offset, literal))
        throw InputError(
            file, place(location_of(text, offset)),
            "the JSON number " + literal +
                " has a fraction or exponent, which tempcert does not round: " + hint_for(literal));
    return doc;
}

std::string json_type_name(const OJson &v) {
    if (v.is_null()) return "null";
    if (v.is_boolean()) return "a boolean";
    if (v.is_number()) return "a number";
    if (v.is_string()) return "a string";
    if (v.is_array()) return "an array";
    return "an object";
}

Rational json_rational(const OJson &v, const std::string &file, const std::string &path,
                       std::size_t max_chars) {
    if (v.is_number_integer()) return Rational(v.get<long long>());
    if (v.is_number_unsigned()) return Rational(Integer(v.get<unsigned long long>()));
    if (v.is_number_float())
        throw InputError(file, path,
                         "JSON number that is not an exact integer of at most 19 digits: write "
                         "it as a string (\"12345678901234567890123\", \"1/3\")");
    if (v.is_string()) {
        if (v.get_ref<const std::string &>().size() > max_chars)
            throw LimitError(
                InputError(file, path,
                           "number of " + std::to_string(v.get_ref<const std::string &>().size()) +
                               " characters, more than the limit " + std::to_string(max_chars) +
                               " (--max-number-chars)")
                    .message());
        std::string why;
        if (auto q = parse_rational(v.get<std::string>(), why, max_chars)) return *q;
        throw InputError(file, path, why);
    }
    throw InputError(file, path,
                     "expected a number (integer, or a string \"p/q\" or \"0.125\"), got " +
                         json_type_name(v));
}

} // namespace tempcert
