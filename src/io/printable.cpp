// Escaping text for people: see include/kernel/tempcert/printable.hpp.
#include "tempcert/printable.hpp"

#include <cstdint>
#include <cstdio>

namespace tempcert {

namespace {

// The code point of the UTF-8 sequence at s[i] and its length, or length 0
// when the bytes there are not well-formed UTF-8 (overlong forms,
// surrogates and values past U+10FFFF included).
std::pair<std::uint32_t, std::size_t> decode(std::string_view s, std::size_t i) {
    auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char b = byte(i);
    if (b < 0x80) return {b, 1};
    std::size_t len = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0;
    if (len == 0 || b > 0xF4 || i + len > s.size()) return {0, 0};
    std::uint32_t cp = b & (0x3F >> (len - 1));
    for (std::size_t k = 1; k < len; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return {0, 0};
        cp = (cp << 6) | (byte(i + k) & 0x3F);
    }
    static const std::uint32_t kLeast[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kLeast[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {0, 0};
    return {cp, len};
}

bool acts(std::uint32_t cp, bool keep_newlines) {
    if (cp == '\n') return !keep_newlines;
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C || cp == 0x200E ||
           cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
           (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
}

std::string hex(const char *format, unsigned value) {
    char buf[16];
    std::snprintf(buf, sizeof buf, format, value);
    return buf;
}

} // namespace

std::string printable(std::string_view text, bool keep_newlines) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        auto [cp, len] = decode(text, i);
        if (len == 0) {
            out += hex("\\x%02x", static_cast<unsigned char>(text[i]));
            ++i;
            continue;
        }
        if (!acts(cp, keep_newlines))
            out.append(text.substr(i, len));
        else
            out += cp < 0x80 ? hex("\\x%02x", cp) : hex("\\u%04X", cp);
        i += len;
    }
    return out;
}

bool is_printable(std::string_view text) {
    return printable(text) == text;
}

} // namespace tempcert
