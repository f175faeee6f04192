// Inverse-temperature bounds from gaps: Lemma GT (docs/semantics.md,
// proofs/lemma-gt.md) and the per-input profile threshold (docs/semantics.md,
// proofs/profile-bound.md).
#pragma once

#include "tempcert/gap.hpp"

#include <optional>
#include <string>

namespace tempcert {

// beta_gap(N, gamma, eps) = ln((N-1)(1-eps)/eps) / gamma, enclosed, with a
// rational upper bound and the matching temperature lower bound.
struct GapBound {
    bool trivial = false;         // (N-1)(1-eps)/eps <= 1 or gamma infinite: any beta > 0 works
    Rational argument;            // (N-1)(1-eps)/eps, exact
    std::optional<Interval> beta; // enclosure of beta_gap (absent when trivial)
    Rational beta_up;  // >= beta_gap: the upper end rounded up to 30 decimals (0 if trivial)
    std::string exact; // "ln(297)/2"
    std::string beta_decimal_up; // beta_up to 12 significant digits, rounded up
    std::string
        tau_decimal_down; // 1/beta_up to 12 significant digits, rounded down ("inf" if trivial)
};

// The one policy for a trivial bound (no head needs a beta): the
// beta certified in its place is 1, and it prints as "0".
Rational beta_to_certify(const GapBound &b);  // beta_up, or 1 when trivial
std::string beta_shown_up(const GapBound &b); // beta_decimal_up, or "0" when trivial

// Requires 0 < eps < 1. gamma nullopt means +infinity. N <= 1 is trivial.
GapBound lemma_gt(std::size_t N, const std::optional<Real> &gamma, const Rational &eps, Prec prec);

// The model's beta_gap: the largest over heads of lemma_gt(N_h, gamma_h, eps).
GapBound model_beta_gap(const GapReport &gaps, const Rational &eps, Prec prec);

// The profile threshold of one query (docs/semantics.md, proofs/profile-bound.md):
// the root beta* of X(beta) = sum_j exp(-beta d_j) = k eps / (1 - eps), where
// d_j > 0 are the gaps from the maximum to the positions outside the
// maximising set and k = |M|. Returned as a bracket [lo, hi] with
// X(lo) > c and X(hi) <= c certified (gaps_x_at_most; lo = hi = 0 when X(0) <= c),
// hi - lo <= rel * hi.
struct Bracket {
    Rational lo, hi;
};
Bracket profile_threshold(const std::vector<Rational> &d, std::size_t k, const Rational &eps,
                          const Rational &rel, Prec prec);

// The gaps of one query grouped by value: X(beta) = sum over distinct gaps g
// of count(g) exp(-beta g), one exponential per distinct gap instead of one
// per position (a query at position 1000 has about 1000 gaps, often of two
// or three values). Sorted by gap, counts positive.
struct GapCount {
    Rational gap;
    std::size_t count;
};
std::vector<GapCount> group_gaps(std::vector<Rational> d);
// X(beta) <= c, decided first in outward-rounded doubles (the filter of
// proofs/double-filter.md), else by MPFI from `prec` up to 8 prec; Unknown
// when X(beta) and c cannot be separated there.
Tri gaps_x_at_most(const std::vector<GapCount> &gaps, const Rational &beta, const Rational &c,
                   Prec prec);
// profile_threshold on grouped gaps. `above` is a beta the caller has
// certified to have X(above) > c (the threshold lies above it): the
// bisection starts there instead of at 0.
Bracket profile_threshold(const std::vector<GapCount> &gaps, std::size_t k, const Rational &eps,
                          const Rational &rel, Prec prec, const Rational &above = 0);

// Folds one query's gaps into the bracket of a maximum of thresholds:
// returns the query's bracket when its threshold may exceed `bound.hi` or
// lie below `bound.lo` undecided, and nothing when it certainly lies in
// [0, bound.lo] or in [bound.lo, bound.hi] (the maximum's bracket stays as
// it is: its lower end keeps its witness, its upper end bounds this query).
// Two sums of exponentials decide most queries of a long scan.
std::optional<Bracket> query_threshold_beyond(const std::vector<GapCount> &gaps, std::size_t k,
                                              const Rational &eps, const Rational &rel, Prec prec,
                                              const Bracket &bound);

// Profile bound of each head over all words up to n (exact hard scores), the
// maximum over every query of its threshold, with the word that attains it.
struct HeadProfile {
    std::size_t layer = 0, head = 0;
    Bracket bound; // {0, 0} when no query needs beta > 0
    std::optional<Witness> witness;
};
struct ProfileReport {
    std::vector<HeadProfile> heads;
    Bracket bound; // over all heads
    // The head with a witness whose bound reaches highest (the first among
    // equals): its witness attains the model's bound; nullptr if none.
    const HeadProfile *attaining() const;
};
ProfileReport profile_bound_plain(const Model &m, std::size_t n, const Rational &eps,
                                  const Rational &rel, const Limits &limits,
                                  const PrecisionPolicy &policy);

// Decimal text of a positive rational with `sig` significant digits, rounded
// up or down.
std::string decimal_significant(const Rational &q, int sig, bool up);
// The same, in scientific notation ("8.08482e-247") for positive numbers
// below 1e-4 or from 1e9 on, where the plain decimal would be long.
std::string short_significant(const Rational &q, int sig, bool up);

// Smallest rational with `digits` decimals >= x (up) or <= x (down).
Rational round_decimal(const Rational &x, int digits, bool up);

} // namespace tempcert
