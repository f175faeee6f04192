// What the layerwise and perturbation arguments share (proofs/layerwise.md,
// "Preconditions"; proofs/perturbation.md): the finite sets of hard values
// a position can hold entering each layer, the outputs a head can add to
// them, the most positions a query sees, and the preconditions that keep
// positional features exact.
#pragma once

#include "json_in.hpp"
#include "value_gap.hpp"

#include <initializer_list>
#include <set>

namespace minicheck {
bool reads_column(const Mat &w, std::size_t c);
bool writes_row(const Mat &w, std::size_t r);

// Rejects (exit 1, at $.method) a model in which a head's value or output
// or a feed-forward sublayer touches a feature coordinate.
void check_features_untouched(const Model &m);
std::set<std::size_t> feature_coordinates(const Model &m);

// W_O W_V d over the sets, and 0 when `empty` (a mask that can leave a
// query without positions).
std::set<Vec> head_outputs(const Head &head, std::initializer_list<const std::vector<Vec> *> sets,
                           bool empty, std::size_t width);
bool can_be_empty(Mask mask);

// Each value of `start` plus one output of every head (exit 3 over `cap`).
std::set<Vec> plus_outputs(const std::vector<Vec> &start, const std::vector<std::set<Vec>> &add,
                           std::uint64_t cap, const std::string &path);

// The most positions a query of a word of length up to n sees.
std::size_t most_seen(const Model &m, Mask mask, std::size_t n);

// The head's least gap over S at real positions with BOS holding each
// element of B in turn; rejects (exit 1) a tie between different values.
std::optional<Q> least_gap(const Model &m, const Head &head, const std::vector<Vec> &S,
                           const std::vector<Vec> &B, std::size_t n, std::uint64_t budget,
                           const std::string &path, const ProfileRequest *profile = nullptr);

// The fields layerwise and perturbation certificates share: the keys
// (`kind_key`: "readout_exact" or "readout"), beta as {spec, source} with
// source `own` or "user", verdict "certified", one entry per layer (the
// array returned), and the preconditions on features.
const Json &argument_fields(const Json &cert, const Model &m, const std::string &own,
                            const char *kind_key);

// The embeddings: the values entering the first layer, at real positions
// (one per symbol, in the alphabet's order) and at BOS.
std::vector<Vec> first_values(const Model &m);
std::vector<Vec> first_bos_values(const Model &m);
} // namespace minicheck
