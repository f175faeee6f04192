// Instance checks of the results in proofs/ (`tempcert theorem`): each
// confirms an instance with its slack or returns a counterexample.
#pragma once

#include "tempcert/bounds.hpp"
#include "tempcert/model.hpp"

#include <optional>
#include <vector>

#include <string>

namespace tempcert {

struct TheoremOutcome {
    bool confirmed = false;
    std::vector<std::string> lines; // what was established, one fact a line
    std::string counterexample;     // when not confirmed
};

// Lemma GT (proofs/lemma-gt.md) for N allowed positions, gap gamma and eps:
// TV <= eps at beta_gap rounded up; on the extremal profile (0, -gamma, ...,
// -gamma) TV = eps at beta_gap exactly (the interval contains eps) and
// TV > eps at 0.999 beta_gap. With `claimed`, checks instead that this beta
// gives TV <= eps on every profile with (N, gamma): the extremal one is the
// worst, so it is the counterexample when the claim fails.
TheoremOutcome check_gap_lemma(std::size_t N, const Rational &gamma, const Rational &eps,
                               const std::optional<BetaSpec> &claimed, Prec prec);

// proofs/profile-bound.md (2): for every head the profile bound is at most
// Lemma GT's beta_gap; reports the ratio.
TheoremOutcome check_profile_vs_gap(const Model &m, std::size_t n, const Rational &eps,
                                    const Limits &limits);

// ahat-simulation: beta from the model's minimum gap (Lemma GT; per layer
// over value sets for multi-layer rounded models, proofs/layerwise.md), or
// `claimed`, certifies every word up to n (exhaustive within --max-words,
// layerwise beyond). Throws Undecided when the multi-layer hypothesis fails.
TheoremOutcome check_ahat_simulation(const Model &m, std::size_t n, const Rational &eps,
                                     const std::optional<Rational> &claimed, const Limits &limits);

// ltl-unbounded-pe: the formula compiled with the unbounded encoding; one
// constant beta (claimed, or the largest layerwise need over ns) certifies
// every n in ns. A claim below some need is refuted by an exhaustive search.
TheoremOutcome check_ltl_unbounded_pe(const std::string &formula,
                                      const std::vector<std::string> &alphabet,
                                      const std::vector<std::size_t> &ns, const Rational &eps,
                                      const std::optional<Rational> &claimed, const Limits &limits);
// ... for every length (--every-n): the supremum of the tight beta over
// every n (tight --every-n), one constant beta (claimed, or that upper end
// rounded up) certified for every word of every length; a claim below the
// lower end refuted by its word; one inside the bracket undecided (exit 3).
TheoremOutcome check_ltl_unbounded_pe_every_n(const std::string &formula,
                                              const std::vector<std::string> &alphabet,
                                              const Rational &eps,
                                              const std::optional<Rational> &claimed,
                                              const Limits &limits);

// ltl-temperature-scaling: bounded encoding; scale * beta(n), beta(n) =
// n ln((n-1)(1-eps)/eps), certifies every n in ns; the tight beta(n)
// (exhaustive where small) and its fitted growth exponent.
TheoremOutcome check_ltl_temperature_scaling(const std::string &formula,
                                             const std::vector<std::string> &alphabet,
                                             const std::vector<std::size_t> &ns,
                                             const Rational &eps, const Rational &scale,
                                             const Limits &limits);

// counting-temperature: a counting formula (proofs/counting-construction.md);
// scale * beta(n), beta(n) = 2(n+1) ln(n(1-eps)/eps) (Lemma GT for the sign
// heads' gap 1/(2(n+1))), certifies every n in ns (layerwise); the tight
// beta(n) (exhaustive where small) and its fitted growth.
TheoremOutcome check_counting_temperature(const std::string &formula,
                                          const std::vector<std::string> &alphabet,
                                          const std::vector<std::size_t> &ns, const Rational &eps,
                                          const Rational &scale, const Limits &limits);

} // namespace tempcert
