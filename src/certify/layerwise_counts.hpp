// Count coordinates in the layerwise method (proofs/layerwise.md,
// "Counting heads"; proofs/counting-construction.md).
//
// A *uniform head* has every score 0 on every input (its query or its key
// matrix is zero), is average-hard and causal: hard and soft weights are
// both exactly 1/N(i) on every allowed position, N(i) = i + [BOS], at any
// beta. Each coordinate c it writes then holds, at a real position i,
//     x_c(i) = (b + v_1 + ... + v_i) / N(i)
// with b BOS's contribution (W_O W_V of BOS's value, 0 without BOS) and v_j
// each position's, from finite sets. Such a *count coordinate* takes
// unboundedly many values as n grows, so it is not tracked in the finite
// value sets; it is described by the ranges and the lattice of its
// numerator instead. The only matrices allowed to read it are the queries
// of *counting heads* (average-hard, causal or strict, reading no feature
// and no count coordinate through the key or the value), whose gap is
// bounded below by a lattice argument at every query position.
#pragma once

#include "tempcert/exact_vector.hpp"
#include "tempcert/gap.hpp"
#include "tempcert/layerwise.hpp"
#include "tempcert/limits.hpp"
#include "tempcert/model.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace tempcert::layerwise_detail {

// Why the layerwise argument does not apply; caught by certify_layerwise.
struct Fail {
    std::string why;
};

// The numerator b + sum v_j of a count coordinate: v_j in [vmin, vmax],
// b in [bmin, bmax] (both 0 without BOS), and every numerator at position i
// is b0 + i vmin modulo step (step 0: the numerator is b0 + i vmin exactly).
struct CountCoord {
    Rational vmin, vmax, bmin, bmax, b0, step;
    std::size_t layer = 0, head = 0; // where it was written (1-based)
};
using CountCoords = std::map<std::size_t, CountCoord>;

// Whether the matrix reads coordinate c (a nonzero in column c), writes it
// (a nonzero in row c); the exact product w x. Shared with layerwise.cpp.
bool reads(const Matrix &w, std::size_t c);
bool writes(const Matrix &w, std::size_t c);

// Every score of the head is 0 whatever the input: W_Q = 0 or W_K = 0.
bool zero_scores(const Head &head);
// A uniform head (see above): zero scores, average-hard, causal.
bool uniform_head(const Head &head);
// Whether the matrix reads one of the coordinates.
bool reads_any(const Matrix &w, const CountCoords &counts);

// Registers the coordinates the uniform head `index` of the layer writes as
// count coordinates, given the finite value sets entering the layer (S real
// positions, B BOS). Fails when a coordinate it writes is not 0 on every
// value (not fresh), or another head or the layer's feed-forward sublayer
// touches it.
void add_count_coords(const Layer &layer, std::size_t l, std::size_t index,
                      const std::vector<Vector> &S, const std::vector<Vector> &B,
                      CountCoords &counts);

// Fails unless nothing of the layer but counting heads' queries reads a
// count coordinate and nothing but `writer` (a uniform head of this layer,
// or none) writes one.
void check_count_use(const Layer &layer, std::size_t l, const CountCoords &counts,
                     const std::set<std::size_t> &features);

// The gap of a counting head (its query reads count coordinates) over every
// word up to n, bounded below query position by query position (the
// lattice argument); N as max_allowed. Fails on a possible tie between
// positions with different values.
HeadGap counting_head_gap(const Head &head, std::size_t l, std::size_t h,
                          const std::vector<Vector> &S, const std::vector<Vector> &B,
                          const CountCoords &counts, std::size_t n, bool bos, const Limits &limits);

// Shared with the perturbation argument (src/certify/perturbation.cpp):
// "layer L head H" (1-based) for 0-based l, h;
std::string head_name(std::size_t l, std::size_t h);
// fails unless values, outputs and feed-forward sublayers leave the feature
// coordinates alone (queries and keys may read them);
void check_feature_use(const Model &m, const std::set<std::size_t> &features);
// the head's least gap over the value set S (every position picks any
// element) and BOS's set B, by the symbolic method; fails on a possible tie
// between positions with different values. With profiles, widens
// info.profile by the head's, and with `symbol_inputs` (each symbol's input
// to layer l, no layer before having heads) keeps in info the word
// attaining the profile's lower end. With `every_n`, the profile is the
// virtual models' supremum over every length instead.
HeadGap symbolic_head_gap(const Model &m, const Head &head, std::size_t l, std::size_t h,
                          const std::vector<Vector> &S, const std::vector<Vector> &B, std::size_t n,
                          const Rational &eps, const Limits &limits, bool with_profile,
                          const std::vector<Vector> *symbol_inputs, LayerwiseLayer &info,
                          const VirtualHeadSup *every_n = nullptr);
// the half-activations: every start vector plus one output of each head in
// turn, distinct; fails beyond limits.max_values of them (--max-values) at
// layer l; polls --time-limit and Ctrl-C.
std::vector<Vector> add_outputs(std::vector<Vector> start,
                                const std::vector<std::vector<Vector>> &outputs,
                                const Limits &limits, std::size_t l);

} // namespace tempcert::layerwise_detail
