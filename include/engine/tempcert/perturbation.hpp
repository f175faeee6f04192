// The perturbation argument (proofs/perturbation.md): certifies
// general multi-layer models, whose sublayers do not restore hard values
// exactly, for every word up to n without enumerating words. Per layer it
// keeps the finite set of hard values a position can hold (as the
// exact-rounding layerwise method does) and a bound r_c on how far the soft
// activation is from the hard one at every coordinate c and position. From
// r it bounds every score's deviation e, each head's total variation
// through its effective gap gamma - 2e, each head's output deviation, and
// the feed-forward sublayer's (a ReLU unit that may change phase passes at
// most its pre-activation's deviation; a stable one is affine).
#pragma once

#include "tempcert/beta.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/gap.hpp"
#include "tempcert/limits.hpp"
#include "tempcert/model.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tempcert {

// One head at the betas of a run. All bounds are exact rationals, each an
// upper bound rounded up from its enclosure (the checker re-derives each
// one from the previous ones).
struct PerturbedHead {
    HeadGap gap;        // the hard least gap over the layer's value set
    Rational score_dev; // |soft score - hard score| <= score_dev, every query and key
    Rational tv;        // TV(soft weights, hard weights) <= tv at every query
    // Spread competitors (proofs/perturbation.md): keys' positional scores
    // step by at least `spread` > 0, at most `classes` keys per such step;
    // spread 0: competitors counted as N - 1.
    Rational spread;
    std::size_t classes = 0;
};

struct PerturbedLayer {
    std::size_t values = 0, bos_values = 0; // hard values entering the layer
    std::vector<PerturbedHead> heads;
    Vector radius;         // after the layer: |soft - hard| <= radius[c], every position
    std::size_t kinks = 0; // (hard value, ReLU unit) pairs that may change phase
};

struct PerturbationRun {
    Verdict verdict = Verdict::Undecided;   // Certified or Undecided (never Refuted)
    std::string shortfall;                  // why not certified: the layer, head or read-out
    std::vector<PerturbedLayer> layers;     // as far as the run got
    Rational readout_dev;                   // |soft read-out - hard| (class coordinates: each)
    std::optional<Rational> readout_margin; // decision: what readout_dev must stay below
    // The shortfall is one no beta removes (a decision read-out whose least
    // hard margin is 0, or degenerate): searching larger betas is futile.
    bool beta_independent = false;
};

// The beta-independent part: hard value sets, gaps, matrices' magnitudes.
struct PerturbationPlan;

class PerturbationArgument {
  public:
    // Analyses the model for words of length 1..n; `applies()` false (with
    // `failure()`) when a precondition fails (irrational features, a head
    // whose ties carry different values, more than --max-values hard values).
    PerturbationArgument(const Model &m, std::size_t n, const Limits &limits);

    bool applies() const { return plan_ != nullptr; }
    const std::string &failure() const { return failure_; }
    std::size_t n() const { return n_; }

    // The argument at `beta` for tolerance eps and the criterion: certified
    // when every check closes at every length 1..n.
    PerturbationRun run(const BetaSpec &beta, const Rational &eps, Criterion criterion, Prec prec,
                        const Limits &limits) const;

    // A constant beta at which run() certifies, searched by doubling from 1
    // and bisection to relative `rel`; nullopt when none up to 2^64, or at
    // once when a run's shortfall does not depend on beta (64
    // doublings once took 20 minutes); then `why`, if given, is that shortfall.
    std::optional<Rational> find_beta(const Rational &eps, Criterion criterion, Prec prec,
                                      const Limits &limits, const Rational &rel,
                                      std::string *why = nullptr) const;

  private:
    std::shared_ptr<const PerturbationPlan> plan_;
    std::string failure_;
    std::size_t n_ = 0;
};

} // namespace tempcert
