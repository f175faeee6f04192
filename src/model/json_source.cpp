// Strict JSON reading shared by the model and certificate loaders; see
// json_source.hpp.
#include "json_source.hpp"
#include "tempcert/error.hpp"

#include <set>
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

// A number literal outside strings: where it starts and its text.
struct NumberToken {
    std::size_t offset;
    std::string text;
    bool integer() const { return text.find_first_of(".eE") == std::string::npos; }
};

// Every number literal outside strings, in document order. The characters
// taken are those a JSON number may contain; the JSON parser judges the
// syntax afterwards.
std::vector<NumberToken> number_tokens(const std::string &text) {
    std::vector<NumberToken> out;
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
            out.push_back({i, text.substr(i, j - i)});
            i = j - 1;
        }
    }
    return out;
}

// The integer a decimal literal denotes, read in base 10 always (Boost's
// string constructor would read a leading 0 as octal).
Integer decimal_integer(const std::string &literal) {
    Integer z;
    mpz_set_str(z.backend().data(), literal.c_str(), 10);
    return z;
}

// Whether the text is a JSON integer literal: -?(0|[1-9][0-9]*).
bool json_integer_syntax(const std::string &t) {
    std::size_t i = t.size() > 0 && t[0] == '-' ? 1 : 0;
    if (i == t.size()) return false;
    if (t[i] == '0') return i + 1 == t.size();
    return t.find_first_not_of("0123456789", i) == std::string::npos;
}

// Whether an integer literal lies beyond [-2^63, 2^64 - 1], the range the
// JSON parser stores exactly; there the parser would round it to a double.
// Anything not an integer literal is left to the parser to reject.
bool beyond_machine_integer(const std::string &literal) {
    if (!json_integer_syntax(literal)) return false;
    std::size_t digits = literal.size() - (literal[0] == '-' ? 1 : 0);
    if (digits < 19) return false;
    if (digits > 20) return true; // 2^64 has 20 digits and a literal no leading zero
    static const Integer lo = -(Integer(1) << 63);
    static const Integer hi = (Integer(1) << 64) - 1;
    Integer v = decimal_integer(literal);
    return v < lo || v > hi;
}

// The subtype marking a binary JSON value as the decimal text of an integer
// beyond 64 bits (the parser has no exact type for it).
constexpr std::uint8_t kBigIntegerSubtype = 0x49;

std::string hint_for(const std::string &literal) {
    std::string why;
    // A plain decimal literal can be written as the same text in quotes.
    if (auto q = parse_rational(literal, why))
        return "write it as a string, \"" + literal + "\" (or \"" + to_string(*q) + "\")";
    return "write the exact value as a string, such as \"1/1000\" or \"0.001\"";
}

// Builds the document as nlohmann's own DOM parser does, and on the way
// refuses nesting past 64 levels, notes the first duplicate key, and puts
// each big integer's exact text where its placeholder double stands. (The
// library's callback parser does the same work but scans a container's
// elements after each one ends: quadratic, minutes for a model with 10^5
// positional features.)
class StrictSax {
  public:
    using Dom = nlohmann::detail::json_sax_dom_parser<OJson>;
    StrictSax(OJson &doc, const std::string &file, const std::vector<std::string> &big,
              const Limits *budget)
        : dom_(doc, true), file_(file), big_(big), budget_(budget) {}

    bool null() { return dom_.null(); }
    bool boolean(bool v) { return dom_.boolean(v); }
    bool number_integer(OJson::number_integer_t v) { return dom_.number_integer(v); }
    bool number_unsigned(OJson::number_unsigned_t v) { return dom_.number_unsigned(v); }
    bool number_float(OJson::number_float_t v, const OJson::string_t &s) {
        // the only doubles left are the placeholders, met in document order
        if (next_big_ < big_.size()) {
            const std::string &digits = big_[next_big_++];
            OJson::binary_t bin(std::vector<std::uint8_t>(digits.begin(), digits.end()),
                                kBigIntegerSubtype);
            return dom_.binary(bin);
        }
        return dom_.number_float(v, s);
    }
    bool string(OJson::string_t &v) {
        poll();
        return dom_.string(v);
    }
    bool binary(OJson::binary_t &v) { return dom_.binary(v); }
    bool start_object(std::size_t n) {
        poll();
        enter();
        keys_.emplace_back();
        return dom_.start_object(n);
    }
    bool key(OJson::string_t &k) {
        if (!keys_.back().insert(k).second && duplicate_.empty()) duplicate_ = k;
        return dom_.key(k);
    }
    bool end_object() {
        keys_.pop_back();
        --depth_;
        return dom_.end_object();
    }
    bool start_array(std::size_t n) {
        enter();
        return dom_.start_array(n);
    }
    bool end_array() {
        --depth_;
        return dom_.end_array();
    }
    template <class Exception>
    bool parse_error(std::size_t position, const std::string &token, const Exception &e) {
        return dom_.parse_error(position, token, e);
    }
    const std::string &duplicate() const { return duplicate_; }

  private:
    Dom dom_;
    const std::string &file_;
    const std::vector<std::string> &big_;
    std::size_t next_big_ = 0, depth_ = 0;
    std::vector<std::set<std::string>> keys_;
    std::string duplicate_;
    const Limits *budget_;
    std::size_t events_ = 0;

