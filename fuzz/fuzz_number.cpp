// libFuzzer target with a differential oracle (docs/reliability.md, Numbers): the input
// is put in a JSON array as it is (a bare literal) and as a string; whatever
// the exact readers accept must equal an independent reading of the same
// text by digit accumulation, and a bare integer must never change value
// (the bug: integers in [2^63, 2^64) wrapped to negative numbers).
#include "../src/model/json_source.hpp"
#include "tempcert/error.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace tempcert;

namespace {

std::optional<Rational> naive_plain(const std::string &t);

// The oracle: -?digits(.digits)?([eE][+-]?digits{1,4})? or -?digits/digits
// (docs/model-format.md: exact exponents on integers and decimals),
// accumulated digit by digit; nullopt for anything else.
std::optional<Rational> naive(const std::string &text) {
    std::string t = text;
    long exponent = 0;
    if (auto e = t.find_first_of("eE"); e != std::string::npos) {
        std::size_t i = e + 1;
        bool down = i < t.size() && t[i] == '-';
        if (i < t.size() && (t[i] == '-' || t[i] == '+')) ++i;
        std::size_t digits = 0;
        for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, ++digits)
            exponent = exponent * 10 + (t[i] - '0');
        if (digits == 0 || digits > 4 || i != t.size() || t.find('/') != std::string::npos)
            return std::nullopt;
        if (down) exponent = -exponent;
        t = t.substr(0, e);
    }
    auto mantissa = naive_plain(t);
    if (!mantissa || exponent == 0) return mantissa;
    Integer scale = 1;
    for (long k = 0; k < (exponent < 0 ? -exponent : exponent); ++k)
        scale *= 10;
    return exponent < 0 ? Rational(*mantissa / Rational(scale)) : Rational(*mantissa * scale);
}

std::optional<Rational> naive_plain(const std::string &t) {
    std::size_t i = 0;
    bool negative = i < t.size() && t[i] == '-';
    if (negative) ++i;
    Integer num = 0, den = 1;
    std::size_t digits = 0;
    for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, ++digits)
        num = num * 10 + (t[i] - '0');
    if (digits == 0) return std::nullopt;
    if (i < t.size() && t[i] == '.') {
        std::size_t frac = 0;
        for (++i; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, ++frac) {
            num = num * 10 + (t[i] - '0');
            den *= 10;
        }
        if (frac == 0) return std::nullopt;
    } else if (i < t.size() && t[i] == '/') {
        Integer d = 0;
        std::size_t dd = 0;
        for (++i; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, ++dd)
            d = d * 10 + (t[i] - '0');
        if (dd == 0 || d == 0) return std::nullopt;
        den = d;
    }
    if (i != t.size()) return std::nullopt;
    Rational q(num, den);
    return negative ? Rational(-q) : q;
}

void compare(const std::string &json, const std::string &text, bool bare) {
    OJson doc;
    try {
        doc = parse_json_strict(json, "fuzz");
    } catch (const InputError &) {
        return; // refused: never a wrong value
    }
    if (!doc.is_array() || doc.size() != 1) return;
    Rational got;
    try {
        got = json_rational(doc[0], "fuzz", "$[0]", 100000);
    } catch (const InputError &) {
        return;
    } catch (const LimitError &) {
        return;
    }
    auto want = naive(text);
    // a bare literal is accepted only as an integer, a string as any form
    bool fine = want && *want == got;
    if (bare) fine = fine && text.find_first_of("./eE") == std::string::npos;
    if (!fine) std::abort();
}

} // namespace

// JSON's white space around a bare literal is no part of the number.
std::string trimmed(const std::string &t) {
    const char *ws = " \t\r\n";
    std::size_t a = t.find_first_not_of(ws);
    if (a == std::string::npos) return "";
    return t.substr(a, t.find_last_not_of(ws) - a + 1);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    std::string text(reinterpret_cast<const char *>(data), size);
    if (text.find_first_of("\"\\") != std::string::npos) return 0;
    compare("[" + text + "]", trimmed(text), true);
    compare("[\"" + text + "\"]", text, false);
    return 0;
}
