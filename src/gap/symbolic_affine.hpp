// Closed forms for one query of a first-layer head whose scores are affine in
// the key position (proofs/symbolic-gap.md, "Affine scores"): position j
// offers A(sigma) + b0 + c j, so the offers of a run of free positions are
// arithmetic progressions and the least gap and the ties of Lemma 1 are found
// in O(|Sigma|^2) exact operations per query instead of O(i |Sigma|).
#pragma once

#include "tempcert/limits.hpp"
#include "tempcert/model.hpp"

#include <optional>

namespace tempcert::detail {

// One symbol over a run of consecutive positions lo..hi: offers alpha + c j.
// Fixed positions (BOS, the query's own) are runs with lo == hi.
struct AffineRun {
    int symbol; // alphabet index, -1 for BOS
    long lo, hi;
    Rational alpha;
};

struct AffineQuery {
    Rational c;
    Rational L;                  // the largest least offer of a position (Lemma 1)
    std::vector<AffineRun> runs; // by position, then symbol; empty: no allowed position
    int least_symbol = 0;        // argmin A over the alphabet (least index among ties)
};

// The query at position i (symbol a, -1 for BOS) of a word of length len. A
// holds A(sigma) for the alphabet and, last, for BOS when bos.
AffineQuery affine_query(const std::vector<Rational> &A, const Rational &b0, const Rational &c,
                         Mask mask, std::size_t len, std::size_t i, int a, bool bos);

struct Pick {
    std::size_t position;
    int symbol;
};

// The maximum `top` (an offer >= L) and the offer `next` from another
// position; for a gap, `next` is the largest offer below `top` from a
// position other than top's and gap = top - next.
struct AffinePair {
    Rational gap;
    Pick top, next;
};

// The least gap of the query over all choices (Lemma 1 (b)); nullopt when no
// choice has a gap. Among equal gaps, the first pair of runs in run order.
// Both scans below compare every pair of runs (|Sigma|^2 for a large
// virtual alphabet): they poll `limits` between runs.
std::optional<AffinePair> affine_min_gap(const AffineQuery &q, const Limits &limits);

// Two positions offering one value >= L with different value classes
// (Lemma 1 (c)); value_class is indexed like A. nullopt: no such tie.
std::optional<AffinePair> affine_tie(const AffineQuery &q, const std::vector<int> &value_class,
                                     const Limits &limits);

} // namespace tempcert::detail
