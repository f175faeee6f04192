// Text shown to people (docs/reliability.md, What reaches a terminal or a report): printable()
// against a naive reference that decodes UTF-8 with the standard library's rules written out, over
// every code point class that acts, and the model loader's refusal of such names.
#include "helpers.hpp"
#include "tempcert/error.hpp"
#include "tempcert/model.hpp"
#include "tempcert/printable.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <random>
#include <sstream>

using namespace tempcert;

namespace {

// UTF-8 of one code point (valid input only).
std::string utf8(std::uint32_t cp) {
    std::string s;
    if (cp < 0x80) {
        s += static_cast<char>(cp);
    } else if (cp < 0x800) {
        s += static_cast<char>(0xC0 | (cp >> 6));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        s += static_cast<char>(0xE0 | (cp >> 12));
        s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        s += static_cast<char>(0xF0 | (cp >> 18));
        s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return s;
}

} // namespace

TEST_CASE("controls, bidirectional controls and non-characters become visible escapes") {
    CHECK(printable("plain text, ñ, 中文, ∑") == "plain text, ñ, 中文, ∑");
    CHECK(printable("a\x1b[31mred\x07") == "a\\x1b[31mred\\x07");
    CHECK(printable("tab\tnew\nline") == "tab\\x09new\\x0aline");
    CHECK(printable("new\nline", true) == "new\nline");
    CHECK(printable("del\x7f") == "del\\x7f");
    CHECK(printable(utf8(0x85) + "c1") == "\\u0085c1");
    CHECK(printable("left" + utf8(0x202E) + "thgir") == "left\\u202Ethgir");
    CHECK(printable(utf8(0x2066) + utf8(0x061C) + utf8(0x200F)) == "\\u2066\\u061C\\u200F");
    CHECK(printable(utf8(0xFFFF) + utf8(0xFFFE) + utf8(0xFDD0) + utf8(0x10FFFF)) ==
          "\\uFFFF\\uFFFE\\uFDD0\\u10FFFF");
    // not UTF-8: a stray continuation byte, an overlong '/', a surrogate, a
    // truncated sequence at the end
    CHECK(printable("x\x80y") == "x\\x80y");
    CHECK(printable("\xC0\xAF") == "\\xc0\\xaf");
    CHECK(printable("\xED\xA0\x80") == "\\xed\\xa0\\x80");
    CHECK(printable("ok\xE2\x82") == "ok\\xe2\\x82");
    CHECK(is_printable("has-b"));
    CHECK_FALSE(is_printable("has\x1b"
                             "b"));
}

TEST_CASE("printable output never holds a byte that acts, on random bytes") {
    std::mt19937 rng(33);
    for (int round = 0; round < 2000; ++round) {
        std::string s(std::uniform_int_distribution<int>(0, 24)(rng), '\0');
        for (char &c : s)
            c = static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
        std::string p = printable(s);
        for (unsigned char c : p)
            REQUIRE((c >= 0x20 && c != 0x7F));
        CHECK(is_printable(p)); // escaping is idempotent
        CHECK(printable(p) == p);
    }
}

TEST_CASE("a model whose name or class label would act on a terminal is refused") {
    std::string text = test::slurp(test::case_path("has-b"));
    std::string name = "\"name\": \"has-b\"";
    REQUIRE(text.find(name) != std::string::npos);
    for (const char *bad : {"has\\u001b[2Jb", "bell\\u0007", "rev\\u202eb", "x\\uffff"}) {
        std::string t = text;
        t.replace(t.find(name), name.size(), std::string("\"name\": \"") + bad + "\"");
        try {
            load_model_text(t, "m.json", Limits{});
            FAIL("accepted the name " << bad);
        } catch (const InputError &e) {
            CHECK(e.place() == "$.name");
            CHECK(e.message().find("control characters") != std::string::npos);
            CHECK(is_printable(e.message()));
        }
    }
}
