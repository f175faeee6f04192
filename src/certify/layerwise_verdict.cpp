// The layerwise verdict (proofs/layerwise.md): does a given beta meet what
// every layer needs? One rule for `certify --method layerwise`, the main
// job and anything that writes a layerwise certificate (it
// lived in the command line, and the main job wrote certificates without
// it).
#include "tempcert/layerwise.hpp"

#include <algorithm>

namespace tempcert {

bool meets(const BetaSpec &beta, std::size_t l, std::size_t n, const Rational &need, Prec prec) {
    for (std::size_t len = 1; len <= (beta.uses_n() ? n : 1); ++len)
        if (beta.at_least(l, len, need, prec, std::max(prec, kPrecCapDefault)) != Tri::True)
            return false;
    return true;
}

LayerwiseVerdict layerwise_verdict(const LayerwiseResult &lw, const BetaSpec &beta, std::size_t n,
                                   Criterion criterion, Prec prec) {
    LayerwiseVerdict v;
    for (std::size_t l = 0; l < lw.layers.size() && v.shortfall.empty(); ++l) {
        const LayerwiseLayer &ly = lw.layers[l];
        if (ly.beta.trivial || meets(beta, l, n, ly.need(), prec)) continue;
        bool by_profile = ly.need() < ly.beta.beta_up;
        v.shortfall = "layer " + std::to_string(l + 1) + " needs beta >= " +
                      (by_profile ? decimal_significant(ly.profile.hi, 12, true) +
                                        " (its profile bound over its value set)"
                                  : ly.beta.beta_decimal_up + " (Lemma GT over its value set)");
    }
    if (v.shortfall.empty() && criterion != Criterion::Tv && !lw.readout_exact)
        v.shortfall = lw.readout_note;
    v.verdict = v.shortfall.empty() ? Verdict::Certified : Verdict::Undecided;
    // A certified claim is what a certificate states: heads whose own Lemma
    // GT bound beta does not meet are judged by their profile, which the
    // checker re-derives too (layerwise_certificate_json marks them).
    if (v.verdict != Verdict::Certified)
        v.certificate_shortfall = "the layerwise claim is undecided (" + v.shortfall + ")";
    return v;
}

} // namespace tempcert
