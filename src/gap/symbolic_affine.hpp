// Closed forms for one query of a first-layer head whose scores are affine in
// the key position (proofs/symbolic-gap.md, "Affine scores"): position j
// offers A(sigma) + b0 + c j, so the offers of a run of free positions are
// arithmetic progressions and the least gap and the ties of Lemma 1 are found
// in O(|Sigma|^2) exact operations per query instead of O(i |Sigma|); and
// the profile bound's closed forms (proofs/profile-bound.md, "Closed forms
// for affine scores").
#pragma once

#include "tempcert/bounds.hpp"
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
    Rational L; // the largest least offer of a position (Lemma 1)
    // L = runs[L_run].alpha + c L_position: the run and position offering it
    // (so that (L - alpha) / c is exactly an integer for that alpha)
    std::size_t L_run = 0;
    long L_position = 0;
    std::vector<AffineRun> runs; // by position, then symbol; empty: no allowed position
    int least_symbol = 0;        // argmin A over the alphabet (least index among ties)
};

// The query at position i (symbol a, -1 for BOS) of a word of length len. A
// holds A(sigma) for the alphabet and, last, for BOS when bos.
AffineQuery affine_query(const std::vector<Rational> &A, const Rational &b0, const Rational &c,
                         Mask mask, std::size_t len, std::size_t i, int a, bool bos);
// The same into q, reusing the storage of q's previous runs (a scan's
// queries, one after another).
void affine_query(AffineQuery &q, const std::vector<Rational> &A, const Rational &b0,
                  const Rational &c, Mask mask, std::size_t len, std::size_t i, int a, bool bos);

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

// The word attaining a profile, as symbolic.cpp's WordPlan takes it: every
// free position the query sees holds `fill`, `holder` (when set) the top.
struct ProfilePlan {
    int fill = 0;
    std::optional<Pick> holder;
};

// The profile bound of one query whose offers do not depend on the key
// position (c = 0: every free position offers the same A(sigma) + b0), folded
// into `bound` as symbolic.cpp's profile_of folds a query's view: the same
// maxima (offers >= L, descending), the same forced positions, holder and
// gaps (Lemma 2 of proofs/symbolic-gap.md), but counted per value instead of
// listed per position, so a query costs O(|Sigma|^2) instead of O(i |Sigma|).
// Returns the word of the last maximum that set the lower end (as
// profile_of: the first to give one when `have_word` is false, then each
// that raises it), nullopt when none did.
std::optional<ProfilePlan> affine_profile_constant(const AffineQuery &q, std::size_t i,
                                                   const Rational &eps, const Rational &rel,
                                                   Prec prec, Bracket &bound, bool have_word);

// True when every maximum of the query (each offer >= L) certainly has
// X(beta) <= eps/(1-eps), the bound of proofs/profile-bound.md for k = 1
// (a larger maximising set only raises it), so that no threshold of the
// query exceeds beta; false when that is not shown. For offers affine in
// the key position (c != 0): the maxima of one symbol over one run of
// positions are bounded together by the sum over every key offset they
// share, in closed form per gap segment (geometric runs of gaps), in
// O(|Sigma|^2) exponentials (proofs/profile-bound.md, "One bound for a
// symbol's maxima").
bool affine_profile_at_most(const AffineQuery &q, std::size_t i, const Rational &beta,
                            const Rational &eps);

} // namespace tempcert::detail