    // --time-limit and Ctrl-C every 4096 objects and strings: a 20 MB model
    // takes a second or more to parse (docs/reliability.md)
    void poll() {
        if (budget_ && ++events_ % 4096 == 0) check_budget(*budget_);
    }

    void enter() {
        if (++depth_ > 64) throw InputError(file_, "", "JSON nested more than 64 levels deep");
    }
};

} // namespace

OJson parse_json_strict(const std::string &text_in, const std::string &file, const Limits *budget) {
    // Number literals first: one with a fraction or exponent is refused
    // (never rounded); an integer beyond 64 bits is kept as its exact text
    // and blanked out for the parser, which would round it to a double.
    // A NUL byte ends the text for some readers and not for others: refused
    // wherever it stands (a trailing one was accepted, docs/reliability.md, Numbers).
    if (auto nul = text_in.find('\0'); nul != std::string::npos)
        throw InputError(file, place(location_of(text_in, nul)), "a NUL byte; a JSON file is text");
    std::string text = text_in;
    std::vector<std::string> big_integers;
    for (const auto &t : number_tokens(text_in)) {
        if (!t.integer() && json_integer_syntax(t.text.substr(0, t.text.find_first_of(".eE"))))
            throw InputError(file, place(location_of(text_in, t.offset)),
                             "the JSON number " + t.text.substr(0, 40) +
                                 " has a fraction or exponent, which tempcert does not round: " +
                                 hint_for(t.text.substr(0, 40)));
        if (!beyond_machine_integer(t.text)) continue;
        big_integers.push_back(t.text);
        // "0.0" then spaces: a placeholder of the same length, so that
        // line:column positions of later errors stay those of the file
        text.replace(t.offset, t.text.size(), "0.0" + std::string(t.text.size() - 3, ' '));
    }
    OJson doc;
    StrictSax sax(doc, file, big_integers, budget);
    try {
        OJson::sax_parse(text, &sax, OJson::input_format_t::json, /*strict=*/true,
                         /*ignore_comments=*/false);
    } catch (const OJson::parse_error &e) {
        Location loc = location_of(text, e.byte > 0 ? e.byte - 1 : 0);
        std::string what = e.what();
        if (auto p = what.find("syntax error"); p != std::string::npos) what = what.substr(p);
        throw InputError(file, place(loc), "invalid JSON: " + what);
    } catch (const OJson::exception &e) {
        std::string what = e.what();
        if (auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
        throw InputError(file, "", "invalid JSON: " + what);
    }
    const std::string &duplicate = sax.duplicate();
    if (!duplicate.empty()) {
        auto at = text.find("\"" + duplicate + "\"");
        at = text.find("\"" + duplicate + "\"", at + 1);
        throw InputError(file, place(location_of(text, at == std::string::npos ? 0 : at)),
                         "duplicate key \"" + duplicate + "\"");
    }
    return doc;
}

std::string json_type_name(const OJson &v) {
    if (v.is_null()) return "null";
    if (v.is_boolean()) return "a boolean";
    if (v.is_number() || is_big_integer(v)) return "a number";
    if (v.is_string()) return "a string";
    if (v.is_array()) return "an array";
    if (v.is_binary()) return "binary data";
    return "an object";
}

bool is_big_integer(const OJson &v) {
    return v.is_binary() && v.get_binary().has_subtype() &&
           v.get_binary().subtype() == kBigIntegerSubtype;
}

std::optional<Integer> json_integer(const OJson &v) {
    // unsigned first: is_number_integer() is true for unsigned values too,
    // and reading one at or above 2^63 as long long wraps it (docs/reliability.md, Numbers)
    if (v.is_number_unsigned()) return Integer(v.get<std::uint64_t>());
    if (v.is_number_integer()) return Integer(v.get<std::int64_t>());
    if (is_big_integer(v)) {
        const auto &bytes = v.get_binary();
        return decimal_integer(std::string(bytes.begin(), bytes.end()));
    }
    return std::nullopt;
}

Rational json_rational(const OJson &v, const std::string &file, const std::string &path,
                       std::size_t max_chars) {
    if (is_big_integer(v) && v.get_binary().size() > max_chars)
        throw LimitError(InputError(file, path,
                                    "number of " + std::to_string(v.get_binary().size()) +
                                        " digits, more than the limit " +
                                        std::to_string(max_chars) + " (--max-number-chars)")
                             .message());
    if (auto i = json_integer(v)) return Rational(*i);
    if (v.is_string()) {
        if (v.get_ref<const std::string &>().size() > max_chars)
            throw LimitError(
                InputError(file, path,
                           "number of " + std::to_string(v.get_ref<const std::string &>().size()) +
                               " characters, more than the limit " + std::to_string(max_chars) +
                               " (--max-number-chars)")
                    .message());
        std::string why;
        // exact, exponents included ("1e-3" is 1/1000; docs/model-format.md)
        if (auto q = parse_rational_scientific(v.get<std::string>(), why, max_chars)) return *q;
        throw InputError(file, path, why);
    }
    throw InputError(file, path,
                     "expected a number (integer, or a string \"p/q\" or \"0.125\"), got " +
                         json_type_name(v));
}

} // namespace tempcert
