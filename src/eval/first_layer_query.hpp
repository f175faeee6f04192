// One query of a head of the first layer with heads on a word, without
// evaluating the word's other queries (O(len) where evaluate_hard is
// O(len^2)): the symbolic analysis replays its witnesses through it, and
// tight judges the query a witness names at the bracket's lower end. Layers
// before it have feed-forward sublayers only, applied position by position,
// so its inputs are the same in the hard and the soft model.
#pragma once

#include "hard_ops.hpp"
#include "tempcert/word.hpp"

#include <vector>

namespace tempcert::detail {

// The first layer (0-based) with heads; m.layers.size() when none has.
std::size_t first_heads_layer(const Model &m);

struct FirstLayerQuery {
    std::size_t layer = 0;          // first_heads_layer(m)
    std::vector<RealVector> x;      // the layer's input activations, BOS first when present
    std::vector<RealVector> keys;   // W_K x_j of the head
    std::vector<RealVector> values; // W_V x_j of the head
    std::size_t query_index = 0;    // the query's row in x
    QueryTrace hard;                // the hard attention of the query
};

// Head `head_index` (0-based) of that layer at position `query` of `w`, by
// the exact hard evaluator's own primitives at precision `prec`.
FirstLayerQuery first_layer_query(const Model &m, const Word &w, std::size_t head_index,
                                  std::size_t query, Prec prec);

} // namespace tempcert::detail
