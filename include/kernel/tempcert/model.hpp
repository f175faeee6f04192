// A concrete attention transformer (docs/model-format.md) as loaded from a
// `tempcert-model/1` file (docs/model-format.md). All numbers are exact rationals;
// positional features are expressions in j and n.
#pragma once

#include "tempcert/expr.hpp"
#include "tempcert/limits.hpp"
#include "tempcert/rational.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tempcert {

enum class AttnKind { Leftmost, Rightmost, Average };
enum class Mask { None, Causal, Strict, Future, StrictFuture };
enum class ReadPosition { Last, First, All };

const char *to_string(AttnKind k);
const char *to_string(Mask m);
const char *to_string(ReadPosition p);

struct Head {
    AttnKind kind = AttnKind::Average;
    Mask mask = Mask::None;
    Matrix query, key; // k x d
    Matrix value;      // d_v x d
    Matrix output;     // d x d_v
};

struct Ffn {
    Matrix w1; // h x d
    Vector b1; // h
    Matrix w2; // d x h
    Vector b2; // d
};

struct Layer {
    std::vector<Head> heads;
    std::optional<Ffn> ffn;
};

struct PositionalFeature {
    std::size_t dim = 0; // 0-based coordinate
    Expr expr;
};

// What a read-out decodes at each position it reads (docs/import.md):
//   Linear       y = weights . x + bias; accepted iff y > 0, and compared
//                numerically by the output criterion (a Tracr "numerical"
//                output is weights = e_c, bias 0);
//   Categorical  the label of the class coordinate holding the strict
//                maximum; a tie between the largest is "no output".
enum class ReadKind { Linear, Categorical };

struct OutputClass {
    std::size_t dim = 0; // 0-based coordinate
    std::string label;
};

struct Readout {
    ReadPosition position = ReadPosition::Last;
    ReadKind kind = ReadKind::Linear;
    Vector weights;                   // Linear
    Rational bias;                    // Linear
    std::vector<OutputClass> classes; // Categorical, at least two
    // Residual coordinates the read-out looks at.
    std::vector<std::size_t> coordinates() const;
};

struct Model {
    std::string source; // file it was read from, for messages
    std::string name;
    std::vector<std::string> alphabet;
    std::optional<std::string> bos;
    std::size_t width = 0;
    std::map<std::string, Vector> embedding; // alphabet symbols and BOS
    std::vector<PositionalFeature> positions;
    std::vector<Layer> layers;
    Readout output;
    // Longest input the model is defined for (a Tracr model's max_seq_len:
    // its position table stops there); nullopt for every length.
    std::optional<std::size_t> max_length;
    // The inverse temperature the model runs at natively (Tracr: 1/sqrt of
    // the key size), an expression in n; `--beta native` selects it.
    std::optional<Expr> beta_native;

    bool has_bos() const { return bos.has_value(); }
    // True when every feature is rational-valued (no log, no sqrt): the hard
    // model is then exact rational throughout.
    bool is_rational() const;
    bool features_use_n() const;
};

// Throws InputError naming $.max_length when the model is not defined for
// inputs of length n.
void check_length(const Model &m, std::size_t n);

// Loads and validates a model file. Throws InputError naming `path` and the
// JSON path (or line:column) of the first problem. `limits` bounds sizes
// before anything large is built.
Model load_model_file(const std::string &path, const Limits &limits);
// The same from text; `name_for_errors` stands in for the file name.
Model load_model_text(const std::string &text, const std::string &name_for_errors,
                      const Limits &limits);

// Canonical JSON of the model: fixed key order, numbers as reduced "p/q"
// strings, no white space. Two files denoting the same model have the same
// canonical form.
std::string canonical_json(const Model &m);
// Lower-case hex SHA-256 of canonical_json(m).
std::string model_sha256(const Model &m);

} // namespace tempcert
