// Random small multi-layer models for the perturbation argument's property
// tests (proofs/perturbation.md): 2 or 3 symbols, 2 or 3 layers of 1 or 2 heads of every
// kind and a backward mask, feed-forward sublayers of 1 to 3 ReLU units
// whose kinks the hard values often touch, optional BOS and the feature j.
// Deterministic in the seed. Coordinate 0 is the constant 1, coordinate 1
// the feature (keys, and half the queries: a query that does not read it
// makes key positions spread, proofs/perturbation.md), 2..width-1 free.
#pragma once

#include "hunt_seed.hpp"

#include <random>
#include <sstream>
#include <string>

namespace tempcert::test {

inline std::string random_deep_model_json(unsigned seed) {
    seed = hunt_seed(seed);
    std::mt19937 rng(seed);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    auto num = [&]() -> std::string {
        int r = pick(0, 11);
        if (r == 0) return "\"1/2\"";
        if (r == 1) return "\"-1/2\"";
        if (r < 6) return "0";
        return std::to_string(pick(-2, 2));
    };
    const int k = pick(2, 3), width = 6, layers = pick(2, 3);
    const bool bos = pick(0, 2) == 0, feature = pick(0, 1) == 1;
    const char *kinds[] = {"leftmost", "rightmost", "average"};
    const char *masks[] = {"causal", "strict"};
    // a matrix rows x width; `free_only` leaves coordinates 0 and 1 unread
    auto matrix = [&](int rows, bool skip_feature) {
        std::string m = "[";
        for (int i = 0; i < rows; ++i) {
            m += i ? ", [" : "[";
            for (int c = 0; c < width; ++c)
                m += (c ? ", " : "") + (skip_feature && c == 1 ? std::string("0") : num());
            m += "]";
        }
        return m + "]";
    };
    // width x cols, writing free coordinates only
    auto writer = [&](int cols) {
        std::string m = "[";
        for (int r = 0; r < width; ++r) {
            m += r ? ", [" : "[";
            for (int c = 0; c < cols; ++c)
                m += (c ? ", " : "") + (r < 2 ? std::string("0") : num());
            m += "]";
        }
        return m + "]";
    };
    std::ostringstream s;
    s << R"({"format": "tempcert-model/1", "name": "deep-)" << seed << R"(", "alphabet": [)";
    for (int i = 0; i < k; ++i)
        s << (i ? ", " : "") << "\"" << char('a' + i) << "\"";
    s << "], \"bos\": " << (bos ? "\"<s>\"" : "null") << ", \"width\": " << width
      << ", \"embedding\": {";
    for (int i = 0; i <= k; ++i) {
        if (i == k && !bos) break;
        s << (i ? ", " : "") << "\""
          << (i == k ? std::string("<s>") : std::string(1, char('a' + i))) << "\": [1, 0";
        for (int c = 2; c < width; ++c)
            s << ", " << (i == k ? "0" : std::to_string(pick(0, 1)));
        s << "]";
    }
    s << "}, \"positions\": [";
    if (feature) s << R"({"dim": 1, "expr": "j"})";
    s << "], \"layers\": [";
    for (int l = 0; l < layers; ++l) {
        s << (l ? ", " : "") << "{\"heads\": [";
        int heads = pick(1, 2);
        for (int h = 0; h < heads; ++h)
            s << (h ? ", " : "") << "{\"kind\": \"" << kinds[pick(0, 2)] << "\", \"mask\": \""
              << masks[pick(0, 1)] << "\", \"query\": " << matrix(1, pick(0, 1) == 1)
              << ", \"key\": " << matrix(1, false) << ", \"value\": " << matrix(1, true)
              << ", \"output\": " << writer(1) << "}";
        s << "], \"ffn\": ";
        if (pick(0, 3) == 0) {
            s << "null}";
            continue;
        }
        int units = pick(1, 3);
        s << "{\"w1\": " << matrix(units, true) << ", \"b1\": [";
        for (int u = 0; u < units; ++u)
            s << (u ? ", " : "") << pick(-1, 0);
        s << "], \"w2\": " << writer(units) << "}}";
    }
    s << "], \"output\": {\"weights\": [0, 0";
    for (int c = 2; c < width; ++c)
        s << ", " << num();
    s << "], \"bias\": \"" << (pick(0, 1) ? "1/3" : "-1/3") << "\"}}";
    return s.str();
}

} // namespace tempcert::test
