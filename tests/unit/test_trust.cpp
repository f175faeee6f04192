// Exact reading of numbers of any size (against a naive digit
// accumulator as oracle), the non-recursive prefix walk, and other trust
// fixes that are easiest to test below the command line.
#include "../../src/eval/prefix_walk.hpp"
#include "../../src/model/json_source.hpp"
#include "tempcert/error.hpp"

#include <doctest/doctest.h>

#include <random>

using namespace tempcert;

namespace {

// The oracle: an integer's decimal text accumulated digit by digit.
Integer naive_integer(const std::string &text) {
    Integer v = 0;
    bool negative = !text.empty() && text[0] == '-';
    for (std::size_t i = negative ? 1 : 0; i < text.size(); ++i)
        v = v * 10 + (text[i] - '0');
    return negative ? Integer(-v) : v;
}

Rational read_bare(const std::string &literal) {
    OJson doc = parse_json_strict("{\"x\": " + literal + "}", "t.json");
    return json_rational(doc["x"], "t.json", "$.x", 100000);
}

} // namespace

TEST_CASE("JSON integers of any size are read exactly (docs/reliability.md, Numbers)") {
    const char *boundary[] = {"0",
                              "-0",
                              "1",
                              "-1",
                              "9223372036854775807",
                              "9223372036854775808",
                              "-9223372036854775808",
                              "-9223372036854775809",
                              "18446744073709551615",
                              "18446744073709551616",
                              "-18446744073709551616",
                              "10000000000000000000",
                              "99999999999999999999",
                              "100000000000000000000"};
    for (const char *b : boundary) {
        CAPTURE(b);
        CHECK(read_bare(b) == Rational(naive_integer(b)));
    }
    std::string big = "1" + std::string(400, '0');
    CHECK(read_bare(big) == Rational(naive_integer(big)));
    CHECK(read_bare("-" + big) == Rational(naive_integer("-" + big)));
    std::mt19937_64 rng(13);
    for (int k = 0; k < 2000; ++k) {
        std::size_t digits = 1 + rng() % 45;
        std::string t = (rng() % 2) ? "-" : "";
        t += static_cast<char>('1' + rng() % 9);
        for (std::size_t d = 1; d < digits; ++d)
            t += static_cast<char>('0' + rng() % 10);
        CAPTURE(t);
        REQUIRE(read_bare(t) == Rational(naive_integer(t)));
        // inside arrays and beside other big numbers: the order is kept
        OJson doc = parse_json_strict("[" + t + ", 5, " + big + ", " + t + "]", "t.json");
        REQUIRE(json_rational(doc[0], "", "", 100000) == Rational(naive_integer(t)));
        REQUIRE(json_rational(doc[1], "", "", 100000) == 5);
        REQUIRE(json_rational(doc[2], "", "", 100000) == Rational(naive_integer(big)));
        REQUIRE(json_rational(doc[3], "", "", 100000) == Rational(naive_integer(t)));
    }
}

TEST_CASE("JSON number literals that are not integers are refused, never rounded") {
    for (const char *t : {"0.1", "1e3", "1E3", "-2.5e-7", "9e99999999", "1.0"}) {
        CAPTURE(t);
        CHECK_THROWS_AS(read_bare(t), InputError);
    }
    // not numbers at all: the parser's syntax error, not a big integer
    for (const char *t : {"1-2", "--5", "01", "-", "1+1"}) {
        CAPTURE(t);
        CHECK_THROWS_AS(read_bare(t), InputError);
    }
    // a big integer's digits over --max-number-chars is a limit
    CHECK_THROWS_AS(
        json_rational(parse_json_strict("[" + std::string(50, '7') + "]", "t")[0], "t", "$[0]", 40),
        LimitError);
}

TEST_CASE("error positions after a big integer are those of the file") {
    try {
        parse_json_strict("[123456789012345678901234567890, ]", "t.json");
        FAIL("accepted");
    } catch (const InputError &e) {
        CHECK(e.place() == "line 1, column 34");
    }
}

TEST_CASE("the prefix walk visits every node in order, without recursion") {
    // a path a million deep: a recursive walk would overflow the stack
    std::size_t depth = 0, deepest = 0, visits = 0;
    detail::walk_depth_first(
        1, 1000000, [&](std::size_t) { deepest = std::max(deepest, ++depth); },
        [&] {
            ++visits;
            return true;
        },
        [&] { --depth; });
    CHECK(visits == 1000000);
    CHECK(deepest == 1000000);
    CHECK(depth == 0);
    // three symbols, three levels: preorder in symbol order, 3 + 9 + 27 nodes
    std::string word, order;
    detail::walk_depth_first(
        3, 3, [&](std::size_t s) { word += static_cast<char>('a' + s); },
        [&] {
            order += word + " ";
            return word != "b"; // prune below b
        },
        [&] { word.pop_back(); });
    CHECK(order.rfind("a aa aaa aab aac ab aba", 0) == 0);
    CHECK(order.find("b ba") == std::string::npos);
    CHECK(order.find(" b c ca caa") != std::string::npos);
    CHECK(word.empty());
}

