// The parts of a forward pass that hard and soft evaluation share (docs/model-format.md,
// 2.3): initial vectors, allowed sets, scores, value vectors, feed-forward
// sublayers and read-outs, all over Real (exact where possible).
#pragma once

#include "tempcert/mask.hpp"
#include "tempcert/model.hpp"
#include "tempcert/trace.hpp"
#include "tempcert/word.hpp"

#include <functional>

namespace tempcert::detail {

// Position number of activation index t, and back.
inline std::size_t position_of(std::size_t t, bool bos) {
    return bos ? t : t + 1;
}
inline std::size_t index_of(std::size_t pos, bool bos) {
    return bos ? pos : pos - 1;
}

// x^(0) at position j of a word of length n: the embedding plus the
// positional features. Throws InputError as below.
RealVector initial_activation(const Model &m, const Vector &embedding, std::size_t j, std::size_t n,
                              Prec prec);

// x^(0) at every position (BOS first when present). Throws InputError
// naming the feature's JSON path on a domain error at some (j, n).
std::vector<RealVector> initial_activations(const Model &m, const Word &w, Prec prec);

// Allowed key positions (position numbers, increasing) for query `i`:
// tempcert::allowed_positions (include/kernel/tempcert/mask.hpp).
using tempcert::allowed_positions;

// s_ij = (W_Q x_i) . (W_K x_j) for each allowed j, given q_i = W_Q x_i and
// keys[t] = W_K x_t.
RealVector scores(const RealVector &q, const std::vector<RealVector> &keys,
                  const std::vector<std::size_t> &allowed, bool bos, Prec prec);

// W_K x_t and W_V x_t at every position t of x (replacing keys and values).
void head_keys_values(const Head &head, const std::vector<RealVector> &x, Prec prec,
                      std::vector<RealVector> &keys, std::vector<RealVector> &values);

// sum_j a_j v_j, then W_O times that.
RealVector head_output(const Head &h, const RealVector &weights,
                       const std::vector<RealVector> &values,
                       const std::vector<std::size_t> &allowed, bool bos, Prec prec);

RealVector add_vectors(const RealVector &a, const RealVector &b, Prec prec);

// x + W_2 ReLU(W_1 x + b_1) + b_2
RealVector apply_ffn(const Ffn &f, const RealVector &x, Prec prec);

// Read-outs y = c . x_p + b at the model's output positions.
// The read-out of one position's final activation (linear or categorical).
OutputValue read_output(const Model &m, const RealVector &x, std::size_t position, Prec prec);
std::vector<OutputValue> readouts(const Model &m, const std::vector<RealVector> &x, std::size_t n,
                                  bool bos, Prec prec);

// The positions the model reads, as position numbers.
std::vector<std::size_t> output_positions(const Model &m, std::size_t n);

// The forward pass shared by hard and soft evaluation: from x^(0) through
// every layer (heads, residual, feed-forward), filling tr.layers and the
// read-outs; `query` computes one head's trace at one position, given
// W_K x and W_V x at every position.
using QueryFn = std::function<QueryTrace(
    std::size_t layer, std::size_t head, std::size_t t, const RealVector &x_query,
    const std::vector<RealVector> &keys, const std::vector<RealVector> &values)>;
void run_layers(const Model &m, Trace &tr, std::vector<RealVector> x, Prec prec,
                const QueryFn &query);

} // namespace tempcert::detail
