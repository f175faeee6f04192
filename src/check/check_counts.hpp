// Count coordinates in layerwise certificates, re-derived by the checker
// (proofs/layerwise.md, "Counting heads"). Written apart from
// src/certify/layerwise_counts.cpp on purpose: a uniform head's outputs are
// averages b + v_1 + ... + v_i over N(i) = i + [BOS] positions, whose
// numerators lie in a residue class modulo a step; a counting head's score
// differences are then N(i) a + sum_c gamma_c z_c over those classes, and
// the least nonzero one is found by residues here (the engine uses the
// nearest integer to the real root instead).
#pragma once

#include "tempcert/model.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tempcert::check {

struct Numerator {
    Rational vmin, vmax, bmin, bmax, base, step; // see the top of the file
};
using Counts = std::map<std::size_t, Numerator>; // coordinate -> its numerator

// Every score 0 on every input, average-hard, causal, and its outputs not
// all equal (else it is an ordinary head with one output).
bool is_uniform(const Head &head, const std::vector<Vector> &S, const std::vector<Vector> &B);

// The coordinates a uniform head writes, as count coordinates; rejects
// (at `where`) when one is not 0 before, or another head or the layer's
// feed-forward sublayer touches it.
void add_counts(const Layer &layer, std::size_t h, const std::vector<Vector> &S,
                const std::vector<Vector> &B, Counts &counts, const std::string &where);

// Rejects any use of a count coordinate other than a counting head's query
// (average-hard, causal or strict, query and key reading no feature).
void check_count_reads(const Layer &layer, const Counts &counts,
                       const std::set<std::size_t> &features, const std::string &where);

bool reads_count(const Matrix &w, const Counts &counts);

// The least gap of a counting head over every word up to n (nullopt: no
// two different scores ever), rejecting a possible tie of different values.
std::optional<Rational> counting_gap(const Head &head, const std::vector<Vector> &S,
                                     const std::vector<Vector> &B, const Counts &counts,
                                     std::size_t n, bool bos, const std::string &where);

} // namespace tempcert::check
