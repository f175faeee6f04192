// The model as the small checker reads it (docs/model-format.md): exact
// rationals throughout, positional features that must be rational
// expressions, and the canonical form whose SHA-256 certificates bind.
#pragma once

#include "numbers.hpp"

#include <optional>
#include <string>
#include <vector>

namespace minicheck {
using Vec = std::vector<Q>;
using Mat = std::vector<Vec>; // rows

enum class Kind { Leftmost, Rightmost, Average };
enum class Mask { None, Causal, Strict, Future, StrictFuture };

struct Head {
    Kind kind;
    Mask mask;
    std::string kind_text, mask_text;
    Mat query, key, value, output;
};

struct Ffn {
    Mat w1, w2;
    Vec b1, b2;
};

struct Layer {
    std::vector<Head> heads;
    std::optional<Ffn> ffn;
};

struct Feature {
    std::size_t dim;
    Expr expr;
    std::string path; // "$.positions[k].expr", for messages
};

struct Model {
    std::string name;
    std::vector<std::string> alphabet;
    std::optional<std::string> bos;
    std::size_t width = 0;
    std::vector<Vec> embedding; // per alphabet symbol, then BOS's
    std::vector<Feature> features;
    std::vector<Layer> layers;
    std::string position = "last"; // read-out position: last, first, all
    bool categorical = false;
    Vec weights; // linear read-out
    Q bias;
    std::vector<std::pair<std::size_t, std::string>> classes; // categorical: dim, label
    std::optional<std::uint64_t> max_length;
    std::optional<Expr> beta_native;
    std::string sha256; // of the canonical form
    std::string source; // the file, for messages
};

// Reads and checks the model file; a Failure naming the JSON path otherwise.
Model load_model(const std::string &text);

bool mask_allows(Mask m, std::size_t query, std::size_t key);
} // namespace minicheck
