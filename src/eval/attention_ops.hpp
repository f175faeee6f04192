// Per-query attention primitives shared by evaluate_hard, evaluate_soft_at
// and the prefix-sharing evaluator (one implementation of each formula).
#pragma once

#include "tempcert/model.hpp"
#include "tempcert/trace.hpp"

namespace tempcert::detail {

// Fills argmax, gap and runner-up of `q` from its scores; throws Undecided
// when interval scores cannot be ordered (irrational features).
void decide_maximum(QueryTrace &q, std::size_t layer, std::size_t head, Prec prec);

// The hard weights of `kind` on q's maximising set.
RealVector hard_weights(AttnKind kind, const QueryTrace &q);

// Whether all of q's maximising positions carry one value vector.
bool same_values(const QueryTrace &q, const std::vector<RealVector> &values, bool bos,
                 std::size_t layer, std::size_t head, Prec prec);

struct Softmax {
    std::vector<Interval> s; // scores
    Interval beta;
    std::vector<Interval> e; // exp(beta (s_j - s_ref))
    RealVector weights;
};

// Softmax weights as shares e_j / (e_j + rest_j) (proofs/softmax-enclosure.md).
Softmax softmax(const RealVector &scores, const Real &beta, Prec prec);

// The hard weights the tv criterion compares with (SPEC 5.3).
RealVector compared_weights(AttnKind kind, const QueryTrace &hard);

// TV(softmax, h) for h uniform on its support, with relative accuracy.
Real total_variation(const RealVector &h, const Softmax &sm, Prec prec);

// One query of one head. `keys` and `values` hold W_K x_t and W_V x_t for
// every position present (index t as in layer_ops.hpp); `n` is the word's
// length. Layer and head numbers are 1-based, for messages.
QueryTrace hard_query(const Head &head, std::size_t query, const RealVector &x_query,
                      const std::vector<RealVector> &keys, const std::vector<RealVector> &values,
                      std::size_t n, bool bos, std::size_t width, std::size_t layer,
                      std::size_t head_no, Prec prec);

// The soft counterpart at inverse temperature `beta`; `hard` is the same
// query's hard trace (its allowed set and the weights TV compares with).
QueryTrace soft_query(const Head &head, const QueryTrace &hard, const RealVector &x_query,
                      const std::vector<RealVector> &keys, const std::vector<RealVector> &values,
                      bool bos, std::size_t width, const Real &beta, Prec prec);

} // namespace tempcert::detail
