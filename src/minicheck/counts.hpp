// Count coordinates in layerwise certificates (proofs/layerwise.md,
// "Counting heads"), re-derived by the small checker. A uniform head
// (scores constant, average-hard, causal) writes at position i the average
// z_c / N(i), N(i) = i + [BOS], of numerators z_c = b + v_1 + ... + v_i in
// [bmin + i vmin, bmax + i vmax] and in the class b0 + i vmin modulo
// `step`; a counting head, whose query reads such coordinates, has score
// differences (N a + sum_c g_c z_c)/N whose least nonzero value is found
// on that lattice, at the integer points nearest its root.
#pragma once

#include "value_gap.hpp"

#include <map>
#include <set>

namespace minicheck {
struct Numerator {
    Q vmin, vmax; // a real position's contribution, over S
    Q bmin, bmax; // BOS's, over B (0 without BOS)
    Q base, step; // BOS's first value; the gcd of the differences
};
using Counts = std::map<std::size_t, Numerator>; // coordinate -> numerator

// Constant scores, average-hard, causal, and outputs that differ.
bool uniform(const Head &head, const std::vector<Vec> &S, const std::vector<Vec> &B,
             std::size_t width);

// The coordinates uniform head h writes, as count coordinates; rejects one
// that is not 0 before the head or that another head or the sublayer touches.
void add_counts(const Layer &layer, std::size_t h, const std::vector<Vec> &S,
                const std::vector<Vec> &B, Counts &counts, const std::string &path);

bool reads_counts(const Mat &w, const Counts &counts);

// Rejects every use of a count coordinate but a counting head's query
// (average-hard, causal or strict, its query and key reading no feature).
void check_count_reads(const Layer &layer, const Counts &counts,
                       const std::set<std::size_t> &features, const std::string &path);

// A counting head's least gap over words of length up to n (none: no two
// scores ever differ); rejects a possible tie between different values.
std::optional<Q> counting_gap(const Head &head, const std::vector<Vec> &S,
                              const std::vector<Vec> &B, const Counts &counts, std::size_t n,
                              bool bos, const std::string &path);
} // namespace minicheck
