// Per-query primitives of exact hard attention, shared by every hard
// evaluator and by the certificate checker (part of the checker's trusted
// kernel: deciding the maximum, the hard weights, one hard query).
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

// One query of one head. `keys` and `values` hold W_K x_t and W_V x_t for
// every position present (index t as in layer_ops.hpp); `n` is the word's
// length. Layer and head numbers are 1-based, for messages.
QueryTrace hard_query(const Head &head, std::size_t query, const RealVector &x_query,
                      const std::vector<RealVector> &keys, const std::vector<RealVector> &values,
                      std::size_t n, bool bos, std::size_t width, std::size_t layer,
                      std::size_t head_no, Prec prec);

} // namespace tempcert::detail
