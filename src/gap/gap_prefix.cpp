// Minimum gaps with prefix sharing (docs/semantics.md): a depth-first walk over the
// tree of words, each node evaluating only its newest position
// (src/eval/prefix_eval.hpp). Witnesses are those of the plain path: the
// first word in (length, lexicographic) order attaining a minimum attains it
// at its last position (else its shorter prefix would), so it is a node of
// the walk, and among equal gaps the walk keeps the word that comes first.
#include "../distributed/ranks.hpp"
#include "../eval/prefix_eval.hpp"
#include "../eval/prefix_walk.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/gap.hpp"

#include <stdexcept>

namespace tempcert {

bool word_before(const Word &a, const Word &b) {
    if (a.size() != b.size()) return a.size() < b.size();
    return a < b;
}

namespace {

// One walk's least gaps and first ties per head (flat index), folded node by
// node as the plain path folds words.
struct GapPart {
    std::vector<HeadGap> heads;
    std::uint64_t words = 0;
};

// A hard evaluator holding the word w.
detail::PrefixEvaluator evaluator_at(const Model &m, const Word &w) {
    detail::PrefixEvaluator ev(m, kPrecStart, std::nullopt);
    for (int s : w)
        ev.push(s);
    return ev;
}

// The rule every fold keeps, whether of a node or of a part: the first tie
// in word order, and the least gap with the first word attaining it.
void keep_first_tie(HeadGap &g, const Witness &tie) {
    if (!g.tie || word_before(tie.word, g.tie->word)) g.tie = tie;
}

void keep_least_gap(HeadGap &g, const Real &gap, const Witness &where) {
    constexpr Prec prec = kPrecStart;
    Tri lt = g.min_gap ? less(gap, *g.min_gap, prec) : Tri::True;
    bool same = g.min_gap && equal(gap, *g.min_gap, prec) == Tri::True;
    if (lt == Tri::True || (same && word_before(where.word, g.witness->word))) {
        g.min_gap = gap;
        g.witness = where;
    }
}

// The newest queries of the node `w` (held by ev) into `part`.
void fold_node(const Model &m, const detail::PrefixEvaluator &ev, const Word &w, GapPart &part) {
    ++part.words;
    const auto &qs = ev.hard_queries();
    std::size_t idx = 0;
    for (std::size_t l = 0; l < m.layers.size(); ++l)
        for (std::size_t h = 0; h < m.layers[l].heads.size(); ++h, ++idx) {
            const QueryTrace &q = qs[idx];
            HeadGap &g = part.heads[idx];
            Witness here{w, l + 1, h + 1, q.query, q.argmax, q.runner_up};
            if (m.layers[l].heads[h].kind != AttnKind::Average && q.argmax.size() > 1 &&
                !q.ties_share_value)
                keep_first_tie(g, here);
            if (q.gap) keep_least_gap(g, *q.gap, here);
        }
}

// A later part into an earlier one, by the rule fold_node applies to nodes.
void merge_part(const GapPart &part, GapPart &into) {
    into.words += part.words;
    for (std::size_t idx = 0; idx < part.heads.size(); ++idx) {
        const HeadGap &p = part.heads[idx];
        if (p.tie) keep_first_tie(into.heads[idx], *p.tie);
        if (p.min_gap) keep_least_gap(into.heads[idx], *p.min_gap, *p.witness);
    }
}

// Depth-first below `w` (held by ev) down to length `depth`; the nodes at
// `depth` are the frontier when one is asked for.
void walk_below(const Model &m, const Limits &limits, detail::PrefixEvaluator &ev, Word &w,
                std::size_t depth, GapPart &part, std::vector<Word> *frontier) {
    if (w.size() >= depth) return;
    detail::walk_depth_first(
        m.alphabet.size(), depth - w.size(),
        [&](std::size_t s) {
            check_budget(limits);
            ev.push(static_cast<int>(s));
            w.push_back(static_cast<int>(s));
        },
        [&] {
            fold_node(m, ev, w, part);
            if (frontier && w.size() == depth) frontier->push_back(w);
            return true;
        },
        [&] {
            w.pop_back();
            ev.pop();
        });
}

// A part as bytes for the other MPI ranks: its word count and, per head, its
// witness and tie places; a gap that is not an exact rational (irrational
// features) is evaluated again from the witness word where read.
void pack_place(detail::ByteWriter &out, const Witness &x) {
    out.word(x.word);
    out.number(x.query);
    out.numbers(x.argmax);
    out.maybe_number(x.runner_up);
}

Witness unpack_place(detail::ByteReader &in, const HeadGap &g) {
    Witness x{in.word(), g.layer, g.head, 0, {}, std::nullopt};
    x.query = in.number();
    x.argmax = in.numbers();
    x.runner_up = in.maybe_number();
    return x;
}

std::string pack_part(const GapPart &part) {
    detail::ByteWriter out;
    out.number(part.words);
    for (const HeadGap &g : part.heads) {
        out.number(g.tie ? 1 : 0);
        if (g.tie) pack_place(out, *g.tie);
        out.number(g.witness ? 1 : 0);
        if (!g.witness) continue;
        pack_place(out, *g.witness);
        const bool exact = g.min_gap->is_exact();
        out.number(exact ? 1 : 0);
        if (exact) out.rational(g.min_gap->exact());
    }
    return out.take();
}

void unpack_part(const Model &m, detail::ByteReader &in, GapPart &part) {
    part.words = in.number();
    for (std::size_t idx = 0; idx < part.heads.size(); ++idx) {
        HeadGap &g = part.heads[idx];
        if (in.number()) g.tie = unpack_place(in, g);
        if (!in.number()) continue;
        g.witness = unpack_place(in, g);
        if (in.number()) {
            g.min_gap = Real(in.rational());
            continue;
        }
        // the newest queries of the witness word, as fold_node saw them at its node
        detail::PrefixEvaluator ev = evaluator_at(m, g.witness->word);
        const QueryTrace &q = ev.hard_queries().at(idx);
        if (!q.gap) throw std::logic_error("a task's gap witness has no gap here");
        g.min_gap = *q.gap;
    }
}

} // namespace

// Threads and MPI ranks as in certify_prefix.cpp: the words up to the split
// length here, each prefix at the split a task, parts merged in task order.
std::optional<GapReport> min_gaps_prefix(const Model &m, std::size_t n, const Limits &limits) {
    if (!detail::PrefixEvaluator::applies(m)) return std::nullopt;
    check_word_budget(m.alphabet.size(), n, limits.max_words);
    GapReport report = empty_gap_report(m, n);
    report.method = GapMethod::ExhaustivePrefix;
    const std::size_t split = detail::prefix_split_length(m.alphabet.size(), n);
    GapPart top{report.heads, 0};
    std::vector<Word> tasks;
    {
        Word w;
        detail::PrefixEvaluator ev = evaluator_at(m, w);
        walk_below(m, limits, ev, w, split, top, split < n ? &tasks : nullptr);
    }
    std::vector<GapPart> parts(tasks.size(), GapPart{report.heads, 0});
    detail::run_tasks_everywhere(
        tasks.size(), limits,
        [&](std::size_t i) {
            detail::PrefixEvaluator ev = evaluator_at(m, tasks[i]);
            Word w = tasks[i];
            walk_below(m, limits, ev, w, n, parts[i], nullptr);
        },
        [&](std::size_t i) { return pack_part(parts[i]); },
        [&](std::size_t i, detail::ByteReader &in) { unpack_part(m, in, parts[i]); });
    for (const auto &part : parts)
        merge_part(part, top);
    report.heads = std::move(top.heads);
    report.words = top.words;
    const Prec prec = kPrecStart;
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
