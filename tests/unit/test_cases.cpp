// Bundled cases: each case's hard model computes the language its manifest
// names, on every word up to length 8, and the listed words agree with it.
#include "helpers.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/enumerate.hpp"
#include "tempcert/eval.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <fstream>

using namespace tempcert;
using namespace tempcert::test;

namespace {

// Reference rules, written directly on the word (0 = a, 1 = b).
bool rule(const std::string &name, const Word &w) {
    std::size_t n = w.size();
    if (name == "contains:b") return std::find(w.begin(), w.end(), 1) != w.end();
    if (name == "second-last:a") return n >= 2 && w[n - 2] == 0;
    if (name == "first:a") return w[0] == 0;
    if (name == "b-before-last") return std::find(w.begin(), w.end() - 1, 1) != w.end() - 1;
    if (name == "last-cd:d") { // 2 = c, 3 = d
        for (std::size_t i = n; i-- > 0;)
            if (w[i] >= 2) return w[i] == 3;
        return false;
    }
    if (name == "prev-a-earlier-b") {
        if (n < 2 || w[n - 2] != 0) return false;
        return std::find(w.begin(), w.end() - 1, 1) != w.end() - 1;
    }
    if (name == "every-a-after-b") {
        for (std::size_t i = 0; i < n; ++i)
            if (w[i] == 0 && (i == 0 || w[i - 1] != 1)) return false;
        return true;
    }
    if (name == "contains:abb") {
        for (std::size_t i = 0; i + 2 < n; ++i)
            if (w[i] == 0 && w[i + 1] == 1 && w[i + 2] == 1) return true;
        return false;
    }
    if (name == "contains:ab") {
        for (std::size_t i = 0; i + 1 < n; ++i)
            if (w[i] == 0 && w[i + 1] == 1) return true;
        return false;
    }
    FAIL("unknown rule " << name);
    return false;
}

nlohmann::json manifest() {
    std::ifstream in(std::string(TEMPCERT_TEST_DIR) + "/../cases/manifest.json");
    return nlohmann::json::parse(in);
}

} // namespace

TEST_CASE("every bundled case computes its manifest language on all words up to 8") {
    auto cases = manifest().at("cases");
    CHECK(cases.size() >= 6);
    for (const auto &c : cases) {
        Model m = load_model_file(std::string(TEMPCERT_TEST_DIR) + "/../cases/" +
                                      c.at("model").get<std::string>(),
                                  Limits{});
        std::string r = c.at("rule");
        std::size_t checked = 0, k = m.alphabet.size(), longest = k == 2 ? 8 : 6;
        if (reduced()) longest -= 2;
        for_each_word(k, longest, [&](const Word &w) {
            Tri got = evaluate_hard(m, w).outputs.back().accept;
            CHECK_MESSAGE(got == (rule(r, w) ? Tri::True : Tri::False),
                          c.at("id") << " on " << format_word(w, m.alphabet));
            ++checked;
            return true;
        });
        CHECK(checked == count_words(k, longest));
        for (const auto &word : c.at("words").at("accept"))
            CHECK(rule(r, parse_word(word.get<std::string>(), m.alphabet)));
        for (const auto &word : c.at("words").at("reject"))
            CHECK(!rule(r, parse_word(word.get<std::string>(), m.alphabet)));
    }
}

TEST_CASE("the tight brackets stated in the manifest hold") {
    int checked = 0;
    const nlohmann::json doc = manifest();
    for (const auto &c : doc.at("cases")) {
        if (!c.contains("expected_tight")) continue;
        CAPTURE(c.at("id").get<std::string>());
        Model m = load_model_file(std::string(TEMPCERT_TEST_DIR) + "/../cases/" +
                                      c.at("model").get<std::string>(),
                                  Limits{});
        const auto &e = c.at("expected_tight");
        CertifyOptions o;
        o.n = e.at("n").get<std::size_t>();
        o.eps = q(e.at("eps").get<std::string>().c_str());
        TightResult t = tight_exhaustive(m, o, Rational(1, 1000000));
        // the manifest's number lies in the certified bracket
        CHECK(t.beta_lo <= q(e.at("beta_lo_at_most").get<std::string>().c_str()));
        CHECK(t.beta_hi >= q(e.at("beta_hi_at_least").get<std::string>().c_str()));
        ++checked;
    }
    CHECK(checked >= 3);
}
