// The tight bracket beyond enumeration for multi-layer models
// (proofs/tight-bracket.md, "Beyond enumeration"): beta_hi from the
// layerwise method (exact rounding, else the perturbation argument); beta_lo
// the larger of two refuted betas, each with its word: (tv) layer 1 alone,
// whose soft weights the whole model shares (its symbolic bracket's lower
// end over words up to n, or up to 1024 past --max-queries), and the whole model
// on short and pumped words (src/certify/tight_lower.cpp).
#include "../eval/first_layer_query.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/error.hpp"
#include "tempcert/layers_method.hpp"
#include "tempcert/layerwise.hpp"
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
                         LayersMethod &used, std::optional<Real> &least_gap,
                         std::optional<LayerwiseLayer> &first_layer) {
    LayersChoice choice =
        choose_layers_method(m, o.n, o.eps, o.limits, LayersQuestion::TightBracket);
    const LayerwiseResult &lw = choice.layerwise;
    if (const std::size_t l = detail::first_heads_layer(m); lw.applies && l < lw.layers.size())
        first_layer = lw.layers[l];
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
std::string why_not_converged(LayersMethod used, const std::string &lower_searched) {
    std::string upper =
        used == LayersMethod::Perturbation
            ? "the upper end is the perturbation argument's, which bounds each head's TV from "
              "its least gap less twice how far soft scores can move (proofs/perturbation.md)"
            : "the upper end is each layer's need over its value set (its profile bound, or "
              "Lemma GT at its least gap where that is sharper; proofs/layerwise.md), which "
              "counts every sequence of the layer's values, more than the words produce";
    std::string lower = lower_searched.empty()
                            ? "no lower end was refuted"
                            : "the lower end is the best refuting word among " + lower_searched +
                                  ": other words are not searched, so the model may need more";
    return "not converged, either end may be loose: " + upper + "; " + lower;
}

// The upper end's layerwise analysis found the profile bound of the first
// layer with heads (layer 1, or a later one after feed-forward sublayers
// alone) over words up to n, with a word attaining it: refuting its lower
// end there spares analysing the layer again (minutes at 10^4 where
// features read n), and past layer 1 it is the only lower end that does
// not evaluate the whole model on long words.
bool lower_end_from_upper(const Model &m, const CertifyOptions &o, const LayerwiseLayer &one,
                          TightResult &t, std::vector<std::string> &searched) {
    if (!one.profile_witness || one.profile_witness_lo <= t.beta_lo ||
        one.profile_witness_lo >= t.beta_hi)
        return false;
    Violation v;
    if (judge_first_layer_witness(m, *one.profile_witness,
                                  BetaSpec::constant(one.profile_witness_lo), o, v) != Tri::False)
        return false;
    const std::string layer = "layer " + std::to_string(one.profile_witness->layer);
    searched.push_back(layer + " alone on words up to " + std::to_string(o.n));
    t.beta_lo = one.profile_witness_lo;
    t.lo_witness = v;
    t.note += "; beta_lo refuted at " + layer +
              ", whose profile bound up to n = " + std::to_string(o.n) + " is in [" +
              decimal_significant(one.profile_witness_lo, 9, false) + ", " +
              decimal_significant(one.profile.hi, 9, true) +
              "] (from the upper end's layerwise analysis, proofs/tight-bracket.md)";
    return true;
}

// Layer 1 alone: its symbolic bracket's lower end over words up to n (or
// 1024 past --max-queries), refuted by the word it names; that word refutes the whole
// model (layer 1's soft weights are the whole model's). Raises t's lower end
// and says what was searched in `searched`.
void lower_end_of_layer_one(const Model &m, const CertifyOptions &o, const Rational &rel,
                            TightResult &t, std::vector<std::string> &searched) {
    if (m.layers.empty() || m.layers[0].heads.empty()) return; // nothing to refute there
    Model first = m;
    first.layers.resize(1);
    std::string why_not;
    if (!symbolic_applies(first, why_not)) {
        t.note += "; layer 1 alone gives no lower end (" + why_not + ")";
        return;
    }
    // Layer 1 over every word up to n: its need grows with n where its
    // features read n (compiled formulas with the bounded encoding), so
    // only words up to n show it. Its profile scan then examines every
    // length (minutes at 10^4); past --max-queries, words up to 1024, which
    // are words up to n as well.
    CertifyOptions short_words = o;
    std::optional<TightResult> full;
    std::string limited;
    try {
        full = tight_symbolic(first, o, rel);
    } catch (const LimitError &e) {
        if (o.n <= kLowerEndLength) throw;
        check_budget(o.limits); // --time-limit is spent: no fallback
        limited = std::string(" (up to n: ") + e.what() + ")";
        short_words.n = kLowerEndLength;
    }
    TightResult one = full ? *full : tight_symbolic(first, short_words, rel);
    searched.push_back("layer 1 alone on words up to " + std::to_string(short_words.n) + limited);
    if (!one.lo_witness || one.beta_lo >= t.beta_hi || one.beta_lo <= t.beta_lo) return;
    t.beta_lo = one.beta_lo;
    t.lo_witness = one.lo_witness;
    t.note += "; beta_lo refuted at layer 1, whose tight beta up to n = " +
              std::to_string(short_words.n) + " is in [" +
              decimal_significant(one.beta_lo, 9, false) + ", " +
              decimal_significant(one.beta_hi, 9, true) + "] (symbolic, proofs/tight-bracket.md)";
}

// The whole model on words: every word up to a short length, then pumped
// (src/certify/tight_lower.cpp). Raises t's lower end if it does better.
void lower_end_of_words(const Model &m, const CertifyOptions &o, const Rational &rel,
                        TightResult &t, std::vector<std::string> &searched) {
    std::optional<WordLowerEnd> w = lower_end_by_words(m, o, t.beta_hi, rel);
    if (!w) return;
    searched.push_back("the whole model on every word up to " + std::to_string(w->seed_length) +
                       (w->longest > w->seed_length
                            ? " and their runs pumped to length " + std::to_string(w->longest)
                            : std::string()));
    if (w->beta <= t.beta_lo) return;
    t.beta_lo = w->beta;
    t.lo_witness = w->witness;
    t.note += "; beta_lo refuted by the whole model on a word of length " +
              std::to_string(w->witness.word.size()) + " (proofs/tight-bracket.md)";
}

} // namespace

