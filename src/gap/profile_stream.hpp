// The profile bound's common case without building the profile: for one
// query of the symbolic scan and one candidate maximum `top`, whether
// X(beta) <= c is certain from the smallest gaps alone (proofs/
// profile-bound.md, "Computation": the doubles stop once the terms left,
// each at most the current one, cannot decide otherwise). The profile is
// the one symbolic.cpp's profile_of builds (Lemma 2 of
// proofs/symbolic-gap.md): positions whose least offer is `top` hold it
// (k of them), else one holder p keeps it, the one with the largest gap,
// and every other position takes its largest offer below `top`. Its gaps
// are visited in increasing order from the query's offers sorted once, so
// a maximum whose threshold is certainly at most beta costs a few terms
// instead of one pass over every position.
#pragma once

#include "tempcert/rational.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace tempcert {

class StreamedProfile {
  public:
    // `offers[s]`: position s's offers, ascending; the values must outlive
    // this object.
    explicit StreamedProfile(std::vector<std::vector<const Rational *>> offers);

    // True when X(beta) <= k eps / (1 - eps) is certain for maximum `top`
    // (beta > 0); false when not shown (the caller then takes the exact
    // path), including when no position is left outside the maximum.
    bool certainly_at_most(const Rational &top, const Rational &beta, const Rational &eps);

  private:
    std::vector<std::vector<const Rational *>> offers_;
    std::vector<std::pair<const Rational *, std::size_t>> desc_; // every offer, descending
    std::vector<const Rational *> least_;                        // least offers, ascending
    std::vector<std::uint32_t> seen_;                            // visit marks per position
    std::uint32_t mark_ = 0;
};

} // namespace tempcert
