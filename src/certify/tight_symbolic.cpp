// The tight inverse temperature without enumeration (proofs/tight-bracket.md):
// for a model whose heads are all in layer 1, under tv, the tight beta is
// the largest per-query threshold over the score profiles words up to n
// produce (proofs/profile-bound.md, proofs/symbolic-gap.md). The symbolic
// analysis encloses it to `rel`; beta_hi is certified by the profile bound
// for every word up to n, and beta_lo is refuted by the word attaining the
// bound, evaluated exactly by certify_word (two-sided evidence, as
// tight_exhaustive gives).
#include "../eval/attention_ops.hpp"
#include "../eval/first_layer_query.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/error.hpp"
#include "tempcert/symbolic.hpp"

namespace tempcert {

// The tv criterion at the one first-layer query the profile bound names,
// evaluated exactly (hard) and in intervals (soft) by the evaluator's own
// primitives: a refuting word of length n costs O(n) memory, where a whole
// trace (every query of every head, certify_word) holds O(n^2) scores
// (8.3 GB for prev-is-a-bos at n = 10^4). Precision is raised as
// certify_word raises it.
Tri judge_first_layer_witness(const Model &m, const Witness &w, const BetaSpec &beta,
                              const CertifyOptions &o, Violation &v) {
    const std::size_t l = detail::first_heads_layer(m);
    if (w.layer != l + 1)
        throw std::logic_error("judge_first_layer_witness: the witness is not of the first layer "
                               "with heads");
    const Head &head = m.layers[l].heads.at(w.head - 1);
    for (Prec prec = o.precision.start;; prec *= 2) {
        if (prec > o.precision.cap) prec = o.precision.cap;
        Tri t = Tri::Unknown;
        try {
            detail::FirstLayerQuery q =
                detail::first_layer_query(m, w.word, w.head - 1, w.query, prec);
            QueryTrace soft =
                detail::soft_query(head, q.hard, q.x[q.query_index], q.keys, q.values, m.has_bos(),
                                   m.width, beta.at(l, w.word.size(), prec), prec);
            t = judge_query(soft, l + 1, w.head, o.eps, prec, w.word, v);
        } catch (const Undecided &e) {
            v = Violation{w.word, "precision", 0, 0, 0, Real(0L), Real(0L), e.what()};
        }
        if (t != Tri::Unknown || prec >= o.precision.cap) return t;
    }
}

TightResult tight_symbolic(const Model &m, const CertifyOptions &o, const Rational &rel) {
    SymbolicOptions so;
    so.eps = o.eps;
    so.rel = rel;
    so.precision = o.precision;
    so.limits = o.limits;
    SymbolicReport r = analyse_symbolic(m, o.n, so);
    refuse_value_ties(m, r.gaps, o);
    for (const auto &h : r.gaps.heads)
        if (h.tie) // eps >= 1/2: the profile bound does not model unique-hard ties
            throw Undecided("tight: layer " + std::to_string(h.layer) + " head " +
                            std::to_string(h.head) + " ties between different values on " +
                            format_word(h.tie->word, m.alphabet) +
                            ", which the symbolic profile bound does not cover (enumerate: a "
                            "smaller n or a larger --max-words)");
    TightResult t;
    t.gaps = r.gaps;
    t.beta_gap = model_beta_gap(r.gaps, o.eps, o.precision.start);
    t.profile = r.profile;
    t.beta_lo = r.profile.bound.lo;
    t.beta_hi = r.profile.bound.hi;
    t.kind = BracketKind::Threshold;
    t.converged = t.beta_hi - t.beta_lo <= rel * t.beta_hi;
    const HeadProfile *top = r.profile.attaining();
    if (!top || t.beta_lo <= 0) {
        t.note = "no query needs beta > 0";
        return t;
    }
    Violation v;
    Prec used = 0;
    BetaSpec lo = BetaSpec::parse(to_string(t.beta_lo), m.layers.size());
    if (top->witness->layer == 1 &&
        judge_first_layer_witness(m, *top->witness, lo, o, v) == Tri::False) {
        t.lo_witness = v;
        t.certify_runs = 1;
    } else if (certify_word(m, top->witness->word, lo, o, v, used) == Tri::False) {
        t.lo_witness = v;
        t.certify_runs = 1;
    } else {
        t.note = "the word attaining the profile bound was not refuted at beta_lo";
        t.converged = false;
    }
    t.note = t.note.empty() ? "symbolic profile bound (no enumeration); beta_hi certified by "
                              "proofs/profile-bound.md (3)"
                            : t.note;
    return t;
}

} // namespace tempcert
