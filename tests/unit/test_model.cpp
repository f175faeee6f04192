// Model loading: fields, defaults, canonical form and its hash.
#include "helpers.hpp"
#include "tempcert/error.hpp"
#include "tempcert/eval.hpp"
#include "tempcert/sha256.hpp"
#include "tempcert/word.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

using namespace tempcert;
using namespace tempcert::test;

namespace {
std::string replace_once(std::string s, const std::string &from, const std::string &to) {
    auto at = s.find(from);
    REQUIRE(at != std::string::npos);
    return s.replace(at, from.size(), to);
}
} // namespace

TEST_CASE("the has-b model of docs/model-format.md loads with every field") {
    Model m = load_case("has-b");
    CHECK(m.name == "has-b");
    CHECK(m.alphabet == std::vector<std::string>{"a", "b"});
    CHECK(!m.has_bos());
    CHECK(m.width == 4);
    CHECK(m.embedding.at("b") == Vector{0, 1, 0, 0});
    REQUIRE(m.positions.size() == 1);
    CHECK(m.positions[0].dim == 2);
    REQUIRE(m.layers.size() == 1);
    const Head &h = m.layers[0].heads[0];
    CHECK(h.kind == AttnKind::Average);
    CHECK(h.mask == Mask::Causal);
    CHECK(h.output.size() == 4);
    CHECK(h.output[3] == Vector{1});
    CHECK(!m.layers[0].ffn);
    CHECK(m.output.bias == Rational(-1, 2));
    CHECK(m.output.position == ReadPosition::Last);
    CHECK(m.is_rational());
}

TEST_CASE("feed-forward biases default to zero, BOS has an embedding") {
    Model two = load_case("has-ab-two-layer");
    REQUIRE(two.layers[0].ffn);
    CHECK(two.layers[0].ffn->b1 == Vector{-1});
    CHECK(two.layers[0].ffn->b2 == Vector(7, Rational(0)));
    Model bos = load_case("prev-is-a-bos");
    CHECK(*bos.bos == "<s>");
    CHECK(bos.embedding.at("<s>") == Vector{0, 0, 1, 0, 0});
}

TEST_CASE("sha256 matches the FIPS 180-2 test vector") {
    CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("the canonical hash ignores spelling and layout, not content") {
    std::string text = slurp(case_path("has-b"));
    Model base = load_model_text(text, "has-b", Limits{});
    std::string h = model_sha256(base);
    CHECK(h.size() == 64);
    // Same model: other number spellings, layout and description.
    std::string same = replace_once(text, "\"bias\": \"-1/2\"", "\"bias\": \"-0.5\"");
    same = replace_once(same, "\"expr\": \"j\"", "\"expr\": \" (j) \"");
    same = replace_once(same, "\"description\": \"s_ij", "\"description\": \"other text; s_ij");
    same = replace_once(same, "\"width\": 4,", "\"width\":\n\n   4 ,");
    CHECK(model_sha256(load_model_text(same, "same", Limits{})) == h);
    // exponents, exactly, as docs/model-format.md says
    CHECK(model_sha256(load_model_text(
              replace_once(text, "\"bias\": \"-1/2\"", "\"bias\": \"-5e-1\""), "e", Limits{})) ==
          h);
    CHECK(model_sha256(load_model_text(
              replace_once(text, "\"bias\": \"-1/2\"", "\"bias\": \"-0.05E1\""), "e", Limits{})) ==
          h);
    CHECK_THROWS_AS(
        load_model_text(replace_once(text, "\"bias\": \"-1/2\"", "\"bias\": \"1e-3/2\""), "e",
                        Limits{}),
        InputError);
    // Different models.
    CHECK(model_sha256(
              load_model_text(replace_once(text, "\"-1/2\"", "\"-1/3\""), "x", Limits{})) != h);
    CHECK(model_sha256(
              load_model_text(replace_once(text, "\"causal\"", "\"strict\""), "x", Limits{})) != h);
    CHECK(model_sha256(load_model_text(replace_once(text, "\"j\"", "\"j/n\""), "x", Limits{})) !=
          h);
}

TEST_CASE("loader errors carry the file and JSON path") {
    std::string text = slurp(case_path("has-b"));
    try {
        load_model_text(replace_once(text, "\"causal\"", "\"sideways\""), "m.json", Limits{});
        FAIL("no error");
    } catch (const InputError &e) {
        CHECK(e.file() == "m.json");
        CHECK(e.place() == "$.layers[0].heads[0].mask");
        CHECK(e.message().find("unknown mask \"sideways\"") != std::string::npos);
    }
    Limits tight;
    tight.max_width = 3;
    CHECK_THROWS_AS(load_model_text(text, "m.json", tight), LimitError);
}

TEST_CASE("words parse in both spellings and name the bad column") {
    std::vector<std::string> ab{"a", "b"}, words{"the", "cat", "sat"};
    CHECK(parse_word("abba", ab) == Word{0, 1, 1, 0});
    CHECK(parse_word("a,b b", ab) == Word{0, 1, 1});
    CHECK(parse_word("the,cat sat", words) == Word{0, 1, 2});
    CHECK(format_word(Word{0, 1, 2}, words) == "the,cat,sat");
    CHECK(format_word(Word{1, 0}, ab) == "ba");
    try {
        parse_word("abca", ab);
        FAIL("no error");
    } catch (const InputError &e) {
        CHECK(e.place() == "--input, column 3");
    }
    CHECK_THROWS_AS(parse_word("", ab), InputError);
}

TEST_CASE("categorical read-outs, max_length and beta_native (docs/import.md)") {
    const char *text = R"J({"format": "tempcert-model/1", "name": "c", "alphabet": ["a", "b"],
      "bos": "#", "width": 3, "max_length": 4, "beta_native": "1/sqrt(3)",
      "embedding": {"a": ["1", "0", "0"], "b": ["0", "1", "0"], "#": ["0", "0", "1"]},
      "layers": [{"heads": [], "ffn": {"w1": [["1", "0", "0"]], "w2": [["0"], ["0"], ["0"]]}}],
      "output": {"position": "all", "kind": "categorical",
                 "classes": [{"dim": 0, "label": "A"}, {"dim": 1, "label": "B"}]}})J";
    Model m = load_model_text(text, "c.json", Limits{});
    CHECK(m.output.kind == ReadKind::Categorical);
    CHECK(m.max_length == std::optional<std::size_t>(4));
    CHECK(m.beta_native->canonical() == "(1/sqrt(3))");
    CHECK(m.output.coordinates() == std::vector<std::size_t>{0, 1});
    Trace t = evaluate_hard(m, parse_word("ab", m.alphabet), PrecisionPolicy{});
    REQUIRE(t.outputs.size() == 2);
    CHECK(t.outputs[0].decoded == "A");
    CHECK(t.outputs[1].decoded == "B");
    CHECK_THROWS_AS(evaluate_hard(m, parse_word("a,b,a,b,a", m.alphabet), PrecisionPolicy{}),
                    InputError);
    std::string dup = text;
    dup.replace(dup.find("\"label\": \"B\""), 12, "\"label\": \"A\"");
    CHECK_THROWS_AS(load_model_text(dup, "c.json", Limits{}), InputError);
    // the canonical form keeps the new keys, so the hash binds them
    Model other = m;
    other.max_length = 5;
    CHECK(model_sha256(other) != model_sha256(m));
}
