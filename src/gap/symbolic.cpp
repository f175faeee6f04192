// Symbolic analysis of first-layer heads (docs/semantics.md; proofs/symbolic-gap.md).
//
// In layer 1, x_j = E(w_j) + P(j, n), so the score of a query q = W_Q x_i is
// separable: s_ij = A(w_j) + B(j) with A(sigma) = q . W_K E(sigma) and
// B(j) = q . W_K P(j, n). For a query at position i with symbol a, every
// other allowed key position j picks its symbol freely and offers the values
// A(sigma) + B(j); the query's own position offers A(a) + B(i), and BOS its
// fixed score. A word chooses one offer per position. With L the largest of
// the positions' least offers, a value t can be the maximum exactly when
// t >= L and some position offers it (Lemma 1 of the proof), and:
//  * the least gap with maximum t is t - r(t), r(t) the largest offer below
//    t from a position other than one holder p of t;
//  * a unique-hard tie between different values needs two positions offering
//    t whose value vectors W_V x_j differ;
//  * the largest profile threshold with maximum t puts every free position at
//    its largest offer below t and keeps the maximising set minimal (Lemma 2).
// Per query only the offers >= L and the best two offers below L (from
// distinct positions) are needed for the gap and the ties, so the work is
// O(i |Sigma|) comparisons per query and no sort of all offers; the profile
// bound, which needs every position's offer below each t, is O(i^2 |Sigma|).
// Witness words are built from the optimal choices and replayed through the
// exact hard evaluator before they are reported.
#include "tempcert/symbolic.hpp"
#include "../eval/attention_ops.hpp"
#include "../eval/first_layer_query.hpp"
#include "../eval/layer_ops.hpp"
#include "../parallel/task_pool.hpp"
#include "affine_features.hpp"
#include "critical_lengths.hpp"
#include "integer_scores.hpp"
#include "profile_stream.hpp"
#include "symbolic_affine.hpp"
#include "symbolic_affine_filter.hpp"
#include "tempcert/bounds.hpp"
#include "tempcert/error.hpp"
#include "tempcert/exact_vector.hpp"
#include "tempcert/mask.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <map>

namespace tempcert {

namespace {

using detail::allowed_positions;

struct Offer {
    Rational value;
    std::size_t position; // position number
    int symbol;           // alphabet index, -1 for BOS
};

// The positional rows as W x0 + j W dx (every feature affine in j at this
// length, affine_features.hpp), per matrix: the row at 0 and the step.
struct AffineRows {
    Vector q0, dq, k0, dk, v0, dv;
};

// W_Q, W_K, W_V applied to the embeddings and to the positional parts.
// Affine rows are kept as such, and their per-position rows (QP, KP, VP)
// filled only when a query needs them: the closed form reads the affine
// rows alone, and the n + 1 rows of each of n lengths were a tenth of a
// long scan with features that read n. Filling on first use is not
// thread-safe: tables shared between tasks are made with their rows.
class Tables {
  public:
    std::vector<Vector> QE, KE, VE; // [symbol], index |Sigma| = BOS
    std::size_t first = 0;          // the first position: 0 with BOS, else 1
    std::size_t n = 0;              // the last position
    std::optional<AffineRows> affine;

    // [position 0..n]; without BOS, 0 is empty
    const std::vector<Vector> &QP() const { return filled().qp_; }
    const std::vector<Vector> &KP() const { return filled().kp_; }
    const std::vector<Vector> &VP() const { return filled().vp_; }

    // The rows of positions first..n from the affine rows, exactly, polling
    // `limits` every 1024 positions (n reaches 10^7 in horizon).
    void fill_affine_rows(const Limits &limits) const;
    // Rows computed otherwise, position by position.
    void set_rows(std::vector<Vector> qp, std::vector<Vector> kp, std::vector<Vector> vp) {
        qp_ = std::move(qp);
        kp_ = std::move(kp);
        vp_ = std::move(vp);
        filled_ = true;
    }

  private:
    mutable std::vector<Vector> qp_, kp_, vp_;
    mutable bool filled_ = false;

