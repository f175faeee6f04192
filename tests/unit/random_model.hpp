// Random small first-layer models for property tests: 2 to 4 symbols, 1 or
// 2 heads of every kind and mask, BOS or not, small rational weights,
// positional features in j and n. Deterministic in the seed.
#pragma once

#include "tempcert/model.hpp"

#include "hunt_seed.hpp"

#include <random>
#include <sstream>

namespace tempcert::test {

inline std::string random_model_json(unsigned seed, bool backward_only = false) {
    seed = hunt_seed(seed);
    std::mt19937 rng(seed);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    auto num = [&]() -> std::string {
        int r = pick(0, 9);
        if (r == 0) return "\"1/2\"";
        if (r == 1) return "\"-1/3\"";
        return std::to_string(pick(-2, 2));
    };
    int k = pick(2, 4);
    bool bos = pick(0, 2) == 0;
    const char *features[] = {"j", "j/n", "n-j", "(j-2)^2", "j*j/4"};
    const char *kinds[] = {"leftmost", "rightmost", "average"};
    const char *masks[] = {"none", "causal", "strict", "future", "strict-future"};
    const char *backward[] = {"causal", "strict"};
    int width = 4;
    std::ostringstream s;
    s << R"({"format": "tempcert-model/1", "name": "random-)" << seed << R"(", "alphabet": [)";
    for (int i = 0; i < k; ++i)
        s << (i ? ", " : "") << "\"" << char('a' + i) << "\"";
    s << "], \"bos\": " << (bos ? "\"<s>\"" : "null") << ", \"width\": " << width
      << ", \"embedding\": {";
    for (int i = 0; i <= k; ++i) {
        if (i == k && !bos) break;
        s << (i ? ", " : "") << "\""
          << (i == k ? std::string("<s>") : std::string(1, char('a' + i))) << "\": [";
        for (int c = 0; c < width; ++c)
            s << (c ? ", " : "") << (c == 3 ? "1" : num());
        s << "]";
    }
    s << "}, \"positions\": [";
    int nf = pick(0, 2);
    for (int f = 0; f < nf; ++f)
        s << (f ? ", " : "") << "{\"dim\": " << pick(0, 2) << ", \"expr\": \""
          << features[pick(backward_only ? 0 : 0, backward_only ? 0 : 4)] << "\"}";
    s << "], \"layers\": [{\"heads\": [";
    int heads = pick(1, 2);
    for (int h = 0; h < heads; ++h) {
        int rows = pick(1, 2);
        auto matrix = [&](int r, int c) {
            std::string m = "[";
            for (int i = 0; i < r; ++i) {
                m += i ? ", [" : "[";
                for (int j = 0; j < c; ++j)
                    m += (j ? ", " : "") + num();
                m += "]";
            }
            return m + "]";
        };
        s << (h ? ", " : "") << "{\"kind\": \"" << kinds[pick(0, 2)] << "\", \"mask\": \""
          << (backward_only ? backward[pick(0, 1)] : masks[pick(0, 4)])
          << "\", \"query\": " << matrix(rows, width) << ", \"key\": " << matrix(rows, width)
          << ", \"value\": " << matrix(1, width) << ", \"output\": " << matrix(width, 1) << "}";
    }
    s << "], \"ffn\": null}], \"output\": {\"weights\": [1, 0, 0, 0], \"bias\": 0}}";
    return s.str();
}

} // namespace tempcert::test
