// The constructions of cases/literature/ (issue 61), as random models of
// each shape, against enumeration: at n <= 7 the symbolic bracket (with its
// integer scores, critical lengths by least offers and closed forms) and the
// exhaustive bracket hold the same tight beta, so they overlap.
#include "helpers.hpp"
#include "hunt_seed.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/error.hpp"

#include <doctest/doctest.h>

#include <random>
#include <sstream>

using namespace tempcert;
using namespace tempcert::test;

namespace {

// dims: 0, 1 one-hot a, b; 2 constant 1; 3 and 4 positional features.
std::string shape_model(const std::string &name, bool bos, const std::string &f3,
                        const std::string &f4, const std::string &kind, const std::string &mask,
                        const std::string &query, const std::string &key,
                        const std::string &value) {
    std::ostringstream s;
    s << R"({"format": "tempcert-model/1", "name": ")" << name
      << R"(", "alphabet": ["a", "b"], "bos": )" << (bos ? "\"<s>\"" : "null")
      << R"(, "width": 6, "embedding": {"a": [1, 0, 1, 0, 0, 0], "b": [0, 1, 1, 0, 0, 0])"
      << (bos ? R"(, "<s>": [0, 0, 1, 0, 0, 1]})" : "}")
      << R"(, "positions": [{"dim": 3, "expr": ")" << f3 << R"("}, {"dim": 4, "expr": ")" << f4
      << R"("}], "layers": [{"heads": [{"kind": ")" << kind << R"(", "mask": ")" << mask
      << R"(", "query": )" << query << R"(, "key": )" << key << R"(, "value": )" << value
      << R"(, "output": [[0], [0], [0], [0], [0], [1]]}], "ffn": null}],)"
      << R"( "output": {"weights": [0, 0, 0, 0, 0, 1], "bias": "-1/2"}})";
    return s.str();
}

// The quadratic-maximisation lookup of position i - shift (scale a), its
// key optionally reading the symbol (+ g [w_j = a]), under any mask.
std::string quadratic(std::mt19937 &rng) {
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    const char *masks[] = {"none", "causal", "strict", "future", "strict-future"};
    const int shift = pick(0, 2), g = pick(0, 1) ? pick(-2, 2) : 0;
    const std::string a = std::to_string(pick(1, 2));
    const std::string query =
        "[[0, 0, " + std::to_string(-shift) + ", 1, 0, 0], [0, 0, 1, 0, 0, 0]]";
    const std::string key = "[[0, 0, 0, " + std::to_string(2 * std::stoi(a)) + ", 0, 0], [" +
                            std::to_string(g) + ", 0, 0, 0, -" + a + ", 0]]";
    return shape_model("quadratic", false, "j", "j^2", pick(0, 1) ? "leftmost" : "rightmost",
                       masks[pick(0, 4)], query, key,
                       pick(0, 1) ? "[[0, 0, 1, 0, 0, 0]]" : "[[1, 0, 0, 0, 0, 0]]");
}

// The Cookbook's tie-breaking: [w_j = a] u - v/(j + 1), causal or strict.
std::string tie_break(std::mt19937 &rng) {
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    const std::string key =
        "[[" + std::to_string(pick(1, 2)) + ", 0, 0, -" + std::to_string(pick(1, 3)) + ", 0, 0]]";
    return shape_model("tie-break", false, "1/(j+1)", "j", pick(0, 1) ? "average" : "rightmost",
                       pick(0, 1) ? "causal" : "strict", "[[0, 0, 1, 0, 0, 0]]", key,
                       "[[1, 0, 0, 0, 0, 0]]");
}

// The BOS-default lookup: [w_j = a] + w j/n at real positions, 1 at BOS,
// strict mask, rightmost.
std::string bos_default(std::mt19937 &rng) {
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    const std::string key = "[[1, 0, 0, \"" + std::to_string(pick(1, 2)) + "/" +
                            std::to_string(pick(1, 3)) + "\", 0, 1]]";
    return shape_model("bos-default", true, "j/n", "j", "rightmost",
                       pick(0, 1) ? "strict" : "causal", "[[0, 0, 1, 0, 0, 0]]", key,
                       "[[1, 0, 0, 0, 0, 0]]");
}

} // namespace

TEST_CASE("literature shapes: symbolic tight = exhaustive tight at n <= 7") {
    const unsigned seeds = reduced() ? 8 : 30;
    int compared = 0, positive = 0;
    for (unsigned seed = 1; seed <= seeds; ++seed) {
        std::mt19937 rng(hunt_seed(seed));
        for (int shape = 0; shape < 3; ++shape) {
            const std::string json = shape == 0   ? quadratic(rng)
                                     : shape == 1 ? tie_break(rng)
                                                  : bos_default(rng);
            CAPTURE(seed);
            CAPTURE(json);
            Model m = load_model_text(json, "shape", Limits{});
            CertifyOptions o;
            o.eps = Rational(1, 10);
            o.n = 5 + seed % 3;
            TightResult sy, ex;
            try {
                ex = tight_exhaustive(m, o, Rational(1, 1000000));
            } catch (const LimitError &) { // a tie between different values: no beta
                CHECK_THROWS_AS(tight_symbolic(m, o, Rational(1, 1000000)), LimitError);
                continue;
            }
            sy = tight_symbolic(m, o, Rational(1, 1000000));
            CHECK(sy.beta_lo <= ex.beta_hi);
            CHECK(ex.beta_lo <= sy.beta_hi);
            ++compared;
            positive += sy.beta_lo > 0;
        }
    }
    MESSAGE("compared " << compared << ", positive " << positive);
    CHECK(compared >= static_cast<int>(seeds) * 2);
    CHECK(positive >= static_cast<int>(seeds));
}
