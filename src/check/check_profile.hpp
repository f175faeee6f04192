// Profile judgements, re-derived by the checker (proofs/profile-bound.md):
// does every configuration of one query's offers keep TV <= eps at beta?
// The checker's own code; it shares nothing with src/gap/.
#pragma once

#include "tempcert/interval.hpp"
#include "tempcert/rational.hpp"

#include <map>
#include <string>
#include <vector>

namespace tempcert::check {

// Positions lo..hi, each offering alpha + c j for every alpha of `alphas`
// (sorted, distinct): a run of free positions (one alpha per element of the
// head's value set), or one fixed position (BOS, the query's own).
struct OfferGroup {
    Rational lo, hi;
    std::vector<Rational> alphas;
    bool operator==(const OfferGroup &) const = default;
};

// Everything one query compares: its groups, and c, the slope all offers
// share in the key position (the keys are affine in it).
struct QueryOffers {
    std::vector<OfferGroup> groups;
    Rational c;
    bool operator==(const QueryOffers &) const = default;
};

// Tri::True: every choice of one offer per position has TV <= eps against
// the uniform weights on its maximising set; False: one certainly has more
// (`maximum` is its largest score); Unknown: undecided at the cap.
struct ProfileFinding {
    Tri within = Tri::True;
    Rational maximum;
};

// floor and ceiling of an exact rational (shared with check_layerwise.cpp).
Rational floor_of(const Rational &x);
Rational ceil_of(const Rational &x);

class ProfileJudge {
  public:
    // beta: the least inverse temperature judged (TV does not grow with
    // beta, so every larger one is judged too); beta > 0.
    ProfileJudge(const Rational &beta, const Rational &eps, Prec start, Prec cap);
    ProfileFinding judge(const QueryOffers &q);
    const Rational &beta() const { return beta_; }

  private:
    struct AtMax; // one maximum's worst configuration
    Interval cached(std::map<Rational, Interval> &cache, const Rational &x,
                    Interval (*f)(const Interval &, Prec));
    Interval weight(const Rational &gap);
    Interval step_expm1(const Rational &s);
    Interval run_sum(const Rational &g0, const Rational &step, const Rational &count);
    AtMax at_max(const QueryOffers &q, const Rational &t);
    Tri exact_within(const QueryOffers &q, const Rational &t);
    Tri decide(const QueryOffers &q, const Rational &t);
    Interval group_bound(const QueryOffers &q, const Rational &alpha, const Rational &jl,
                         const Rational &jh);
    Tri within_from(const QueryOffers &q, const Rational &alpha, const Rational &jl,
                    const Rational &jh, Rational &worst);

    Rational beta_, eps_, allowance_; // allowance: eps / (1 - eps), one maximal position
    Prec prec_, cap_;
    // e^(-beta g) by g, and expm1(-beta s) by s; each emptied when it
    // reaches kCached entries (where features read n, gaps rarely repeat)
    static constexpr std::size_t kCached = 1 << 14;
    std::map<Rational, Interval> weights_, steps_;
};

} // namespace tempcert::check
