// Minimum gaps with prefix sharing (docs/semantics.md): a depth-first walk over the
// tree of words, each node evaluating only its newest position
// (src/eval/prefix_eval.hpp). Witnesses are those of the plain path: the
// first word in (length, lexicographic) order attaining a minimum attains it
// at its last position (else its shorter prefix would), so it is a node of
// the walk, and among equal gaps the walk keeps the word that comes first.
#include "../eval/prefix_eval.hpp"
#include "../eval/prefix_walk.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/gap.hpp"


namespace tempcert {

bool word_before(const Word &a, const Word &b) {
    if (a.size() != b.size()) return a.size() < b.size();
    return a < b;
}

std::optional<GapReport> min_gaps_prefix(const Model &m, std::size_t n, const Limits &limits) {
    if (!detail::PrefixEvaluator::applies(m)) return std::nullopt;
    check_word_budget(m.alphabet.size(), n, limits.max_words);
    GapReport report = empty_gap_report(m, n);
    report.method = "exhaustive-prefix";
    detail::PrefixEvaluator ev(m, kPrecStart, std::nullopt);
    Word w;
    const Prec prec = kPrecStart;
    auto visit = [&] {
        ++report.words;
        const auto &qs = ev.hard_queries();
        std::size_t idx = 0;
        for (std::size_t l = 0; l < m.layers.size(); ++l)
            for (std::size_t h = 0; h < m.layers[l].heads.size(); ++h, ++idx) {
                const QueryTrace &q = qs[idx];
                HeadGap &g = report.heads[idx];
                Witness here{w, l + 1, h + 1, q.query, q.argmax, q.runner_up};
                if (m.layers[l].heads[h].kind != AttnKind::Average && q.argmax.size() > 1 &&
                    !q.ties_share_value && (!g.tie || word_before(w, g.tie->word)))
                    g.tie = here;
                if (!q.gap) continue;
                Tri lt = g.min_gap ? less(*q.gap, *g.min_gap, prec) : Tri::True;
                bool same = g.min_gap && equal(*q.gap, *g.min_gap, prec) == Tri::True;
                if (lt == Tri::True || (same && word_before(w, g.witness->word))) {
                    g.min_gap = *q.gap;
                    g.witness = here;
                }
            }
        return true;
    };
    detail::walk_depth_first(
        m.alphabet.size(), n,
        [&](std::size_t s) {
            check_budget(limits);
            ev.push(static_cast<int>(s));
            w.push_back(static_cast<int>(s));
        },
        visit,
        [&] {
            w.pop_back();
            ev.pop();
        });
    for (const auto &g : report.heads)
        if (g.min_gap)
            report.min_gap = report.min_gap ? min(*g.min_gap, *report.min_gap, prec) : *g.min_gap;
    return report;
}

GapReport min_gaps_exhaustive(const Model &m, std::size_t n, const Limits &limits,
                              const PrecisionPolicy &policy) {
    if (auto r = min_gaps_prefix(m, n, limits)) return *r;
    return min_gaps_plain(m, n, limits, policy);
}

} // namespace tempcert
