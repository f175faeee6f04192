// Symbolic analysis of first-layer heads (SPEC 5.2; proofs/symbolic-gap.md).
//
// In layer 1 the score s_ij = (W_Q x_i) . (W_K x_j) depends only on
// (w_i, i, w_j, j, n): for a query at position i with symbol a, every other
// allowed key position j picks its symbol freely, so position j offers the
// value set V_j = { s(a, i, sigma, j, n) : sigma }, the query's own position
// offers s(a, i, a, i, n) and BOS offers its fixed score. A word chooses one
// value per position. With L = max_j min V_j, a value t can be the maximum
// exactly when t >= L and some position offers t, and then:
//  * the smallest gap with maximum t is t - r(t), r(t) the largest value
//    below t offered by a position other than one position p offering t;
//  * a unique-hard tie with different values needs two positions offering t
//    with different value vectors W_V x_j;
//  * the largest profile threshold with maximum t puts every free position at
//    its largest value below t and keeps the maximising set minimal (TV only
//    grows: proofs/symbolic-gap.md, Lemma 2).
// Every (n', i, a) is examined: polynomial in n and the alphabet, no word
// enumeration. Witness words are built from the optimal choices and replayed
// through the exact hard evaluator before they are reported.
#include "tempcert/bounds.hpp"
#include "tempcert/error.hpp"
#include "tempcert/symbolic.hpp"
#include "../eval/layer_ops.hpp"

#include <algorithm>
#include <map>

