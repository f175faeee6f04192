// Folding one hard trace into per-head minimum gaps and tie checks (docs/semantics.md).
// The first word in enumeration order attaining a minimum is its witness, so
// every method reports the same witness.
#include "tempcert/error.hpp"
#include "tempcert/gap.hpp"

namespace tempcert {

GapReport empty_gap_report(const Model &m, std::size_t n) {
    GapReport r;
    for (std::size_t l = 0; l < m.layers.size(); ++l)
        for (std::size_t h = 0; h < m.layers[l].heads.size(); ++h) {
            HeadGap g;
            g.layer = l + 1;
            g.head = h + 1;
            g.kind = m.layers[l].heads[h].kind;
            g.mask = m.layers[l].heads[h].mask;
            g.max_allowed = max_allowed(g.mask, n, m.has_bos());
            r.heads.push_back(std::move(g));
        }
    return r;
}

namespace {

// a < b on gaps, certainly.
bool smaller(const Real &a, const Real &b, Prec prec) {
    return less(a, b, prec) == Tri::True;
}

Witness witness_of(const Word &w, std::size_t l, std::size_t h, const QueryTrace &q) {
    return Witness{w, l + 1, h + 1, q.query, q.argmax, q.runner_up};
}

} // namespace

void record_gaps(GapReport &report, const Trace &hard, const Word &w, const Model &m, Prec prec) {
    std::size_t k = 0;
    for (std::size_t l = 0; l < hard.layers.size(); ++l)
        for (std::size_t h = 0; h < hard.layers[l].heads.size(); ++h, ++k) {
            HeadGap &g = report.heads[k];
            bool unique = m.layers[l].heads[h].kind != AttnKind::Average;
            for (const auto &q : hard.layers[l].heads[h].queries) {
                if (unique && !g.tie && q.argmax.size() > 1 && !q.ties_share_value)
                    g.tie = witness_of(w, l, h, q);
                if (!q.gap) continue;
                if (!g.min_gap || smaller(*q.gap, *g.min_gap, prec)) {
                    g.min_gap = *q.gap;
                    g.witness = witness_of(w, l, h, q);
                } else if (less(*q.gap, *g.min_gap, prec) == Tri::Unknown) {
                    // irrational gaps in undecided order: enclose the minimum
                    g.min_gap = min(*q.gap, *g.min_gap, prec);
                }
            }
            if (g.min_gap)
                report.min_gap =
                    report.min_gap ? min(*g.min_gap, *report.min_gap, prec) : *g.min_gap;
        }
}

const char *to_string(GapMethod m) {
    switch (m) {
    case GapMethod::Exhaustive:
        return "exhaustive";
    case GapMethod::ExhaustivePrefix:
        return "exhaustive-prefix";
    case GapMethod::Symbolic:
        return "symbolic";
    case GapMethod::Layerwise:
        return "layerwise";
    }
    return "?";
}

GapReport min_gaps_plain(const Model &m, std::size_t n, const Limits &limits,
                         const PrecisionPolicy &policy) {
    check_word_budget(m.alphabet.size(), n, limits.max_words);
    GapReport report = empty_gap_report(m, n);
    report.method = GapMethod::Exhaustive;
    for_each_word(m.alphabet.size(), n, [&](const Word &w) {
        check_budget(limits);
        limits.progress(report.words, count_words(m.alphabet.size(), n));
        Trace t = evaluate_hard(m, w, policy);
        record_gaps(report, t, w, m, t.prec);
        ++report.words;
        return true;
    });
    return report;
}

} // namespace tempcert
