// A head's least score gap over a value set (proofs/layerwise.md, step 1),
// the small checker's own derivation: every real position of a word of
// length 1..n may hold any element of S, BOS (position 0) holds `bos`, and
// the gap of a query is its maximum score minus the largest score below it.
// Scores must be affine in the key position, s = alpha + c j
// (proofs/symbolic-gap.md, "Affine scores"); then a query's offers are
// runs of positions per value, and each pair of runs is one linear function
// of the position difference, minimised in closed form.
#pragma once

#include "model.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>

namespace minicheck {
struct ValueGap {
    std::optional<Q> gap; // none: no query has two different scores
    bool tie = false;     // two positions can share the maximum with different values
};

// A head judged by its profile (proofs/profile-bound.md): every query
// configuration must keep TV <= eps at `lower_betas()[len]`, a lower bound
// of its layer's beta at each length len (index 0 unused). A function, so
// that the n bounds are made only once the budget allows the judgement.
struct ProfileRequest {
    std::function<std::vector<Q>()> lower_betas;
    Q eps;
    long prec_cap;
};

// Exit 3 if some head's scores are not affine in the key position or if
// more than `budget` query configurations would be examined (or, with
// `profile`, more than budget / 20 weights); with `profile`, rejects a
// query one of whose configurations is not shown within eps.
ValueGap value_gap(const Model &m, const Head &head, const std::vector<Vec> &S, const Vec *bos,
                   std::size_t n, std::uint64_t budget, const std::string &path,
                   const ProfileRequest *profile = nullptr);

// The real positions (1..len) a query at position i sees: [first, last],
// empty when first > last. Position 0 (BOS) is mask_allows(mask, i, 0).
std::pair<long, long> seen_positions(Mask mask, long i, long len);

// W x, exactly.
Vec mat_times(const Mat &w, const Vec &x);
Q dot(const Vec &a, const Vec &b);

mpz_class floor_of(const Q &x);
mpz_class ceil_of(const Q &x);
// x clamped into [lo, hi], as a machine integer.
long clamped(const mpz_class &x, long lo, long hi);

// delta + c k over the integers k of a range [lo, hi]: its least positive
// value (at the first k past the root -delta/c) and whether it is 0 there.
class Line {
  public:
    Line(const Q &delta, const Q &slope);
    std::optional<Q> least_positive(long lo, long hi) const;
    bool zero_in(long lo, long hi) const;

  private:
    Q delta, c;
    mpz_class below; // c > 0: floor of the root; c < 0: its ceiling
    bool integral_root = false;
};
} // namespace minicheck