namespace tempcert {

namespace {

using detail::allowed_positions;

struct Offer {
    Rational value;
    std::size_t position; // position number
    int symbol;           // alphabet index, -1 for BOS
};

// Per-length precomputation of W_Q x, W_K x, W_V x for every (symbol, position).
struct LengthTables {
    std::size_t n;
    // [symbol][position] with symbol == alphabet.size() meaning BOS (position 0 only)
    std::vector<std::vector<Vector>> q, k, v;
};

Vector exact_vector(const RealVector &r) {
    Vector out;
    for (const auto &x : r) out.push_back(x.exact());
    return out;
}

Rational dot_exact(const Vector &a, const Vector &b) {
    Rational s = 0;
    for (std::size_t c = 0; c < a.size(); ++c)
        if (a[c] != 0 && b[c] != 0) s += a[c] * b[c];
    return s;
}

LengthTables tables(const Model &m, const Head &head, std::size_t n) {
    LengthTables t;
    t.n = n;
    std::size_t k = m.alphabet.size();
    t.q.assign(k + 1, std::vector<Vector>(n + 1));
    t.k = t.q;
    t.v = t.q;
    for (std::size_t s = 0; s <= k; ++s) {
        bool is_bos = s == k;
        if (is_bos && !m.bos) continue;
        const Vector &e = m.embedding.at(is_bos ? *m.bos : m.alphabet[s]);
        for (std::size_t j = is_bos ? 0 : 1; j <= (is_bos ? 0 : n); ++j) {
            RealVector x(e.begin(), e.end());
            for (const auto &f : m.positions)
                x[f.dim] = add(x[f.dim], f.expr.eval(Rational(static_cast<long>(j)), Rational(static_cast<long>(n)), kPrecStart), kPrecStart);
            t.q[s][j] = exact_vector(matvec(head.query, x, kPrecStart));
            t.k[s][j] = exact_vector(matvec(head.key, x, kPrecStart));
            t.v[s][j] = exact_vector(matvec(head.value, x, kPrecStart));
        }
    }
    return t;
}

// One query configuration: its offers, grouped by position.
struct QueryView {
    std::size_t query;
    int query_symbol; // alphabet index, or -1 for the BOS query
    std::vector<std::size_t> positions;       // allowed, increasing
    std::vector<std::vector<Offer>> offers;   // per allowed position, sorted by value ascending
    Rational L;                               // max over positions of the least offer
};

QueryView view(const Model &m, const LengthTables &t, const Head &head, std::size_t i, int a) {
    QueryView qv;
    qv.query = i;
    qv.query_symbol = a;
    std::size_t k = m.alphabet.size();
    std::size_t qs = a < 0 ? k : static_cast<std::size_t>(a);
    const Vector &q = t.q[qs][i];
    qv.positions = allowed_positions(head.mask, i, t.n, m.has_bos());
    for (std::size_t j : qv.positions) {
        std::vector<Offer> o;
        if (j == 0) o.push_back({dot_exact(q, t.k[k][0]), 0, -1});
        else if (j == i) o.push_back({dot_exact(q, t.k[qs][j]), j, a});
        else
            for (std::size_t s = 0; s < k; ++s)
                o.push_back({dot_exact(q, t.k[s][j]), j, static_cast<int>(s)});
        std::sort(o.begin(), o.end(), [](const Offer &x, const Offer &y) {
            return x.value < y.value || (x.value == y.value && x.symbol < y.symbol);
        });
        qv.L = qv.offers.empty() ? o.front().value : std::max(qv.L, o.front().value);
        qv.offers.push_back(std::move(o));
    }
    return qv;
}

// Largest offer of position slot `s` strictly below t, if any.
const Offer *below(const std::vector<Offer> &o, const Rational &t) {
    const Offer *best = nullptr;
    for (const auto &x : o)
        if (x.value < t) best = &x; // sorted ascending: the last one below t
    return best;
}
const Offer *at(const std::vector<Offer> &o, const Rational &t) {
    for (const auto &x : o)
        if (x.value == t) return &x;
    return nullptr;
}

// A word realising chosen offers: the chosen symbols where given, the least
// offer (by value, then symbol) at other allowed positions, symbol 0 at
// positions the query does not see.
Word realise(const QueryView &qv, std::size_t n, const std::map<std::size_t, int> &chosen) {
    Word w(n, 0);
    if (qv.query >= 1 && qv.query_symbol >= 0) w[qv.query - 1] = qv.query_symbol;
    for (std::size_t s = 0; s < qv.positions.size(); ++s) {
        std::size_t j = qv.positions[s];
        if (j == 0 || j == qv.query) continue;
        auto it = chosen.find(j);
        w[j - 1] = it != chosen.end() ? it->second : qv.offers[s].front().symbol;
    }
    return w;
}

// Distinct candidate maxima t >= L, descending.
std::vector<Rational> candidate_maxima(const QueryView &qv) {
    std::vector<Rational> ts;
    for (const auto &o : qv.offers)
        for (const auto &x : o)
            if (x.value >= qv.L) ts.push_back(x.value);
    std::sort(ts.begin(), ts.end());
    ts.erase(std::unique(ts.begin(), ts.end()), ts.end());
    std::reverse(ts.begin(), ts.end());
    return ts;
}

struct Candidate {
    Rational gap;
    Word word;
    std::size_t query;
};

// Replays `w` through the hard evaluator and returns the head's trace at `query`.
QueryTrace replay(const Model &m, const Word &w, std::size_t head_index, std::size_t query) {
    Trace tr = evaluate_hard(m, w);
    for (const auto &q : tr.layers[0].heads[head_index].queries)
        if (q.query == query) return q;
    throw std::logic_error("symbolic: replayed query not found");
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

SymbolicReport analyse_symbolic(const Model &m, std::size_t n, const SymbolicOptions &opt) {
    std::string why;
    if (!symbolic_applies(m, why)) throw InputError("", "--method symbolic", why);
    SymbolicReport out;
    out.gaps = empty_gap_report(m, n);
    out.gaps.method = "symbolic";
    if (m.layers.empty()) return out;
    const Layer &layer = m.layers[0];
    Rational c_factor = opt.eps ? *opt.eps / (1 - *opt.eps) : Rational(0);
    for (std::size_t h = 0; h < layer.heads.size(); ++h) {
        const Head &head = layer.heads[h];
        HeadGap &g = out.gaps.heads[h];
        bool unique = head.kind != AttnKind::Average;
        std::optional<Candidate> best, tie;
        HeadProfile prof{1, h + 1, {0, 0}, std::nullopt};
        std::optional<std::pair<Word, std::size_t>> prof_word;
        // Lengths: with features free of n and a backward mask, a query's view
        // is the same at every length >= i, so only n' = i is examined.
        bool backward = head.mask == Mask::Causal || head.mask == Mask::Strict;
        bool one_length = backward && !m.features_use_n();
        for (std::size_t len = 1; len <= n; ++len) {
            LengthTables t = tables(m, head, len);
            std::size_t first_query = m.has_bos() ? 0 : 1;
            for (std::size_t i = first_query; i <= len; ++i) {
                if (one_length && i != len && i != 0) continue;
                if (one_length && i == 0 && len != 1) continue;
                int symbols = i == 0 ? 1 : static_cast<int>(m.alphabet.size());
                for (int a = 0; a < symbols; ++a) {
                    QueryView qv = view(m, t, head, i, i == 0 ? -1 : a);
                    if (qv.positions.empty()) continue;
                    for (const Rational &top : candidate_maxima(qv)) {
                        // positions offering top, and each position's best offer below top
                        std::vector<std::size_t> holders;
                        std::vector<const Offer *> pred(qv.positions.size(), nullptr);
                        for (std::size_t s = 0; s < qv.positions.size(); ++s) {
                            if (at(qv.offers[s], top)) holders.push_back(s);
                            pred[s] = below(qv.offers[s], top);
                        }
                        // --- minimum gap: r(top) from a position other than the holder
                        std::optional<std::size_t> r_slot;
                        for (std::size_t s = 0; s < qv.positions.size(); ++s) {
                            if (!pred[s]) continue;
                            bool other_holder = holders.size() > 1 || holders.front() != s;
                            if (!other_holder) continue;
                            if (!r_slot || pred[s]->value > pred[*r_slot]->value) r_slot = s;
                        }
                        if (r_slot) {
                            Rational gap = top - pred[*r_slot]->value;
                            std::size_t p = holders.front() != *r_slot ? holders.front() : holders[1];
                            if (!best || gap < best->gap) {
                                std::map<std::size_t, int> chosen{
                                    {qv.positions[p], at(qv.offers[p], top)->symbol},
                                    {qv.positions[*r_slot], pred[*r_slot]->symbol}};
                                best = Candidate{gap, realise(qv, len, chosen), i};
                            }
                        }
                        // --- unique-hard ties between different values
                        if (unique && !tie && holders.size() >= 2) {
                            std::size_t ks = m.alphabet.size();
                            for (std::size_t x = 0; x < holders.size() && !tie; ++x)
                                for (std::size_t y = x + 1; y < holders.size() && !tie; ++y)
                                    for (const auto &ox : qv.offers[holders[x]])
                                        for (const auto &oy : qv.offers[holders[y]]) {
                                            if (tie || ox.value != top || oy.value != top) continue;
                                            const Vector &vx = t.v[ox.symbol < 0 ? ks : static_cast<std::size_t>(ox.symbol)][ox.position];
                                            const Vector &vy = t.v[oy.symbol < 0 ? ks : static_cast<std::size_t>(oy.symbol)][oy.position];
                                            if (vx != vy)
                                                tie = Candidate{0, realise(qv, len, {{ox.position, ox.symbol}, {oy.position, oy.symbol}}), i};
                                        }
                        }
                        // --- profile threshold with maximum top
                        if (!opt.eps) continue;
                        std::vector<std::size_t> forced;
                        for (std::size_t s = 0; s < qv.positions.size(); ++s)
                            if (!pred[s]) forced.push_back(s); // every offer >= top, and min <= L <= top
                        std::optional<std::size_t> p;
                        if (forced.empty()) {
                            // the holder that loses least: no offer below, else the largest gap
                            for (std::size_t s : holders)
                                if (!p || top - pred[s]->value > top - pred[*p]->value) p = s;
                        }
                        std::vector<Rational> d;
                        std::map<std::size_t, int> chosen;
                        for (std::size_t s = 0; s < qv.positions.size(); ++s) {
                            if (!pred[s] || (p && s == *p)) {
                                chosen[qv.positions[s]] = at(qv.offers[s], top)->symbol;
                                continue;
                            }
                            d.push_back(top - pred[s]->value);
                            chosen[qv.positions[s]] = pred[s]->symbol;
                        }
                        if (d.empty()) continue;
                        std::size_t kM = forced.empty() ? 1 : forced.size();
                        Rational c = Rational(static_cast<long>(kM)) * c_factor;
                        if (prof.bound.lo > 0) {
                            // skip when X(lo) <= c is certain: this threshold is below lo
                            Interval x(opt.precision.start), b(prof.bound.lo, opt.precision.start);
                            for (const auto &dj : d) x = add(x, exp(neg(mul(b, dj, opt.precision.start)), opt.precision.start), opt.precision.start);
                            if (less_equal(x, c) == Tri::True) continue;
                        }
                        Bracket br = profile_threshold(d, kM, *opt.eps, opt.rel, opt.precision.start);
                        if (!prof_word || br.lo > prof.bound.lo) {
                            prof.bound.lo = br.lo;
                            prof_word = std::make_pair(realise(qv, len, chosen), i);
                        }
                        prof.bound.hi = std::max(prof.bound.hi, br.hi);
                    }
                }
            }
        }
        // Replay every witness through the exact evaluator before reporting it.
        if (best) {
            QueryTrace q = replay(m, best->word, h, best->query);
            if (!q.gap || !q.gap->is_exact() || q.gap->exact() != best->gap)
                throw std::logic_error("symbolic: the witness for the minimum gap does not replay");
            g.min_gap = Real(best->gap);
            g.witness = Witness{best->word, 1, h + 1, q.query, q.argmax, q.runner_up};
        }
        if (tie) {
            QueryTrace q = replay(m, tie->word, h, tie->query);
            if (q.argmax.size() < 2 || q.ties_share_value)
                throw std::logic_error("symbolic: the tie witness does not replay");
            g.tie = Witness{tie->word, 1, h + 1, q.query, q.argmax, q.runner_up};
        }
        if (g.min_gap)
            out.gaps.min_gap = out.gaps.min_gap ? min(*g.min_gap, *out.gaps.min_gap, kPrecStart) : *g.min_gap;
        if (prof_word) {
            QueryTrace q = replay(m, prof_word->first, h, prof_word->second);
            prof.witness = Witness{prof_word->first, 1, h + 1, q.query, q.argmax, q.runner_up};
        }
        out.profile.heads.push_back(prof);
        out.profile.bound.lo = std::max(out.profile.bound.lo, prof.bound.lo);
        out.profile.bound.hi = std::max(out.profile.bound.hi, prof.bound.hi);
    }
    return out;
}

} // namespace tempcert