    const Tables &filled() const {
        if (!filled_) fill_affine_rows(Limits{});
        return *this;
    }
};

void Tables::fill_affine_rows(const Limits &limits) const {
    auto fill = [&](const Vector &base, const Vector &step, std::vector<Vector> &rows) {
        rows.assign(n + 1, Vector{});
        for (std::size_t j = first; j <= n; ++j) {
            if (j % 1024 == 0) check_budget(limits);
            rows[j] = base;
            const Rational jq(static_cast<long>(j));
            for (std::size_t r = 0; r < step.size(); ++r)
                if (step[r] != 0) rows[j][r] += jq * step[r];
        }
    };
    fill(affine->q0, affine->dq, qp_);
    fill(affine->k0, affine->dk, kp_);
    fill(affine->v0, affine->dv, vp_);
    filled_ = true;
}

Vector exact_vector(const RealVector &r) {
    Vector out;
    out.reserve(r.size());
    for (const auto &x : r)
        out.push_back(x.exact());
    return out;
}

Vector plus(const Vector &a, const Vector &b) {
    Vector out(a);
    for (std::size_t c = 0; c < out.size(); ++c)
        out[c] += b[c];
    return out;
}

// The affine rows when every feature is affine in j at length n
// (affine_features.hpp): equal to evaluating each position, by linearity,
// without an expression evaluation per position.
bool affine_tables(const Model &m, const Head &head, std::size_t n, Tables &t) {
    std::optional<std::pair<Vector, Vector>> x = detail::affine_positions(m, n);
    if (!x) return false;
    check_length(m, n);
    t.affine = AffineRows{matvec(head.query, x->first), matvec(head.query, x->second),
                          matvec(head.key, x->first),   matvec(head.key, x->second),
                          matvec(head.value, x->first), matvec(head.value, x->second)};
    return true;
}

// Positional rows are computed in parallel chunks (threads from limits).
// Without `rows`, affine rows are filled on first use (one task's tables).
Tables tables(const Model &m, const Head &head, std::size_t n, const Limits &limits,
              bool rows = true) {
    // n + 1 rows of query, key and value entries: the tables' memory is
    // linear in n and bounded, like a model's, by --max-entries (an n of
    // 10^7 reached 1.7 GB before --time-limit stopped it; docs/reliability.md, Long steps obey
    // Ctrl-C)
    const double entries =
        static_cast<double>(n + 1) *
        static_cast<double>(head.query.size() + head.key.size() + head.value.size());
    if (entries > static_cast<double>(limits.max_entries)) {
        char approx[32];
        std::snprintf(approx, sizeof approx, "%.2g", entries);
        throw LimitError("the symbolic analysis of " + m.name + " at n = " + std::to_string(n) +
                         " keeps position tables of about " + approx +
                         " entries (n + 1 rows of query, key and value), more than the limit " +
                         std::to_string(limits.max_entries) + " (--max-entries)");
    }
    Tables t;
    t.first = m.has_bos() ? 0 : 1;
    t.n = n;
    const Prec p = kPrecStart;
    std::size_t k = m.alphabet.size();
    for (std::size_t s = 0; s <= k; ++s) {
        if (s == k && !m.bos) break;
        const Vector &e = m.embedding.at(s == k ? *m.bos : m.alphabet[s]);
        RealVector x(e.begin(), e.end());
        t.QE.push_back(exact_vector(matvec(head.query, x, p)));
        t.KE.push_back(exact_vector(matvec(head.key, x, p)));
        t.VE.push_back(exact_vector(matvec(head.value, x, p)));
    }
    if (affine_tables(m, head, n, t)) {
        if (rows) t.fill_affine_rows(limits);
        return t;
    }
    std::vector<Vector> QP(n + 1), KP(n + 1), VP(n + 1);
    const std::size_t chunk = 1024, chunks = n / chunk + 1;
    detail::run_tasks(chunks, n >= chunk ? limits.threads() : 1, [&](std::size_t c) {
        // 10^7 positions take seconds: within the run's budget (docs/reliability.md, Long steps
        // obey Ctrl-C)
        check_budget(limits);
        for (std::size_t j = c * chunk; j <= n && j < (c + 1) * chunk; ++j) {
            // position 0 exists only with BOS: a feature such as 1/j is not
            // evaluated there; errors name the feature
            // as the exhaustive path does (the kernel's initial_activation)
            if (j == 0 && !m.has_bos()) continue;
            // exact (the symbolic method takes rational models only): the
            // exact product, which skips the zero weights of sparse heads
            const Vector x =
                exact_vector(detail::initial_activation(m, Vector(m.width, Rational(0)), j, n, p));
            QP[j] = matvec(head.query, x);
            KP[j] = matvec(head.key, x);
            VP[j] = matvec(head.value, x);
        }
    });
    t.set_rows(std::move(QP), std::move(KP), std::move(VP));
    return t;
}

// One query configuration (length, position i, symbol a).
struct QueryView {
    std::size_t len = 0, query = 0;
    int query_symbol = 0;               // -1 for the BOS query
    std::vector<std::size_t> positions; // allowed, increasing
    std::vector<Rational> A;            // A(sigma), sigma in the alphabet; A[|Sigma|] = BOS
    std::vector<int> by_A;              // alphabet indices by A descending, then index
    int least_symbol = 0;               // argmin A (least index among ties)
    Rational L;
    std::vector<Offer> top;              // offers >= L, value descending, then position
    std::vector<Offer> below;            // best offers < L from two distinct positions
    std::vector<std::vector<Offer>> all; // per allowed position, ascending (profile only)
};

bool fixed_slot(const QueryView &qv, std::size_t j) {
    return j == 0 || j == qv.query;
}

// The fixed offer of the query's own position or BOS.
Offer fixed_offer(const QueryView &qv, const Tables &t, const Vector &q, std::size_t j,
                  std::size_t ksym) {
    if (j == 0) return {qv.A[ksym] + dot(q, t.KP()[0]), 0, -1};
    return {qv.A[static_cast<std::size_t>(qv.query_symbol)] + dot(q, t.KP()[j]), j,
            qv.query_symbol};
}

// Keeps, in `b`, the best offer below L and the best from another position.
void note_below(std::vector<Offer> &b, const Offer &o) {
    if (b.empty()) {
        b.push_back(o);
        return;
    }
    if (o.value > b[0].value) {
        if (o.position != b[0].position)
            b.insert(b.begin(), o);
        else
            b[0] = o;
    } else if (o.position != b[0].position && (b.size() < 2 || o.value > b[1].value)) {
        if (b.size() < 2)
            b.push_back(o);
        else
            b[1] = o;
    }
    if (b.size() > 2) b.resize(2);
}

// The symbols' offers A (BOS last) for query vector q, the free symbols by
// decreasing A, and the first symbol of least offer.
void order_symbols(QueryView &qv, const Tables &t, const Vector &q, std::size_t k) {
    for (std::size_t s = 0; s < t.KE.size(); ++s)
        qv.A.push_back(dot(q, t.KE[s]));
    for (std::size_t s = 0; s < k; ++s)
        qv.by_A.push_back(static_cast<int>(s));
    std::stable_sort(qv.by_A.begin(), qv.by_A.end(), [&](int x, int y) {
        return qv.A[static_cast<std::size_t>(x)] > qv.A[static_cast<std::size_t>(y)];
    });
    qv.least_symbol = qv.by_A.back();
    for (int s = static_cast<int>(k) - 1; s >= 0; --s)
        if (qv.A[static_cast<std::size_t>(s)] == qv.A[static_cast<std::size_t>(qv.least_symbol)])
            qv.least_symbol = s;
}

// The offers of free position j (positional part B_j): those >= L on top,
// the best below noted; every symbol's offer in qv.all when `full`.
void place_free_offers(QueryView &qv, std::size_t j, const Rational &Bj, bool full) {
    const Rational &amax = qv.A[static_cast<std::size_t>(qv.by_A.front())];
    Rational D = qv.L - Bj; // offer A + B >= L  iff  A >= D
    bool below_done = false;
    if (amax >= D || full)
        for (int sym : qv.by_A) {
            const Rational &as = qv.A[static_cast<std::size_t>(sym)];
            if (as >= D)
                qv.top.push_back({as + Bj, j, sym});
            else if (!below_done) {
                note_below(qv.below, {as + Bj, j, sym});
                below_done = true;
                if (!full) break;
            }
        }
    else
        note_below(qv.below, {amax + Bj, j, qv.by_A.front()});
    if (!full) return;
    std::vector<Offer> o;
    for (std::size_t sym = 0; sym < qv.by_A.size(); ++sym)
        o.push_back({qv.A[sym] + Bj, j, static_cast<int>(sym)});
    std::sort(o.begin(), o.end(), [](const Offer &x, const Offer &y) {
        return x.value < y.value || (x.value == y.value && x.symbol < y.symbol);
    });
    qv.all.push_back(std::move(o));
}

// W_Q x_i for the query at position i with symbol a (-1: BOS); k = |Sigma|.
Vector query_row(const Tables &t, std::size_t i, int a, std::size_t k) {
    return plus(a < 0 ? t.QE[k] : t.QE[static_cast<std::size_t>(a)], t.QP()[i]);
}

QueryView view(const Model &m, const Tables &t, const Head &head, std::size_t len, std::size_t i,
               int a, bool full) {
    QueryView qv;
    qv.len = len;
    qv.query = i;
    qv.query_symbol = a;
    std::size_t k = m.alphabet.size();
    qv.positions = allowed_positions(head.mask, i, len, m.has_bos());
    if (qv.positions.empty()) return qv;
    Vector q = query_row(t, i, a, k);
    order_symbols(qv, t, q, k);
    const Rational &amin = qv.A[static_cast<std::size_t>(qv.by_A.back())];
    // L: the largest least offer of a position (the maximum is at least L)
    std::vector<Rational> B(qv.positions.size());
    bool have_L = false;
    for (std::size_t s = 0; s < qv.positions.size(); ++s) {
        std::size_t j = qv.positions[s];
        Rational least = fixed_slot(qv, j) ? fixed_offer(qv, t, q, j, k).value
                                           : Rational(amin + (B[s] = dot(q, t.KP()[j])));
        if (!have_L || least > qv.L) qv.L = least;
        have_L = true;
    }
    for (std::size_t s = 0; s < qv.positions.size(); ++s) {
        std::size_t j = qv.positions[s];
        if (!fixed_slot(qv, j)) {
            place_free_offers(qv, j, B[s], full);
            continue;
        }
        Offer o = fixed_offer(qv, t, q, j, k);
        if (o.value >= qv.L)
            qv.top.push_back(o);
        else
            note_below(qv.below, o);
        if (full) qv.all.push_back({o});
    }
    std::sort(qv.top.begin(), qv.top.end(), [](const Offer &x, const Offer &y) {
        return x.value > y.value ||
               (x.value == y.value &&
                (x.position < y.position || (x.position == y.position && x.symbol < y.symbol)));
    });
    return qv;
}

// A word to build once a witness is final: chosen symbols at chosen
// positions, the least offer's symbol at other free allowed positions,
// symbol 0 elsewhere (realised only at the end: O(len) each).
struct WordPlan {
    std::size_t len = 0, query = 0;
    int query_symbol = 0, least_symbol = 0;
    std::vector<std::pair<std::size_t, int>> chosen;
};

WordPlan plan_of(const QueryView &qv, std::vector<std::pair<std::size_t, int>> chosen) {
    return {qv.len, qv.query, qv.query_symbol, qv.least_symbol, std::move(chosen)};
}

Word realise(const WordPlan &p, Mask mask, bool bos) {
    Word w(p.len, 0);
    if (p.query >= 1) w[p.query - 1] = p.query_symbol;
    for (std::size_t j : allowed_positions(mask, p.query, p.len, bos)) {
        if (j == 0 || j == p.query) continue;
        w[j - 1] = p.least_symbol;
    }
    for (const auto &[j, sym] : p.chosen)
        if (j != 0 && j != p.query) w[j - 1] = sym;
    return w;
}

struct Candidate {
    Rational gap;
    WordPlan plan;
};

// One first-layer query of `w` through the exact hard evaluator's own
// primitives (O(len), where evaluate_hard would evaluate every query).
QueryTrace replay(const Model &m, const Word &w, std::size_t head_index, std::size_t query) {
    return detail::first_layer_query(m, w, head_index, query, kPrecStart).hard;
}

Vector value_of(const Tables &t, const Offer &o, std::size_t ksym) {
    return plus(t.VE[o.symbol < 0 ? ksym : static_cast<std::size_t>(o.symbol)], t.VP()[o.position]);
}

// Minimum gap and ties of one query view; updates `best` and `tie`.
void gaps_and_ties(const QueryView &qv, const Tables &t, std::size_t ksym, bool unique,
                   std::optional<Candidate> &best, std::optional<Candidate> &tie) {
    const auto &top = qv.top;
    for (std::size_t g = 0; g < top.size();) {
        std::size_t e = g;
        while (e < top.size() && top[e].value == top[g].value)
            ++e;
        const Rational &tval = top[g].value;
        bool many = false;
        for (std::size_t x = g + 1; x < e; ++x)
            many = many || top[x].position != top[g].position;
        // runner-up: the first offer below t from a position other than the holder
        const Offer *r = nullptr;
        for (std::size_t x = e; x < top.size() && !r; ++x)
            if (many || top[x].position != top[g].position) r = &top[x];
        for (std::size_t x = 0; x < qv.below.size() && !r; ++x)
            if (many || qv.below[x].position != top[g].position) r = &qv.below[x];
        if (r) {
            Rational gap = tval - r->value;
            if (!best || gap < best->gap) {
                const Offer *p = &top[g];
                for (std::size_t x = g; x < e; ++x)
                    if (top[x].position != r->position) {
                        p = &top[x];
                        break;
                    }
                best = Candidate{gap,
                                 plan_of(qv, {{p->position, p->symbol}, {r->position, r->symbol}})};
            }
        }
        if (unique && !tie && many)
            for (std::size_t x = g; x < e && !tie; ++x)
                for (std::size_t y = x + 1; y < e && !tie; ++y)
                    if (top[x].position != top[y].position &&
                        value_of(t, top[x], ksym) != value_of(t, top[y], ksym))
                        tie = Candidate{0, plan_of(qv, {{top[x].position, top[x].symbol},
                                                        {top[y].position, top[y].symbol}})};
        g = e;
    }
}

// Largest profile threshold of one query view (Lemma 2); updates the task's bracket.
void profile_of(const QueryView &qv, const SymbolicOptions &opt, Bracket &bound,
                std::optional<WordPlan> &prof_word) {
    const Prec prec = opt.precision.start;
    std::vector<Rational> tops;
    for (const auto &o : qv.top)
        tops.push_back(o.value);
    tops.erase(std::unique(tops.begin(), tops.end()), tops.end());
    // once a bracket [lo, hi] exists, a maximum whose threshold is at most
    // hi changes neither end (proofs/profile-bound.md, the fold): shown from
    // its few smallest gaps, without building its profile
    // (made once a bracket exists: from the start, or after this query's
    // first maximum, whose whole profile then spares the rest theirs)
    std::optional<StreamedProfile> stream;
    for (const Rational &top : tops) {
        if (!stream && bound.lo > 0) {
            std::vector<std::vector<const Rational *>> offers(qv.all.size());
            for (std::size_t s = 0; s < qv.all.size(); ++s)
                for (const auto &o : qv.all[s])
                    offers[s].push_back(&o.value);
            stream.emplace(std::move(offers));
        }
        if (stream && stream->certainly_at_most(top, bound.hi, *opt.eps)) continue;
        std::vector<const Offer *> pred(qv.all.size(), nullptr), hold(qv.all.size(), nullptr);
        for (std::size_t s = 0; s < qv.all.size(); ++s)
            for (const auto &o : qv.all[s]) {
                if (o.value < top) pred[s] = &o;
                if (o.value == top && !hold[s]) hold[s] = &o;
            }
        std::vector<std::size_t> forced;
        for (std::size_t s = 0; s < qv.all.size(); ++s)
            if (!pred[s]) forced.push_back(s); // least offer == top: must hold it
        std::optional<std::size_t> p;
        if (forced.empty())
            for (std::size_t s = 0; s < qv.all.size(); ++s)
                if (hold[s] && (!p || top - pred[s]->value > top - pred[*p]->value)) p = s;
        std::vector<Rational> d;
        std::vector<std::pair<std::size_t, int>> chosen;
        for (std::size_t s = 0; s < qv.all.size(); ++s) {
            std::size_t j = qv.positions[s];
            if (!pred[s] || (p && s == *p)) {
                chosen.emplace_back(j, hold[s]->symbol);
                continue;
            }
            d.push_back(top - pred[s]->value);
            chosen.emplace_back(j, pred[s]->symbol);
        }
        if (d.empty()) continue;
        std::size_t kM = forced.empty() ? 1 : forced.size();
        std::optional<Bracket> beyond =
            query_threshold_beyond(group_gaps(std::move(d)), kM, *opt.eps, opt.rel, prec, bound);
        if (!beyond) continue; // within the bracket so far: it changes neither end
        const Bracket &br = *beyond;
        if (!prof_word || br.lo > bound.lo) {
            bound.lo = br.lo;
            prof_word = plan_of(qv, std::move(chosen));
        }
        bound.hi = std::max(bound.hi, br.hi);
    }
}

} // namespace

bool symbolic_applies(const Model &m, std::string &why_not) {
    if (!m.is_rational()) {
        why_not = "the model has irrational features";
        return false;
    }
    for (std::size_t l = 1; l < m.layers.size(); ++l)
        if (!m.layers[l].heads.empty()) {
            why_not = "layer " + std::to_string(l + 1) +
                      " has heads; the symbolic method analyses first-layer heads only";
            return false;
        }
    return true;
}

namespace {

// Scores affine in the key position (proofs/symbolic-gap.md, "Affine
// scores"): W_K P(j) = K0 + j D at every j of the table, checked exactly,
// and value vectors that do not depend on j, so that a tie's values differ
// exactly when the symbols' value classes do.
struct AffineHead {
    Vector K0, D;
    std::vector<int> value_class; // per symbol, BOS last
};

bool is_zero(const Vector &v) {
    return std::all_of(v.begin(), v.end(), [](const Rational &x) { return x == 0; });
}

std::optional<AffineHead> affine_head(const Tables &t) {
    const std::size_t f = t.first;
    if (t.n < f + 1) return std::nullopt;
    AffineHead a;
    if (t.affine) {
        // affine rows are K0 + j D by construction; values are constant
        // exactly when their step is 0 (two positions differ by it)
        if (!is_zero(t.affine->dv)) return std::nullopt;
        a.K0 = t.affine->k0;
        a.D = t.affine->dk;
    } else {
        const std::vector<Vector> &KP = t.KP(), &VP = t.VP();
        // K(j) = K0 + j D through the first two positions
        a.D = KP[f + 1];
        a.K0 = KP[f];
        for (std::size_t c = 0; c < a.D.size(); ++c) {
            a.D[c] -= KP[f][c];
            a.K0[c] -= Rational(static_cast<long>(f)) * a.D[c];
        }
        for (std::size_t j = f + 2; j < KP.size(); ++j)
            for (std::size_t c = 0; c < a.D.size(); ++c)
                if (KP[j][c] != a.K0[c] + Rational(static_cast<long>(j)) * a.D[c])
                    return std::nullopt;
        for (std::size_t j = f; j < VP.size(); ++j)
            if (VP[j] != VP[f]) return std::nullopt;
    }
    // a symbol's class: the first symbol with its value vector (one lookup
    // each: comparing with every earlier symbol was quadratic, 2^31 vector
    // comparisons unpolled over a layerwise value set of 2^16)
    std::map<Vector, int> first_with;
    for (std::size_t s = 0; s < t.VE.size(); ++s)
        a.value_class.push_back(first_with.emplace(t.VE[s], static_cast<int>(s)).first->second);
    return a;
}

// What one task of a head's scan found; tasks merge in task order.
struct Scan {
    std::optional<Candidate> best, tie;
    Bracket profile{0, 0};
    std::optional<WordPlan> profile_word;
    detail::AffineQuery query; // the closed form's current query (storage reused)
};

void merge(Scan &into, Scan &part) {
    if (part.best && (!into.best || part.best->gap < into.best->gap)) into.best = part.best;
    if (part.tie && !into.tie) into.tie = part.tie;
    if (part.profile_word && (!into.profile_word || part.profile.lo > into.profile.lo)) {
        into.profile.lo = part.profile.lo;
        into.profile_word = part.profile_word;
    }
    into.profile.hi = std::max(into.profile.hi, part.profile.hi);
}

// A query's scores in the closed form's terms: A(sigma) for the alphabet
// and, last, BOS; b0 = q . K0 and c = q . D. They depend on the query
// position only through its positional query row, so positions with the
// same row (a query that reads no positional feature) share them.
struct QueryScores {
    std::vector<Rational> A;
    Rational b0, c;
};

QueryScores scores_of(const Vector &q, const Tables &t, const AffineHead &ah) {
    QueryScores s;
    s.A.reserve(t.KE.size());
    for (const auto &ke : t.KE)
        s.A.push_back(dot(q, ke));
    s.b0 = dot(q, ah.K0);
    s.c = dot(q, ah.D);
    return s;
}

QueryScores query_scores(const Tables &t, const AffineHead &ah, std::size_t i, int a) {
    // BOS's row follows the alphabet's (a = -1 only with BOS)
    return scores_of(plus(t.QE[a < 0 ? t.QE.size() - 1 : static_cast<std::size_t>(a)], t.QP()[i]),
                     t, ah);
}

// With affine rows the query row of (i, a) is QE[a] + q0 + i dq, so every
// score is affine in i: its value at 0 plus i times its step, exactly. One
// product per score and query instead of a dot product per score.
struct AffineScores {
    std::vector<QueryScores> at0; // per query symbol, BOS last
    QueryScores step;             // the same for every symbol
};

AffineScores affine_scores(const Tables &t, const AffineHead &ah) {
    AffineScores out;
    for (const auto &qe : t.QE)
        out.at0.push_back(scores_of(plus(qe, t.affine->q0), t, ah));
    out.step = scores_of(t.affine->dq, t, ah);
    return out;
}

// Into s, reusing its storage (a scan's queries, one after another).
void query_scores(const AffineScores &as, std::size_t i, int a, QueryScores &s) {
    const QueryScores &at0 = as.at0[a < 0 ? as.at0.size() - 1 : static_cast<std::size_t>(a)];
    const Rational iq(static_cast<long>(i));
    auto move = [&](Rational &x, const Rational &x0, const Rational &step) {
        x = x0;
        if (step != 0) x += iq * step;
    };
    s.A.resize(at0.A.size());
    for (std::size_t x = 0; x < s.A.size(); ++x)
        move(s.A[x], at0.A[x], as.step.A[x]);
    move(s.b0, at0.b0, as.step.b0);
    move(s.c, at0.c, as.step.c);
}

// Whether queries at i and j have the same positional query row.
bool same_query_row(const Tables &t, std::size_t i, std::size_t j) {
    if (t.affine) return i == j || is_zero(t.affine->dq);
    return t.QP()[i] == t.QP()[j];
}

// One query (len, i, a) by the closed form: its least gap and tie, and with
// opt.eps its profile (keys constant in the key position only, see
// HeadScanner::closed_form).
void scan_affine(const Model &m, const Head &head, const Tables &t, const QueryScores &qs,
                 std::size_t len, std::size_t i, int a, bool unique,
                 const std::vector<int> &value_class, const SymbolicOptions &opt,
                 const DInterval &eps_ratio, Scan &scan) {
    const Limits &limits = opt.limits;
    detail::AffineQuery &aq = scan.query;
    detail::affine_query(aq, qs.A, qs.b0, qs.c, head.mask, len, i, a, m.has_bos());
    if (aq.runs.empty()) return;
    auto plan = [&](const detail::AffinePair &p) {
        return WordPlan{len,
                        i,
                        a,
                        aq.least_symbol,
                        {{p.top.position, p.top.symbol}, {p.next.position, p.next.symbol}}};
    };
    // the filter skips the exact steps that certainly change nothing
    std::optional<detail::AffineEnclosure> e;
    if (opt.filter) e = detail::enclose_query(aq);
    if (!scan.best || !e || !detail::affine_gaps_not_below(aq, *e, scan.best->gap, limits))
        if (auto g = detail::affine_min_gap(aq, limits);
            g && (!scan.best || g->gap < scan.best->gap))
            scan.best = Candidate{g->gap, plan(*g)};
    if (unique && !scan.tie && (!e || !detail::affine_no_tie(aq, *e, value_class, limits)))
        if (auto tie = detail::affine_tie(aq, value_class, limits))
            scan.tie = Candidate{0, plan(*tie)};
    if (!opt.eps) return;
    if (aq.c != 0) {
        // a query whose maxima certainly stay within the bracket so far changes
        // neither end; any other takes the general scan's profile
        if (scan.profile.hi > 0 &&
            ((e && detail::affine_profile_at_most_filtered(aq, *e, i, enclose(scan.profile.hi),
                                                           eps_ratio, limits)) ||
             detail::affine_profile_at_most(aq, i, scan.profile.hi, *opt.eps)))
            return;
        profile_of(view(m, t, head, len, i, a, true), opt, scan.profile, scan.profile_word);
        return;
    }
    std::optional<detail::ProfilePlan> word = detail::affine_profile_constant(
        aq, i, *opt.eps, opt.rel, opt.precision.start, scan.profile, scan.profile_word.has_value());
    if (!word) return;
    scan.profile_word = WordPlan{len, i, a, word->fill, {}};
    if (word->holder)
        scan.profile_word->chosen.emplace_back(word->holder->position, word->holder->symbol);
}

// Alphabets up to this size keep every symbol's query scores while the
// positional query row repeats (|Sigma|^2 rationals).
constexpr std::size_t kKeptScoresSymbols = 64;

// Whether every query's scores ignore the key symbols: q . W_K E(sigma) the
// same for every sigma of the alphabet, at every query position and symbol
// (proofs/symbolic-gap.md, "Position-only scores"). Exact.
bool position_only(const Tables &t, std::size_t k, const Limits &limits) {
    if (k < 2) return true;
    // keys that do not read the symbol: every q gives every symbol one score
    if (std::all_of(t.KE.begin(), t.KE.begin() + static_cast<long>(k),
                    [&](const Vector &ke) { return ke == t.KE[0]; }))
        return true;
    for (std::size_t i = t.first; i <= t.n; ++i) {
        if (i % 256 == 0) check_budget(limits);
        for (std::size_t a = 0; a < (i == 0 ? 1 : k); ++a) {
            const Vector q = query_row(t, i, i == 0 ? -1 : static_cast<int>(a), k);
            const Rational base = dot(q, t.KE[0]);
            for (std::size_t s = 1; s < k; ++s)
                if (dot(q, t.KE[s]) != base) return false;
        }
    }
    return true;
}

// A mask whose allowed set at length n' + 1 is that at n' with position
// n' + 1 added.
bool grows_at_the_end(Mask mask) {
    return mask == Mask::None || mask == Mask::Future || mask == Mask::StrictFuture;
}

// The critical lengths of query position i (every symbol's), increasing:
// n, and each n' from the query's first length on whose next position's
// least offer is at least the largest least offer so far (Lemma 4' of
// proofs/symbolic-gap.md; Lemma 4 for position-only scores). Needs a mask
// that grows_at_the_end and tables free of n.
// `keys`: the rows in integers (Lemma 5), when they fit.
std::vector<std::size_t> critical_lengths(const Tables &t, Mask mask, std::size_t i, std::size_t k,
                                          bool bos, const detail::IntegerKeys *keys) {
    const std::size_t n0 = std::max<std::size_t>(i, 1);
    std::vector<std::size_t> out;
    for (std::size_t a = 0; a < (i == 0 ? 1 : k); ++a) {
        const Vector q = query_row(t, i, i == 0 ? -1 : static_cast<int>(a), k);
        if (std::optional<detail::IntegerQuery> iq = keys ? keys->query(q) : std::nullopt) {
            detail::lengths_before_rises(
                mask, i, n0, t.n, bos, [&](std::size_t j) { return keys->score(*iq, j); }, out);
        } else {
            // least offers (Lemma 4'): BOS and the query's own position
            // their one offer, a free position its least symbol's
            Vector A;
            for (const Vector &ke : t.KE)
                A.push_back(dot(q, ke));
            const Rational least_free =
                *std::min_element(A.begin(), A.begin() + static_cast<long>(k));
            const Rational &own = i == 0 ? A[k] : A[a];
            auto least = [&](std::size_t j) {
                const Rational &part = j == 0 ? A[k] : j == i ? own : least_free;
                return Rational(part + dot(q, t.KP()[j]));
            };
            detail::lengths_before_rises(mask, i, n0, t.n, bos, least, out);
        }
        out.push_back(t.n);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// The fixed split of a head's queries into tasks, independent of --threads.
constexpr std::size_t kSymbolicTasks = 64;

// One head's scan: its tables (fixed when features do not read n), whether
// only the query's own length is examined, the closed form where it applies.
class HeadScanner {
  public:
    HeadScanner(const Model &m, const Head &head, std::size_t n, const SymbolicOptions &opt)
        : m_(m), head_(head), opt_(opt), unique_(head.kind != AttnKind::Average) {
        if (opt.eps) eps_ratio_ = to_dinterval(*opt.eps / (1 - *opt.eps));
        // With features free of n, tables are the same at every length, and
        // under a backward mask a query's view is too: only n' = i is examined.
        if (!m.features_use_n()) fixed_ = tables(m, head, n, opt.limits);
        one_length_ = looks_backward(head.mask) && fixed_;
        const bool forward = grows_at_the_end(head.mask);
        critical_ = opt.critical_lengths && fixed_ && !one_length_ && forward;
        if (fixed_) fixed_affine_ = closed_form(*fixed_);
        // position-only heads outside the closed form: scores in integers
        // (the exact check only where the closed form does not answer)
        if (fixed_ && !fixed_affine_ && opt.integer_scores && (forward || few_symbols()) &&
            position_only(*fixed_, m.alphabet.size(), opt.limits))
            int_keys_ = integer_keys(*fixed_);
        if (fixed_affine_ && fixed_->affine && few_symbols())
            fixed_scores_ = affine_scores(*fixed_, *fixed_affine_);
        used_closed_form_ = fixed_affine_.has_value();
        // Whether keys are affine in the key position, from the tables of
        // length n (with features that read n, an estimate for the other
        // lengths): the query budget's cost per query, and the order. Keys
        // that move with the key position have their profile's maxima
        // skipped by one bound (affine_profile_at_most) once the bracket is
        // as high as theirs, so their queries are taken from the longest
        // down, where such thresholds are largest (with the closed form or
        // not, so that the two fold the same queries in the same order).
        std::optional<AffineHead> at_n =
            fixed_ && opt.closed_form
                ? fixed_affine_ // already tested on these tables
                : affine_head(fixed_ ? *fixed_ : tables(m, head, n, opt.limits, false));
        affine_at_n_ = opt.closed_form && at_n;
        descending_ =
            opt.eps && at_n &&
            std::any_of(at_n->D.begin(), at_n->D.end(), [](const Rational &d) { return d != 0; });
    }

    bool descending() const { return descending_; }

    bool one_length() const { return one_length_; }
    // Units are query positions: one length each, or their critical lengths.
    bool by_query() const { return one_length_ || critical_; }
    bool critical() const { return critical_; }
    // Each query position's critical lengths (critical() only), before the
    // scan; returns the offers they will compare (|Sigma| n per length and
    // symbol, the general scan's cost), for the query budget.
    double find_critical_lengths(std::size_t n) {
        const std::size_t first = m_.has_bos() ? 0 : 1;
        critical_at_.assign(n + 1, {});
        const std::size_t chunk = 64, chunks = n / chunk + 1;
        detail::run_tasks(chunks, opt_.limits.threads(), [&](std::size_t c) {
            for (std::size_t i = std::max(first, c * chunk); i <= n && i < (c + 1) * chunk; ++i) {
                check_budget(opt_.limits);
                critical_at_[i] = critical_lengths(*fixed_, head_.mask, i, m_.alphabet.size(),
                                                   m_.has_bos(), int_keys_ ? &*int_keys_ : nullptr);
            }
        });
        double lengths = 0;
        for (const auto &l : critical_at_)
            lengths += static_cast<double>(l.size());
        const double k = static_cast<double>(m_.alphabet.size());
        return lengths * k * std::max(1.0, k * static_cast<double>(n));
    }
    bool fixed_affine() const { return fixed_affine_.has_value(); }
    // The closed form applies at length n (with features that read n, an
    // estimate of the other lengths: the query budget's cost per query).
    bool affine_at_n() const { return affine_at_n_; }
    bool used_closed_form() const { return used_closed_form_; }
    std::size_t integer_queries() const { return integer_queries_; }

    // Unit u: query position first + u (one length each), or length u + 1.
    void scan_unit(std::size_t u, std::size_t first, Scan &scan) {
        if (critical_) {
            const std::size_t i = first + u;
            for (std::size_t len : critical_at_[i])
                scan_length(len, i, i, *fixed_, fixed_affine_, fixed_scores(), scan);
            return;
        }
        if (one_length_) {
            std::size_t i = first + u;
            scan_length(i == 0 ? 1 : i, i, i, *fixed_, fixed_affine_, fixed_scores(), scan);
            return;
        }
        std::size_t len = u + 1;
        if (fixed_) {
            scan_length(len, first, len, *fixed_, fixed_affine_, fixed_scores(), scan);
            return;
        }
        // tables inside a task on one thread (no run: the tasks are the
        // parallel part, and the run's budget is checked between them)
        const Limits one_thread;
        // (rows filled only if a query's general scan needs them)
        Tables local = tables(m_, head_, len, one_thread, false);
        std::optional<AffineHead> ah = closed_form(local);
        if (ah) used_closed_form_ = true;
        std::optional<AffineScores> as;
        if (ah && local.affine && few_symbols()) as = affine_scores(local, *ah);
        scan_length(len, first, len, local, ah, as ? &*as : nullptr, scan);
    }

  private:
    const Model &m_;
    const Head &head_;
    const SymbolicOptions &opt_;
    bool unique_, one_length_ = false, descending_ = false, affine_at_n_ = false, critical_ = false;
    // each query position's critical lengths (critical() only)
    std::vector<std::vector<std::size_t>> critical_at_;
    std::optional<Tables> fixed_;
    std::optional<AffineHead> fixed_affine_;
    std::optional<AffineScores> fixed_scores_; // with affine fixed tables
    std::atomic<bool> used_closed_form_{false};
    std::optional<detail::IntegerKeys> int_keys_; // position-only rows in integers (Lemma 5)
    mutable std::atomic<std::size_t> integer_queries_{0};
    DInterval eps_ratio_; // eps/(1-eps), the profile filter's bound

    std::optional<AffineHead> closed_form(const Tables &t) const {
        return opt_.closed_form ? affine_head(t) : std::nullopt;
    }

    // Alphabets small enough to keep |Sigma|^2 scores while a query row
    // repeats, and to compute (|Sigma| + 1)^2 of them up front, unpolled,
    // from affine rows (a virtual alphabet of 2^16 symbols computes each
    // symbol's when its query comes, between budget checks).
    bool few_symbols() const { return m_.alphabet.size() <= kKeptScoresSymbols; }

    const AffineScores *fixed_scores() const { return fixed_scores_ ? &*fixed_scores_ : nullptr; }

    // The rows R_j of a position-only head (Lemma 5): the first symbol's
    // key plus position j's, BOS's own at 0.
    static std::optional<detail::IntegerKeys> integer_keys(const Tables &t) {
        const std::size_t k = t.KE.size() - (t.first == 0 ? 1 : 0);
        std::vector<Vector> rows(t.n + 1);
        for (std::size_t j = t.first; j <= t.n; ++j)
            rows[j] = plus(j == 0 ? t.KE[k] : t.KE[0], t.KP()[j]);
        return detail::IntegerKeys::of(rows, t.first);
    }

    // The symbol an offer of position j carries in the rational scan's
    // order (every symbol's offer is the same: the first, or the last when
    // taken as the largest below a maximum).
    static int offer_symbol(std::size_t j, std::size_t i, int a, int free_symbol) {
        return j == 0 ? -1 : j == i ? a : free_symbol;
    }

    // One query of a position-only head in integers (Lemma 5): the gap and
    // profile view + gaps_and_ties + profile_of find, the same witnesses.
    // False leaves the query to the rational scan: a row that does not fit,
    // or several holders of the maximum while a tie is still sought (the
    // tie needs the value vectors). `seen`: rows already scanned at i (the
    // same numerators over the same scale: equal numerators over another
    // scale are other scores, another gap).
    bool scan_integer(std::size_t len, std::size_t i, int a,
                      std::vector<detail::IntegerQuery> &seen, Scan &scan) const {
        const std::vector<std::size_t> pos = allowed_positions(head_.mask, i, len, m_.has_bos());
        if (pos.empty()) return true;
        std::optional<detail::IntegerQuery> q =
            int_keys_->query(query_row(*fixed_, i, a, m_.alphabet.size()));
        if (!q) return false;
        if (std::any_of(seen.begin(), seen.end(), [&](const detail::IntegerQuery &x) {
                return x.Q == q->Q && x.scale == q->scale;
            }))
            return true;
        std::vector<detail::Int128> s(pos.size());
        for (std::size_t x = 0; x < pos.size(); ++x)
            s[x] = int_keys_->score(*q, pos[x]);
        const detail::Int128 top = *std::max_element(s.begin(), s.end());
        std::size_t holders = 0, p = pos.size(), r = pos.size();
        for (std::size_t x = 0; x < pos.size(); ++x) {
            if (s[x] == top) {
                holders += 1;
                if (p == pos.size()) p = x;
            } else if (r == pos.size() || s[x] > s[r]) {
                r = x;
            }
        }
        if (holders > 1 && unique_ && !scan.tie) return false;
        seen.push_back(*q);
        ++integer_queries_;
        auto offer = [&](std::size_t x, int free_symbol) {
            return std::pair{pos[x], offer_symbol(pos[x], i, a, free_symbol)};
        };
        if (r != pos.size()) {
            Rational gap = detail::to_rational(top - s[r]) * q->scale;
            if (!scan.best || gap < scan.best->gap)
                scan.best =
                    Candidate{std::move(gap), WordPlan{len, i, a, 0, {offer(p, 0), offer(r, 0)}}};
        }
        if (opt_.eps && r != pos.size()) integer_profile(len, i, a, pos, s, top, holders, *q, scan);
        return true;
    }

    // The profile of one integer query (its one maximum `top`, held by
    // `holders` positions): skipped when X(H) <= c is certain in doubles,
    // else folded as profile_of folds it.
    void integer_profile(std::size_t len, std::size_t i, int a, const std::vector<std::size_t> &pos,
                         const std::vector<detail::Int128> &s, detail::Int128 top,
                         std::size_t holders, const detail::IntegerQuery &q, Scan &scan) const {
        Bracket &bound = scan.profile;
        const Rational &eps = *opt_.eps;
        std::vector<detail::Int128> g;
        g.reserve(s.size());
        for (detail::Int128 v : s)
            if (v != top) g.push_back(top - v);
        const Rational c = Rational(static_cast<long>(holders)) * eps / (1 - eps);
        if (bound.lo > 0 && detail::integer_x_at_most(g, bound.hi * q.scale, c)) return;
        std::vector<Rational> d;
        d.reserve(g.size());
        for (detail::Int128 x : g)
            d.push_back(detail::to_rational(x) * q.scale);
        std::optional<Bracket> beyond = query_threshold_beyond(
            group_gaps(std::move(d)), holders, eps, opt_.rel, opt_.precision.start, bound);
        if (!beyond) return;
        if (!scan.profile_word || beyond->lo > bound.lo) {
            bound.lo = beyond->lo;
            // holders keep their first symbol's offer; the others their
            // largest below the maximum, the last symbol's (ascending order)
            const int last = static_cast<int>(m_.alphabet.size()) - 1;
            std::vector<std::pair<std::size_t, int>> chosen;
            for (std::size_t x = 0; x < pos.size(); ++x)
                chosen.emplace_back(pos[x], offer_symbol(pos[x], i, a, s[x] == top ? 0 : last));
            scan.profile_word = WordPlan{len, i, a, 0, std::move(chosen)};
        }
        bound.hi = std::max(bound.hi, beyond->hi);
    }

    // Queries of one length: (i, a) in order.
    // `as`: the closed form's scores from affine rows, when kept.
    void scan_length(std::size_t len, std::size_t i_lo, std::size_t i_hi, const Tables &t,
                     const std::optional<AffineHead> &ah, const AffineScores *as,
                     Scan &scan) const {
        const std::size_t ksym = m_.alphabet.size();
        // the closed form's scores per symbol, each computed when its query
        // comes (between budget checks: a virtual alphabet of 2^16 symbols
        // costs 2^16 dot products per symbol) and kept while the positional
        // query row stays the same, for alphabets small enough to keep
        // |Sigma|^2 of them
        const bool keep = few_symbols();
        // (without `keep` one slot, refilled by every query)
        std::vector<QueryScores> scores(ah ? (keep ? ksym : 1) : 0);
        std::vector<char> have(scores.size(), 0); // scores[a] is for this row
        std::size_t scores_at = 0;
        // the integer query rows scanned at this position (a query row
        // that repeats one of them changes nothing: the same scores)
        std::vector<detail::IntegerQuery> same_rows;
        for (std::size_t i = i_lo; i <= i_hi; ++i) {
            same_rows.clear();
            int symbols = i == 0 ? 1 : static_cast<int>(ksym);
            if (ah && keep && (i == 0 || scores_at == 0 || !same_query_row(t, i, scores_at))) {
                std::fill(have.begin(), have.end(), 0);
                scores_at = i;
            }
            for (int a = 0; a < symbols; ++a) {
                check_budget(opt_.limits);
                int sym = i == 0 ? -1 : a;
                if (ah) {
                    const std::size_t x = keep ? static_cast<std::size_t>(a) : 0;
                    if (!have[x]) {
                        if (as)
                            query_scores(*as, i, sym, scores[x]);
                        else
                            scores[x] = query_scores(t, *ah, i, sym);
                    }
                    have[x] = keep;
                    scan_affine(m_, head_, t, scores[x], len, i, sym, unique_, ah->value_class,
                                opt_, eps_ratio_, scan);
                    continue;
                }
                if (int_keys_ && &t == &*fixed_ && scan_integer(len, i, sym, same_rows, scan))
                    continue;
                QueryView qv = view(m_, t, head_, len, i, sym, opt_.eps.has_value());
                if (qv.positions.empty()) continue;
                gaps_and_ties(qv, t, ksym, unique_, scan.best, scan.tie);
                if (opt_.eps) profile_of(qv, opt_, scan.profile, scan.profile_word);
            }
        }
    }
};

// The refusal of a scan over --max-queries: about `queries` of `what`.
[[noreturn]] void over_query_budget(const Model &m, std::size_t h, double queries,
                                    const std::string &what, const Limits &limits) {
    char approx[32];
    std::snprintf(approx, sizeof approx, "%.2g", queries);
    throw LimitError("the symbolic analysis of " + m.name +
                     (m.layers[0].heads.size() > 1 ? ", head " + std::to_string(h + 1) : "") +
                     " would examine about " + approx + " " + what + ", more than the limit " +
                     std::to_string(limits.max_queries) + " (--max-queries)");
}

// Refuses before any work when the scan would exceed --max-queries,
// counting each query configuration at what it costs: |Sigma|^2 symbol
// pairs by the closed form, |Sigma| n offers by the general scan (300
// symbols once took seconds at n = 3).
// Called twice: before the position tables are built, with the least cost a
// query could have (the closed form), so that an n of 10^7 is refused before
// gigabytes of tables (docs/reliability.md, Long steps obey Ctrl-C); then with the scan's own cost.
void check_query_budget(const Model &m, std::size_t h, std::size_t n, bool one_length, bool affine,
                        const Limits &limits) {
    double k = static_cast<double>(m.alphabet.size()), dn = static_cast<double>(n);
    double configurations = one_length ? dn * k + (m.has_bos() ? 1 : 0)
                                       : k * dn * (dn + 1) / 2 + (m.has_bos() ? dn : 0);
    double per_query = affine ? std::max(1.0, k * k) : std::max(1.0, k * dn);
    double queries = configurations * per_query;
    if (queries <= static_cast<double>(limits.max_queries)) return;
    over_query_budget(m, h, queries,
                      std::string("query configurations times the symbols or positions each "
                                  "compares (") +
                          (one_length ? "one per query position and symbol"
                                      : "every position at every length: the mask looks forward "
                                        "or features read n") +
                          ")",
                      limits);
}

// Task boundaries over `units`: equal counts of query positions, or
// lengths balanced by their squares (a length's cost grows with it).
std::vector<std::size_t> task_cuts(std::size_t units, std::size_t tasks, bool one_length) {
    std::vector<std::size_t> cut(tasks + 1, units);
    for (std::size_t x = 0; x < tasks; ++x) {
        double f = static_cast<double>(x) / static_cast<double>(tasks);
        cut[x] = one_length ? units * x / tasks
                            : static_cast<std::size_t>(static_cast<double>(units) * std::sqrt(f));
        if (x > 0) cut[x] = std::max(cut[x], cut[x - 1]);
    }
    return cut;
}

// Every witness replayed through the exact evaluator before it is reported.
void report_head(const Model &m, std::size_t h, const Scan &all, SymbolicReport &out) {
    const Head &head = m.layers[0].heads[h];
    HeadGap &g = out.gaps.heads[h];
    if (all.best) {
        Word w = realise(all.best->plan, head.mask, m.has_bos());
        QueryTrace q = replay(m, w, h, all.best->plan.query);
        if (!q.gap || !q.gap->is_exact() || q.gap->exact() != all.best->gap)
            throw std::logic_error("symbolic: the witness for the minimum gap does not replay");
        g.min_gap = Real(all.best->gap);
        g.witness = Witness{w, 1, h + 1, q.query, q.argmax, q.runner_up};
    }
    if (all.tie) {
        Word w = realise(all.tie->plan, head.mask, m.has_bos());
        QueryTrace q = replay(m, w, h, all.tie->plan.query);
        if (q.argmax.size() < 2 || q.ties_share_value)
            throw std::logic_error("symbolic: the tie witness does not replay");
        g.tie = Witness{w, 1, h + 1, q.query, q.argmax, q.runner_up};
    }
    if (g.min_gap)
        out.gaps.min_gap =
            out.gaps.min_gap ? min(*g.min_gap, *out.gaps.min_gap, kPrecStart) : *g.min_gap;
    HeadProfile prof{1, h + 1, all.profile, std::nullopt};
    if (all.profile_word) {
        Word w = realise(*all.profile_word, head.mask, m.has_bos());
        QueryTrace q = replay(m, w, h, all.profile_word->query);
        prof.witness = Witness{w, 1, h + 1, q.query, q.argmax, q.runner_up};
    }
    out.profile.heads.push_back(prof);
    out.profile.bound.lo = std::max(out.profile.bound.lo, prof.bound.lo);
    out.profile.bound.hi = std::max(out.profile.bound.hi, prof.bound.hi);
}

} // namespace

SymbolicReport analyse_symbolic(const Model &m, std::size_t n, const SymbolicOptions &opt) {
    std::string why;
    if (!symbolic_applies(m, why)) throw InputError("", "--method symbolic", why);
    SymbolicReport out;
    out.gaps = empty_gap_report(m, n);
    out.gaps.method = GapMethod::Symbolic;
    if (m.layers.empty()) return out;
    const std::size_t first = m.has_bos() ? 0 : 1;
    for (std::size_t h = 0; h < m.layers[0].heads.size(); ++h) {
        const Head &head = m.layers[0].heads[h];
        check_query_budget(m, h, n, looks_backward(head.mask) && !m.features_use_n(), true,
                           opt.limits);
        HeadScanner hs(m, head, n, opt);
        if (hs.critical()) {
            const double offers = hs.find_critical_lengths(n);
            if (offers > static_cast<double>(opt.limits.max_queries))
                over_query_budget(m, h, offers,
                                  "offers at the critical lengths of its queries (position-only "
                                  "scores, proofs/symbolic-gap.md)",
                                  opt.limits);
        } else {
            check_query_budget(m, h, n, hs.one_length(), hs.affine_at_n(), opt.limits);
        }
        // units: query positions (one length each, or their critical
        // lengths) or lengths (every query)
        const std::size_t units = hs.by_query() ? n + 1 - first : n;
        const std::size_t tasks = std::min(kSymbolicTasks, units);
        const std::vector<std::size_t> cut = task_cuts(units, tasks, hs.by_query());
        std::vector<Scan> parts(tasks);
        detail::run_tasks(tasks, opt.limits.threads(), [&](std::size_t x) {
            if (hs.descending())
                for (std::size_t u = cut[x + 1]; u-- > cut[x];)
                    hs.scan_unit(u, first, parts[x]);
            else
                for (std::size_t u = cut[x]; u < cut[x + 1]; ++u)
                    hs.scan_unit(u, first, parts[x]);
        });
        out.closed_form_heads += hs.used_closed_form();
        out.critical_length_heads += hs.critical();
        out.integer_queries += hs.integer_queries();
        Scan all;
        for (auto &part : parts)
            merge(all, part);
        report_head(m, h, all, out);
    }
    return out;
}

} // namespace tempcert
