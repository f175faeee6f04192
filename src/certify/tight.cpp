// The tight inverse temperature (docs/semantics.md; proofs/tight-bracket.md): the
// least beta at which the criterion holds for every input up to n,
// bracketed by beta_hi (certified) and beta_lo (refuted by a concrete word),
// bisected until (hi - lo) <= rel * hi.
//
// Each end is established by enumerating every word (certify_auto: prefix
// sharing where it applies, else every word whole), never by extrapolation.
// When exactly one layer has heads, under tv, the criterion is monotone in
// beta (each query's TV decreases in beta, proofs/tight-bracket.md), so the
// bracket encloses a threshold; otherwise it is reported as a "bracket".
#include "tempcert/certify.hpp"
#include "tempcert/error.hpp"
#include "tempcert/symbolic.hpp"

#include <algorithm>
#include <functional>

namespace tempcert {

namespace {

// The midpoint of (lo, hi), exact.
Rational midpoint(const Rational &lo, const Rational &hi) {
    return (lo + hi) / 2;
}

// The bracket search of proofs/tight-bracket.md over one variable x: run(x)
// certifies at x, refutes(word, x, v) judges one word. Starts at `hi`,
// which is doubled until certified unless the caller already certified it.
struct Search {
    Rational lo, hi;
    std::optional<Violation> lo_witness;
    bool converged = false;
    std::string note;
};

Search search_beta(Rational hi, bool hi_certified,
                   const std::function<CertifyResult(const Rational &)> &run,
                   const std::function<bool(const Word &, const Rational &, Violation &)> &refutes,
                   const Rational &rel) {
    Search r;
    // Upper end: doubled until certified.
    for (int i = 0; !hi_certified; ++i) {
        CertifyResult c = run(hi);
        if (c.verdict == Verdict::Certified) break;
        if (c.verdict == Verdict::Undecided)
            throw Undecided("tight: cannot decide the criterion at beta = " + to_string(hi) + " (" +
                            (c.undecided ? c.undecided->detail : std::string()) + ")");
        if (i == 64)
            throw LimitError("tight: no beta up to " + decimal_significant(hi, 6, true) +
                             " satisfies the criterion (the model may not be simulable)");
        hi *= 2;
    }
    // Lower end: halve until a word refutes, or give 0 after 60 halvings.
    Rational lo = hi;
    bool found = false;
    for (int i = 0; i < 60; ++i) {
        lo /= 2;
        CertifyResult c = run(lo);
        if (c.verdict == Verdict::Refuted) {
            r.lo_witness = c.counterexample;
            found = true;
            break;
        }
        if (c.verdict == Verdict::Undecided) break;
        hi = lo; // certified at lo: a better upper end
    }
    if (!found) {
        r.lo = 0;
        r.hi = hi;
        r.converged = true;
        r.note = "every beta down to " + decimal_significant(hi, 6, false) +
                 " is certified; no refuting word was found";
        return r;
    }
    // Bisection. The refuting word's own threshold first, one word per step
    // (down to half the tolerance), then one enumeration at the least beta
    // that word did not refute: certified there ends the search, refuted
    // gives a word refuting a larger beta, whose threshold is sought in
    // turn. Only a certifying enumeration visits every word, and after a
    // word's bisection it ends the search; a refuting one stops at its first
    // failing word.
    while (hi - lo > rel * hi) {
        Rational wl = lo, wh = hi;
        if (!r.lo_witness) wh = midpoint(lo, hi); // a refutation without a word: plain bisection
        while (r.lo_witness && wh - wl > rel * wh / 2) {
            Rational mid = midpoint(wl, wh);
            Violation v;
            if (refutes(r.lo_witness->word, mid, v)) {
                wl = mid;
                r.lo_witness = v;
            } else {
                wh = mid;
            }
        }
        lo = wl;
        if (wh == hi) break; // hi is certified: converged
        CertifyResult c = run(wh);
        if (c.verdict == Verdict::Certified) {
            hi = wh;
        } else if (c.verdict == Verdict::Refuted) {
            lo = wh;
            r.lo_witness = c.counterexample;
        } else {
            r.note = "stopped: the criterion is undecided at beta = " + to_string(wh) +
                     " at the precision cap";
            break;
        }
    }
    r.lo = lo;
    r.hi = hi;
    r.converged = hi - lo <= rel * hi;
    return r;
}

} // namespace

void refuse_value_ties(const Model &m, const GapReport &gaps, const CertifyOptions &o) {
    if (o.criterion != Criterion::Tv || o.eps >= Rational(1, 2)) return;
    for (const auto &h : gaps.heads)
        if (h.tie)
            throw LimitError("tight: no beta meets tv with eps < 1/2: layer " +
                             std::to_string(h.layer) + " head " + std::to_string(h.head) + " (" +
                             to_string(h.kind) + ") ties on the word " +
                             format_word(h.tie->word, m.alphabet) +
                             " between positions with different values, where softmax splits "
                             "its weight equally at every beta (TV >= 1/2)");
}

std::string to_string(BracketKind k) {
    return k == BracketKind::Threshold ? "threshold" : "bracket";
}

TightResult tight_exhaustive(const Model &m, const CertifyOptions &o, const Rational &rel) {
    TightResult r;
    r.gaps = o.allow_prefix ? min_gaps_exhaustive(m, o.n, o.limits, o.precision)
                            : min_gaps_plain(m, o.n, o.limits, o.precision);
    r.beta_gap = model_beta_gap(r.gaps, o.eps, o.precision.start);
    std::string why_not;
    if (symbolic_applies(m, why_not)) {
        SymbolicOptions so;
        so.eps = o.eps;
        so.rel = rel / 4;
        so.precision = o.precision;
        so.limits = o.limits;
        r.profile = analyse_symbolic(m, o.n, so).profile;
    } else {
        try {
            r.profile = profile_bound_plain(m, o.n, o.eps, rel / 4, o.limits, o.precision);
        } catch (const Undecided &) {
            // irrational scores: the profile is extra evidence, the bracket below stands alone
        }
    }
    // Monotone in beta when one layer has heads: the layers before it are
    // head-less and exact, so its scores are the hard scores (tv criterion).
    std::size_t attention_layers = 0;
    for (const auto &layer : m.layers)
        attention_layers += !layer.heads.empty();
    bool monotone = attention_layers == 1 && o.criterion == Criterion::Tv;
    r.kind = monotone ? BracketKind::Threshold : BracketKind::Bracket;

    auto run = [&](const Rational &beta) {
        ++r.certify_runs;
        return certify_auto(m, BetaSpec::constant(beta), o);
    };
    auto refutes = [&](const Word &w, const Rational &beta, Violation &v) {
        Prec used = 0;
        return certify_word(m, w, BetaSpec::constant(beta), o, v, used) == Tri::False;
    };
    refuse_value_ties(m, r.gaps, o);
    // The upper end starts at beta_gap (or 1 when every gap is trivial).
    Search sr = search_beta(beta_to_certify(r.beta_gap), false, run, refutes, rel);
    r.beta_lo = sr.lo;
    r.beta_hi = sr.hi;
    r.lo_witness = sr.lo_witness;
    r.converged = sr.converged;
    r.note = sr.note;
    return r;
}

PerLayerTight tight_per_layer(const Model &m, const CertifyOptions &o, const Rational &rel) {
    if (o.criterion != Criterion::Tv)
        throw InputError("", "--per-layer",
                         "per-layer betas need --criterion tv (the output and decision criteria "
                         "read every layer at once)");
    PerLayerTight r;
    // Start from one beta for all layers, certified.
    TightResult joint = tight_exhaustive(m, o, rel);
    r.certify_runs = joint.certify_runs;
    r.joint_hi = joint.beta_hi;
    std::vector<Rational> current(m.layers.size(), joint.beta_hi);
    r.converged = joint.converged;
    // Then lower each layer's beta in turn, the others as they stand: every
    // vector accepted is certified on the whole model. A refutation holds at
    // the vector it was made at, so passes repeat until one moves no layer:
    // then every layer's lower end was refuted with the others at their
    // final betas. Past kPasses, each lower end names the vector it holds at.
    constexpr int kPasses = 4;
    r.layers.assign(m.layers.size(), LayerTight{});
    bool moved = true;
    for (int pass = 0; moved && pass < kPasses; ++pass) {
        moved = false;
        r.converged = joint.converged;
        for (std::size_t l = 0; l < m.layers.size(); ++l) {
            LayerTight &lt = r.layers[l];
            lt.layer = l + 1;
            lt.has_heads = !m.layers[l].heads.empty();
            if (!lt.has_heads) continue;
            auto vector_with = [&](const Rational &x) {
                std::vector<Rational> b = current;
                b[l] = x;
                return b;
            };
            auto run = [&](const Rational &x) {
                ++r.certify_runs;
                return certify_auto(m, BetaSpec::per_layer(vector_with(x)), o);
            };
            auto refutes = [&](const Word &w, const Rational &x, Violation &v) {
                Prec used = 0;
                return certify_word(m, w, BetaSpec::per_layer(vector_with(x)), o, v, used) ==
                       Tri::False;
            };
            // `current` is certified: the joint beta_hi, or the last accepted vector
            Search sr = search_beta(current[l], true, run, refutes, rel);
            lt.beta_lo = sr.lo;
            lt.beta_hi = sr.hi;
            lt.lo_witness = sr.lo_witness;
            lt.refuted_at = sr.lo_witness ? vector_with(sr.lo) : std::vector<Rational>{};
            lt.converged = sr.converged;
            lt.note = sr.note;
            r.converged = r.converged && sr.converged;
            moved = moved || sr.hi != current[l];
            current[l] = sr.hi;
        }
        ++r.passes;
    }
    r.stable = !moved;
    r.betas = BetaSpec::per_layer(current);
    ++r.certify_runs;
    r.whole = certify_auto(m, r.betas, o); // the final vector, once more
    return r;
}

} // namespace tempcert
