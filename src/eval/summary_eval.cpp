// A word evaluated without its trace (eval --summary): the hard model
// exactly and the soft one in intervals, layer by layer and one query at a
// time, each query's scores and weights dropped once its output is added.
// A word of 10^4 symbols costs O(n d) memory here, where a trace keeps
// about n^2 weights per head (hundreds of gigabytes).
//
// The steps are run_layers' (layer_ops.cpp) with the same primitives
// (hard_query, soft_query), so every gap, TV and read-out equals the one a
// full trace holds at the same precision (tests/unit/test_eval_summary.cpp).
// A head's queries, O(n) each, are cut into a fixed number of blocks run on
// --threads threads and merged in order, so the result does not depend on
// the thread count.
#include "../parallel/task_pool.hpp"
#include "attention_ops.hpp"
#include "layer_ops.hpp"
#include "tempcert/error.hpp"
#include "tempcert/eval.hpp"

#include <algorithm>
#include <atomic>

namespace tempcert {

namespace {

using namespace detail;

Rational summary_lower_end(const Real &r) {
    return r.is_exact() ? r.exact() : r.interval()->lower_exact();
}

// The earliest least gap and largest TV win: one offered later replaces
// the one held only when its lower end is strictly smaller (larger). Queries
// offer theirs in order, and so do blocks of queries when merged in order.
void offer_gap(HeadExtremes &e, const Real &gap, std::size_t query) {
    if (e.least_gap && summary_lower_end(gap) >= summary_lower_end(*e.least_gap)) return;
    e.least_gap = gap;
    e.least_gap_query = query;
}

void offer_tv(HeadExtremes &e, const Real &tv, std::size_t query) {
    if (e.tv && summary_lower_end(tv) <= summary_lower_end(*e.tv)) return;
    e.tv = tv;
    e.tv_query = query;
}

void widen_tv_max(HeadExtremes &e, const Real &tv_max, Prec prec) {
    e.tv_max = e.tv_max ? max(*e.tv_max, tv_max, prec) : tv_max;
}

void note_gap(HeadExtremes &e, const QueryTrace &q) {
    if (!q.allowed.empty()) ++e.queries;
    if (q.gap) offer_gap(e, *q.gap, q.query);
}

void note_tv(HeadExtremes &e, const QueryTrace &q, Prec prec) {
    if (!q.tv) return;
    widen_tv_max(e, *q.tv, prec);
    offer_tv(e, *q.tv, q.query);
}

// A block's extremes merged into those of the blocks before it.
void merge_extremes(HeadExtremes &into, const HeadExtremes &block, Prec prec) {
    into.queries += block.queries;
    if (block.least_gap) offer_gap(into, *block.least_gap, block.least_gap_query);
    if (block.tv_max) widen_tv_max(into, *block.tv_max, prec);
    if (block.tv) offer_tv(into, *block.tv, block.tv_query);
}

// Blocks per head: enough to keep 64 threads busy, few enough that a block
// of a short word is not one query.
constexpr std::size_t kQueryBlocks = 64;

struct QueryBlock {
    HeadExtremes extremes;
    bool width_reached = true;
    std::optional<QueryTrace> first_false, first_unknown; // judged by a QueryVerdict
};

struct Pass {
    const Model &m;
    const Word &w;
    std::vector<Real> betas; // empty: hard only
    Prec prec;
    const SoftOptions &options;
    EvalSummary out;
    std::vector<RealVector> xh, xs;        // hard and soft activations
    const QueryVerdict *verdict = nullptr; // judges every soft query (if given)

    // One head's keys and values, hard and soft, and the layer's
    // half-updated activations its outputs are added to.
    struct HeadWork {
        std::size_t l, h; // 0-based
        const Head &hd;
        std::vector<RealVector> kh, vh, ks, vs;
        std::vector<RealVector> &half_h, &half_s;
    };

    // Query t of the head: its gap and TV noted in the block, its outputs
    // added. False when the verdict judged it False (the block stops).
    bool query(HeadWork &hw, std::size_t t, QueryBlock &block) {
        const bool bos = m.has_bos();
        QueryTrace qh = hard_query(hw.hd, position_of(t, bos), xh[t], hw.kh, hw.vh, w.size(), bos,
                                   m.width, hw.l + 1, hw.h + 1, prec);
        hw.half_h[t] = add_vectors(hw.half_h[t], qh.output, prec);
        note_gap(block.extremes, qh);
        if (betas.empty()) return true;
        QueryTrace qs = soft_query(hw.hd, qh, xs[t], hw.ks, hw.vs, bos, m.width, betas[hw.l], prec);
        if (!weights_narrower_than(qs.weights, options.target_width)) block.width_reached = false;
        hw.half_s[t] = add_vectors(hw.half_s[t], qs.output, prec);
        note_tv(block.extremes, qs, prec);
        if (!verdict) return true;
        const Tri judged = (*verdict)(hw.l + 1, hw.h + 1, qs);
        if (judged == Tri::Unknown && !block.first_unknown) block.first_unknown = qs;
        if (judged != Tri::False) return true;
        block.first_false = std::move(qs);
        return false;
    }