TightResult tight_by_layers(const Model &m, const CertifyOptions &o, const Rational &rel) {
    TightResult t;
    t.kind = BracketKind::Bracket;
    t.gaps.method = GapMethod::Layerwise;
    LayersMethod used = LayersMethod::Neither;
    std::optional<LayerwiseLayer> first_layer;
    t.beta_hi = certified_upper(m, o, rel, used, t.gaps.min_gap, first_layer);
    t.beta_lo = 0;
    t.note = std::string("beta_hi certified by ") + upper_text(used) + ", no enumeration";
    std::vector<std::string> searched;
    // layer 1 analysed again only where the upper end's word leaves the
    // bracket open (an average head's bound is not kept, for one)
    if (o.criterion == Criterion::Tv &&
        !(first_layer && lower_end_from_upper(m, o, *first_layer, t, searched) &&
          t.beta_hi - t.beta_lo <= rel * t.beta_hi))
        lower_end_of_layer_one(m, o, rel, t, searched);
    // words cost seconds at n >= 256: only when layer 1 left the bracket open
    if (t.beta_hi - t.beta_lo > rel * t.beta_hi) lower_end_of_words(m, o, rel, t, searched);
    std::string lower_searched;
    for (const auto &s : searched)
        lower_searched += (lower_searched.empty() ? "" : ", ") + s;
    t.converged = t.beta_hi - t.beta_lo <= rel * t.beta_hi;
    if (!t.converged) t.note += "; " + why_not_converged(used, t.lo_witness ? lower_searched : "");
    return t;
}

} // namespace tempcert
