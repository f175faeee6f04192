// `tight --every-n` for multi-layer models whose rounding is exact
// (proofs/every-n.md, Theorem L): the layerwise argument's value sets do
// not depend on the length, so each layer needs the supremum over every
// length of its heads' virtual single-layer models, which version 1 or
// Theorem T brackets. The lower end is the whole model's tight bracket at
// --n, refuted by a named word.
#include "every_n_layers.hpp"
#include "tempcert/error.hpp"
#include "tempcert/layerwise.hpp"

#include <stdexcept>

namespace tempcert {

bool every_n_by_layers(const Model &m) {
    for (std::size_t l = 1; l < m.layers.size(); ++l)
        if (!m.layers[l].heads.empty()) return true;
    return false;
}

} // namespace tempcert

namespace tempcert::every_n {

namespace {

// The length at which the value sets and the finite checks are computed:
// they are the same at every length (Theorem L), and the symbolic gap
// analysis run there costs little.
constexpr std::size_t kValueSetLength = 16;

// sup_m tight(m) of one head's virtual model, or Undecided naming the head
// (its name says which) when no constant bounds it or it is out of scope.
Bracket virtual_sup(const Model &v, const CertifyOptions &o, const Rational &rel) {
    EveryNResult r;
    try {
        r = tight_every_n(v, o, rel, false);
    } catch (const Undecided &e) {
        // its own "tight --every-n: " prefix dropped: the caller adds one
        std::string why = e.what();
        if (why.rfind("tight --every-n: ", 0) == 0) why.erase(0, 17);
        throw Undecided("by layers: " + v.name + ": " + why);
    }
    if (!r.bounded)
        throw Undecided("by layers: " + v.name + " needs a beta that grows like " +
                        to_string(r.growth_rate) +
                        " ln n, so no constant beta serves every length");
    return Bracket{r.beta_lo, r.beta_hi};
}

LayerwiseResult layers_for_every_n(const Model &m, const CertifyOptions &o,
                                   const VirtualHeadSup &sup) {
    if (o.criterion != Criterion::Tv)
        throw Undecided("every-n brackets the tv criterion's temperature (--criterion tv)");
    LayerwiseResult lw = certify_layerwise(m, kValueSetLength, o.eps, o.limits, false, &sup);
    if (!lw.applies)
        throw Undecided("the model has heads past layer 1 and the layerwise argument with exact "
                        "rounding does not apply (" +
                        lw.failure + ") (proofs/every-n.md, Theorem L)");
    return lw;
}

} // namespace

std::vector<Model> virtual_models(const Model &m, const CertifyOptions &o) {
    std::vector<Model> models;
    const VirtualHeadSup collect = [&](const Model &v) {
        models.push_back(v);
        return Bracket{0, 0};
    };
    layers_for_every_n(m, o, collect);
    return models;
}

EveryNResult tight_every_n_layers(const Model &m, const CertifyOptions &o, const Rational &rel) {
    const VirtualHeadSup sup = [&](const Model &v) { return virtual_sup(v, o, rel); };
    LayerwiseResult lw;
    try {
        lw = layers_for_every_n(m, o, sup);
    } catch (const Undecided &e) {
        throw Undecided(std::string("tight --every-n: ") + e.what());
    }
    EveryNResult r;
    r.by_layers = true;
    for (const LayerwiseLayer &layer : lw.layers) {
        r.layer_sups.push_back(layer.has_profile ? layer.profile : Bracket{0, 0});
        r.beta_hi = std::max(r.beta_hi, r.layer_sups.back().hi);
    }
    // sup_n tight(n) >= tight(N) >= the lower end of its bracket
    const TightResult fin = tight_by_layers(m, o, rel);
    r.n_lower = o.n;
    // a word refuting above a bound certified for every length is a bug
    if (fin.beta_lo > r.beta_hi)
        throw std::logic_error("tight --every-n by layers: the lower end " +
                               to_string(fin.beta_lo) + " at n = " + std::to_string(o.n) +
                               " lies above the certified upper end " + to_string(r.beta_hi));
    r.beta_lo = fin.beta_lo;
    r.lo_witness = fin.lo_witness;
    r.converged = r.beta_hi - r.beta_lo <= rel * r.beta_hi && (fin.lo_witness || r.beta_lo == 0);
    r.note = "beta_hi: each layer's need for every length, the supremum over its heads' "
             "virtual models (every position any of the layer's hard values), with exact "
             "rounding (Theorem L); beta_lo: the tight bracket at n = " +
             std::to_string(o.n) + " (" + fin.note + ")";
    return r;
}

} // namespace tempcert::every_n
