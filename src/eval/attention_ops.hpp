// Per-query softmax primitives shared by evaluate_soft_at and the
// prefix-sharing evaluator (one implementation of each formula); the hard
// ones are in hard_ops.hpp. The certificate checker uses none of these: it
// encloses softmax and TV by its own code (src/check/check_soft.cpp).
#pragma once

#include "hard_ops.hpp"

namespace tempcert::detail {

struct Softmax {
    RealVector scores;       // as given: exact where the activations are
    std::vector<Interval> s; // their enclosures
    Interval beta;
    std::vector<Interval> e; // exp(beta (s_j - s_ref))
    RealVector weights;
    // Per position its class: positions whose scores are equal exact
    // rationals share one (which total_variation reads too), numbered in
    // order of first appearance.
    std::vector<std::size_t> classes;
};

// Softmax weights as shares e_j / (e_j + rest_j) (proofs/softmax-enclosure.md).
Softmax softmax(const RealVector &scores, const Real &beta, Prec prec);

// The hard weights the tv criterion compares with (docs/semantics.md).
RealVector compared_weights(AttnKind kind, const QueryTrace &hard);

// TV(softmax, h) for h uniform on its support, with relative accuracy.
Real total_variation(const RealVector &h, const Softmax &sm, Prec prec);

// Whether every weight is exact or narrower than `width` (the soft
// evaluators' precision loop).
bool weights_narrower_than(const RealVector &weights, const Rational &width);

// The soft counterpart at inverse temperature `beta`; `hard` is the same
// query's hard trace (its allowed set and the weights TV compares with).
QueryTrace soft_query(const Head &head, const QueryTrace &hard, const RealVector &x_query,
                      const std::vector<RealVector> &keys, const std::vector<RealVector> &values,
                      bool bos, std::size_t width, const Real &beta, Prec prec);

} // namespace tempcert::detail
