// The tight bracket beyond enumeration for multi-layer models
// (proofs/tight-bracket.md, "Beyond enumeration"): beta_hi from the
// layerwise method (exact rounding, else the perturbation argument), beta_lo
// (tv) from layer 1 alone, whose soft weights the whole model shares: its
// symbolic tight bracket's lower end (over words up to 1024 long, which are
// words up to n) is refuted by a named word, and that word refutes the whole
// model at that beta.
#include "tempcert/certify.hpp"
#include "tempcert/error.hpp"
#include "tempcert/layerwise.hpp"
#include "tempcert/method.hpp"
#include "tempcert/perturbation.hpp"
#include "tempcert/symbolic.hpp"

namespace tempcert {

namespace {

constexpr std::size_t kLowerEndLength = 1024;

// The least head gap over the layers' value sets (exact rounding applies).
std::optional<Real> least_layer_gap(const LayerwiseResult &lw, Prec prec) {
    std::optional<Real> least;
    for (const auto &layer : lw.layers)
        for (const auto &h : layer.heads)
            if (h.min_gap && (!least || less(*h.min_gap, *least, prec) == Tri::True))
                least = h.min_gap;
    return least;
}

// How the upper end was certified, in the note's words.
const char *upper_text(LayersMethod used) {
    return used == LayersMethod::Perturbation ? "the perturbation argument"
                                              : "the layerwise method with exact rounding";
}

// The upper end and the method that certified it, or Undecided naming both;
// `least_gap` from the layerwise method when exact rounding applies. With
// exact rounding the upper end is each layer's need: the sharper of Lemma
// GT at its least gap and its profile bound over its value set
// (proofs/layerwise.md, "The sharper per-layer need").
Rational certified_upper(const Model &m, const CertifyOptions &o, const Rational &rel,
                         LayersMethod &used, std::optional<Real> &least_gap) {
    LayersChoice choice = choose_layers_method(m, o.n, o.eps, o.limits, true);
    const LayerwiseResult &lw = choice.layerwise;
    if (choice.method == LayersMethod::ExactRounding) {
        least_gap = least_layer_gap(lw, o.precision.start);
        LayerwiseVerdict v = layerwise_verdict(lw, BetaSpec::constant(lw.profile_up), o.n,
                                               o.criterion, o.precision.start);
        if (v.verdict == Verdict::Certified) {
            used = LayersMethod::ExactRounding;
            return lw.profile_up;
        }
    }
    // exact rounding applies but does not certify its own beta (a read-out
    // it cannot compute exactly): the perturbation argument may still
    if (!choice.perturbation) choice.perturbation.emplace(m, o.n, o.limits);
    const PerturbationArgument &arg = *choice.perturbation;
    if (!arg.applies())
        throw Undecided("tight: beyond enumeration neither layerwise argument applies (exact "
                        "rounding: " +
                        (lw.applies ? "does not certify its own beta" : lw.failure) +
                        "; perturbation bounds: " + arg.failure() + ")");
    std::optional<Rational> beta =
        arg.find_beta(o.eps, o.criterion, o.precision.start, o.limits, rel);
    if (!beta) throw Undecided("tight: the perturbation bounds close at no beta up to 2^64");
    used = LayersMethod::Perturbation;
    return *beta;
}

// Which end may be loose, and why: each is what its method can show, and
// the true tight beta lies between them.
std::string why_not_converged(LayersMethod used, std::size_t lower_length, bool refuted) {
    std::string upper =
        used == LayersMethod::Perturbation
            ? "the upper end is the perturbation argument's, which bounds each head's TV from "
              "its least gap less twice how far soft scores can move (proofs/perturbation.md)"
            : "the upper end is each layer's need over its value set (its profile bound, or "
              "Lemma GT at its least gap where that is sharper; proofs/layerwise.md), which "
              "counts every sequence of the layer's values, more than the words produce";
    std::string lower =
        refuted ? "the lower end is refuted at layer 1 alone, on words up to " +
                      std::to_string(lower_length) +
                      ": refuting words of the later layers are not searched, so the model may "
                      "need more"
                : "no lower end was refuted";
    return "not converged, either end may be loose: " + upper + "; " + lower;
}

} // namespace

TightResult tight_by_layers(const Model &m, const CertifyOptions &o, const Rational &rel) {
    TightResult t;
    t.kind = BracketKind::Bracket;
    t.gaps.method = GapMethod::Layerwise;
    LayersMethod used = LayersMethod::Neither;
    t.beta_hi = certified_upper(m, o, rel, used, t.gaps.min_gap);
    t.beta_lo = 0;
    t.note = std::string("beta_hi certified by ") + upper_text(used) + ", no enumeration";
    if (o.criterion != Criterion::Tv) {
        t.note += "; no lower end refuted (beyond enumeration only tv has one: layer 1 alone)";
        return t;
    }
    Model first = m;
    first.layers.resize(1);
    std::string why_not;
    if (!symbolic_applies(first, why_not)) {
        t.note += "; no lower end refuted (layer 1: " + why_not + ")";
        return t;
    }
    // layer 1's profile scan examines every length when its masks look
    // forward or its features read n (seconds at 1000, hours at 10^4): a
    // witness of length at most 1024 is a word of length at most n as well
    CertifyOptions short_words = o;
    short_words.n = std::min<std::size_t>(o.n, kLowerEndLength);
    TightResult one = tight_symbolic(first, short_words, rel);
    if (one.lo_witness && one.beta_lo < t.beta_hi) {
        t.beta_lo = one.beta_lo;
        t.lo_witness = one.lo_witness; // layer 1's weights are the whole model's
        t.note += "; beta_lo refuted at layer 1, whose tight beta up to n = " +
                  std::to_string(short_words.n) + " is in [" +
                  decimal_significant(one.beta_lo, 9, false) + ", " +
                  decimal_significant(one.beta_hi, 9, true) +
                  "] (symbolic, proofs/tight-bracket.md)";
    }
    t.converged = t.beta_hi - t.beta_lo <= rel * t.beta_hi;
    if (!t.converged)
        t.note += "; " + why_not_converged(used, short_words.n, t.lo_witness.has_value());
    return t;
}

} // namespace tempcert
