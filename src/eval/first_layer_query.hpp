// One query of a first-layer head on a word, without evaluating the word's
// other queries (O(len) where evaluate_hard is O(len^2)): the symbolic
// analysis replays its witnesses through it, and tight judges the query a
// witness names at the bracket's lower end.
#pragma once

#include "hard_ops.hpp"
#include "tempcert/word.hpp"

#include <vector>

namespace tempcert::detail {

struct FirstLayerQuery {
    std::vector<RealVector> x;      // the word's initial activations, BOS first when present
    std::vector<RealVector> keys;   // W_K x_j of the head
    std::vector<RealVector> values; // W_V x_j of the head
    std::size_t query_index = 0;    // the query's row in x
    QueryTrace hard;                // the hard attention of the query
};

// Head `head_index` (0-based) of layer 1 at position `query` of `w`, by the
// exact hard evaluator's own primitives at precision `prec`.
FirstLayerQuery first_layer_query(const Model &m, const Word &w, std::size_t head_index,
                                  std::size_t query, Prec prec);

} // namespace tempcert::detail