    void head(std::size_t l, std::size_t h, std::vector<RealVector> &half_h,
              std::vector<RealVector> &half_s) {
        HeadWork hw{l, h, m.layers[l].heads[h], {}, {}, {}, {}, half_h, half_s};
        head_keys_values(hw.hd, xh, prec, hw.kh, hw.vh);
        if (!betas.empty()) head_keys_values(hw.hd, xs, prec, hw.ks, hw.vs);
        const std::size_t count = xh.size(), blocks = std::min(count, kQueryBlocks);
        std::vector<QueryBlock> found(blocks);
        const Limits *budget = options.precision.budget;
        // the first block holding a query judged False: later blocks stop
        std::atomic<std::size_t> first_failing_block{blocks};
        detail::run_tasks(blocks, budget ? budget->threads() : 1, [&](std::size_t b) {
            for (std::size_t t = count * b / blocks; t < count * (b + 1) / blocks; ++t) {
                if (first_failing_block.load() < b) return;
                if (budget) check_budget(*budget);
                if (query(hw, t, found[b])) continue;
                std::size_t seen = first_failing_block.load();
                while (b < seen && !first_failing_block.compare_exchange_weak(seen, b)) {
                }
                return;
            }
        });
        merge_blocks(l, h, found);
    }

    // The blocks' findings in order: extremes, width, the first queries
    // judged False and (before it) Unknown.
    void merge_blocks(std::size_t l, std::size_t h, std::vector<QueryBlock> &found) {
        HeadExtremes &e = out.heads[l][h];
        for (QueryBlock &block : found) {
            merge_extremes(e, block.extremes, prec);
            if (!block.width_reached) out.soft->width_reached = false;
            if (block.first_unknown && !out.undecided && !out.failing)
                out.undecided = JudgedQuery{l + 1, h + 1, std::move(*block.first_unknown)};
            if (block.first_false && !out.failing)
                out.failing = JudgedQuery{l + 1, h + 1, std::move(*block.first_false)};
        }
    }

    void layer(std::size_t l) {
        std::vector<RealVector> half_h = xh, half_s = xs;
        for (std::size_t h = 0; h < m.layers[l].heads.size() && !out.failing; ++h)
            head(l, h, half_h, half_s);
        if (out.failing) return; // the word fails: nothing after this head is needed
        if (const auto &ffn = m.layers[l].ffn) {
            for (auto &v : half_h)
                v = apply_ffn(*ffn, v, prec);
            for (auto &v : half_s)
                v = apply_ffn(*ffn, v, prec);
        }
        xh = std::move(half_h);
        xs = std::move(half_s);
    }

    void run() {
        out.n = w.size();
        for (const auto &layer : m.layers)
            out.heads.emplace_back(layer.heads.size());
        xh = initial_activations(m, w, prec);
        if (!betas.empty()) {
            xs = xh;
            out.soft.emplace();
            out.soft->n = w.size();
            out.soft->bos = m.has_bos();
            out.soft->prec = prec;
        }
        for (std::size_t l = 0; l < m.layers.size() && !out.failing; ++l)
            layer(l);
        if (out.failing) return;
        out.hard.n = w.size();
        out.hard.bos = m.has_bos();
        out.hard.prec = prec;
        out.hard.outputs = readouts(m, xh, w.size(), m.has_bos(), prec);
        for (const auto &o : out.hard.outputs)
            if (o.classes.empty() ? o.accept == Tri::Unknown : !o.decided)
                throw Undecided("cannot decide the read-out at position " +
                                std::to_string(o.position));
        if (out.soft) out.soft->outputs = readouts(m, xs, w.size(), m.has_bos(), prec);
    }
};

EvalSummary summary_at(const Model &m, const Word &w, const std::optional<BetaSpec> &beta,
                       const SoftOptions &options, Prec prec,
                       const QueryVerdict *verdict = nullptr) {
    Pass pass{m, w, {}, prec, options, {}, {}, {}, verdict};
    if (beta)
        for (std::size_t l = 0; l < m.layers.size(); ++l)
            pass.betas.push_back(beta->at(l, w.size(), prec));
    pass.run();
    return std::move(pass.out);
}

} // namespace

EvalSummary evaluate_summary(const Model &m, const Word &w, const std::optional<BetaSpec> &beta,
                             const SoftOptions &options) {
    const PrecisionPolicy &p = options.precision;
    for (Prec prec = p.start;; prec *= 2) {
        if (prec > p.cap) prec = p.cap;
        try {
            EvalSummary s = summary_at(m, w, beta, options, prec);
            if (!s.soft || s.soft->width_reached || prec >= p.cap) return s;
        } catch (const Undecided &e) {
            if (prec >= p.cap)
                throw Undecided(std::string(e.what()) + " at " + std::to_string(prec) +
                                " bits (the precision cap, --prec-cap)");
        }
    }
}

EvalSummary evaluate_summary_at(const Model &m, const Word &w, const BetaSpec &beta, Prec prec,
                                const Limits *budget, const QueryVerdict *verdict) {
    SoftOptions options;
    options.target_width = Rational(1); // as evaluate_soft_at's default: no width asked
    options.precision.budget = budget;
    return summary_at(m, w, beta, options, prec, verdict);
}

} // namespace tempcert
