// Layerwise certification of rounded models (docs/semantics.md; proofs/layerwise.md):
// per layer, the finite set of hard values each position can hold, the
// per-head gaps over that set (symbolic analysis), Lemma GT's beta, and the
// rounding check, composed into a guarantee for every word up to n without
// enumerating words.
#pragma once

#include "tempcert/beta.hpp"
#include "tempcert/bounds.hpp"
#include "tempcert/certify.hpp"

#include <algorithm>
#include <functional>
#include <string>

namespace tempcert {

struct LayerwiseLayer {
    std::vector<HeadGap> heads;         // gaps over the over-approximated inputs
    GapBound beta;                      // max over the layer's heads (trivial: none needed)
    std::size_t values = 0;             // size of the value set entering the layer
    std::size_t bos_values = 0;         // size of BOS's value set (0: no BOS)
    std::vector<std::size_t> perturbed; // coordinates the soft model perturbs after this layer
    // With profiles: the largest profile threshold (docs/semantics.md) of the layer's
    // heads over every sequence of its value set; TV <= eps at every query
    // for beta >= profile.hi, so it is a sufficient (and sharper) per-layer
    // beta. {0, 0}: not computed, or no query needs beta > 0.
    Bracket profile{0, 0};
    bool has_profile = false;
    // The first layer with heads, with profiles: a word of the model
    // attaining the profile bound of a head that is not an average head
    // (whose value-set analysis runs as leftmost) and its lower end, so that
    // a tight bracket refutes it without analysing the layer again
    // (src/certify/tight_layers.cpp).
    std::optional<Witness> profile_witness;
    Rational profile_witness_lo;
    // What beta this layer needs: the sharper of Lemma GT's bound and, where
    // computed, profile.hi (meaningful when !beta.trivial).
    Rational need() const {
        return has_profile ? std::min(beta.beta_up, profile.hi) : beta.beta_up;
    }
};

struct LayerwiseResult {
    bool applies = false;
    std::string failure; // why not: layer, coordinate or unit, and the box
    std::vector<LayerwiseLayer> layers;
    Rational beta_up; // the largest per-layer beta (rounded up); 1 when every layer is trivial
    // With profiles: the largest per-layer need min(Lemma GT, profile.hi).
    Rational profile_up;
    // The read-out reads no perturbed coordinate, so S_beta's read-outs equal
    // H's exactly (output and decision criteria hold too).
    bool readout_exact = false;
    std::string readout_note;
};

// For tolerance eps: at every beta >= layers[l].beta for layer l, S_beta
// meets tv with eps on every word of length 1..n, and when readout_exact
// computes exactly H's read-outs. `applies` false (with
// `failure`) when a precondition or check fails.
// `with_profile` adds each layer's profile bound (proofs/profile-bound.md;
// used by `theorem`, by `tight` beyond enumeration and by `certify` up to
// n = 64 or for a given --beta).
//
// Every length at once (proofs/every-n.md, Theorem L): with `every_n`, each
// head's profile is the bracket `every_n` gives for sup_m tight(m) of its
// virtual model (one per BOS value), in place of the profile at n; uniform
// and counting heads then fail (their value sets grow with the length).
// Each layer's need is then its profile.hi alone: Lemma GT at n holds at n.
using VirtualHeadSup = std::function<Bracket(const Model &virtual_model)>;
LayerwiseResult certify_layerwise(const Model &m, std::size_t n, const Rational &eps,
                                  const Limits &limits, bool with_profile = false,
                                  const VirtualHeadSup *every_n = nullptr);

// Whether layer l's beta is certainly >= need at every length up to n: an
// enclosure of beta that cannot be told from need is raised up to the
// default precision cap before the layer counts as short (an undecided
// comparison is never "met").
bool meets(const BetaSpec &beta, std::size_t l, std::size_t n, const Rational &need, Prec prec);

// The verdict of the layerwise argument at `beta` for every word of length
// 1..n (proofs/layerwise.md): certified when every layer's beta is certainly
// at least what that layer needs at every length (Lemma GT over its value
// set, or its profile bound where computed) and, for the output and
// decision criteria, the read-out is exact; else undecided with the
// shortfall. A certified verdict is what a certificate states: it marks
// the heads left to their profile (below their own Lemma GT bound), which
// the checker judges itself; `certificate_shortfall` says why an undecided
// one has no certificate.
struct LayerwiseVerdict {
    Verdict verdict = Verdict::Undecided;
    std::string shortfall;
    std::string certificate_shortfall;
};
LayerwiseVerdict layerwise_verdict(const LayerwiseResult &lw, const BetaSpec &beta, std::size_t n,
                                   Criterion criterion, Prec prec);

} // namespace tempcert