// ---- item 19: the checker's own soft model against the engine's -----------

#include "../../src/check/check_soft.hpp"
#include "random_model.hpp"
#include "tempcert/enumerate.hpp"
#include "tempcert/eval.hpp"

TEST_CASE("the checker's softmax and TV enclose what the engine's do (proofs/certificate.md, "
          "Trusted base)") {
    // Two independent enclosures of the same true values (the checker's at
    // 128 bits, the engine's at 512) must overlap: each contains the truth.
    int compared = 0;
    for (unsigned seed = 1; seed <= 60; ++seed) {
        Model m = load_model_text(test::random_model_json(seed), "random.json", Limits{});
        BetaSpec beta = BetaSpec::parse(std::to_string(1 + seed % 7), m.layers.size());
        for_each_word(m.alphabet.size(), 3, [&](const Word &w) {
            Trace hard = evaluate_hard(m, w);
            std::vector<Real> betas{beta.at(0, w.size(), 128)};
            Trace mine = check::soft_trace(m, w, betas, hard, 128, nullptr);
            Trace ref = evaluate_soft_at(m, w, beta, hard, 512);
            for (std::size_t h = 0; h < mine.layers[0].heads.size(); ++h)
                for (std::size_t t = 0; t < mine.layers[0].heads[h].queries.size(); ++t) {
                    const auto &a = mine.layers[0].heads[h].queries[t];
                    const auto &b = ref.layers[0].heads[h].queries[t];
                    if (!a.tv) continue;
                    Interval x = a.tv->enclose(128), y = b.tv->enclose(512);
                    REQUIRE(x.lower_exact() <= y.upper_exact());
                    REQUIRE(y.lower_exact() <= x.upper_exact());
                    for (std::size_t j = 0; j < a.weights.size(); ++j) {
                        Interval p = a.weights[j].enclose(128), r = b.weights[j].enclose(512);
                        REQUIRE(p.lower_exact() <= r.upper_exact());
                        REQUIRE(r.lower_exact() <= p.upper_exact());
                    }
                    ++compared;
                }
            return true;
        });
    }
    MESSAGE("queries compared: " << compared);
    CHECK(compared > 500);
}

TEST_CASE(
    "the checker's analytic TV bound and widened outputs hold the truth (proofs/certificate.md)") {
    // The bound route (check_soft.hpp, fast_below) against the engine's
    // 512-bit enclosures: its TV interval [0, t] and every coordinate of a
    // head's output must meet the engine's, which contain the true values.
    int bounded = 0, tight = 0;
    const Rational always(1); // take the bound wherever it applies
    for (unsigned seed = 1; seed <= 80; ++seed) {
        Model m = load_model_text(test::random_model_json(seed), "random.json", Limits{});
        BetaSpec beta = BetaSpec::parse(std::to_string(1 + 3 * (seed % 9)), m.layers.size());
        for_each_word(m.alphabet.size(), 3, [&](const Word &w) {
            Trace hard = evaluate_hard(m, w);
            std::vector<Real> betas{beta.at(0, w.size(), 128)};
            Trace mine = check::soft_trace(m, w, betas, hard, 128, nullptr, &always);
            Trace ref = evaluate_soft_at(m, w, beta, hard, 512);
            for (std::size_t h = 0; h < mine.layers[0].heads.size(); ++h)
                for (std::size_t t = 0; t < mine.layers[0].heads[h].queries.size(); ++t) {
                    const auto &a = mine.layers[0].heads[h].queries[t];
                    const auto &b = ref.layers[0].heads[h].queries[t];
                    if (!a.tv || !a.weights.empty()) continue; // not bounded
                    ++bounded;
                    Interval x = a.tv->enclose(128), y = b.tv->enclose(512);
                    REQUIRE(x.lower_exact() == 0);
                    REQUIRE(y.lower_exact() <= x.upper_exact());
                    tight += x.upper_exact() <= 2 * y.upper_exact() + Rational(1, 1000000);
                    for (std::size_t c = 0; c < a.output.size(); ++c) {
                        Interval o = a.output[c].enclose(128), r = b.output[c].enclose(512);
                        REQUIRE(o.lower_exact() <= r.upper_exact());
                        REQUIRE(r.lower_exact() <= o.upper_exact());
                    }
                }
            return true;
        });
    }
    MESSAGE("queries bounded: " << bounded << ", within twice the true TV: " << tight);
    CHECK(bounded > 500);
}
