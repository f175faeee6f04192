// Layerwise certificates, re-verified (proofs/layerwise.md; the gap closed
// form: proofs/symbolic-gap.md, "Affine scores"). A second implementation on
// purpose: it shares no code with src/certify/layerwise.cpp or src/gap/.
#include "check_layerwise.hpp"
#include "../parallel/task_pool.hpp"
#include "check_counts.hpp"
#include "check_fields.hpp"
#include "check_profile.hpp"
#include "tempcert/beta.hpp"
#include "tempcert/error.hpp"
#include "tempcert/exact_vector.hpp"
#include "tempcert/mask.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace tempcert::check {

namespace {

bool column_used(const Matrix &w, std::size_t c) {
    for (const auto &row : w)
        if (row[c] != 0) return true;
    return false;
}

bool row_used(const Matrix &w, std::size_t r) {
    for (const auto &x : w[r])
        if (x != 0) return true;
    return false;
}

// Positional vector P(j) at length len, exactly.
Vector position(const Model &m, std::size_t j, std::size_t len, const std::string &where) {
    Vector p(m.width, Rational(0));
    for (const auto &f : m.positions) {
        Real v;
        try {
            v = f.expr.eval(Rational(static_cast<long>(j)), Rational(static_cast<long>(len)),
                            kPrecStart);
        } catch (const ExprError &e) {
            reject(where, "a positional feature is undefined at j = " + std::to_string(j) +
                              ", n = " + std::to_string(len) + ": " + e.what());
        }
        if (!v.is_exact())
            reject(where, "a positional feature is irrational at j = " + std::to_string(j));
        p[f.dim] += v.exact();
    }
    return p;
}

// One symbol of the head's own alphabet over positions lo..hi: offers
// alpha + c j. The query's own position is a run with lo == hi.
struct Run {
    std::size_t symbol;
    long lo, hi;
    Rational alpha;
};

// An integer as a machine integer clamped to +-2^62: ordered as it is
// against any position or difference of positions.
long clamped(const Rational &integer) {
    constexpr long kEdge = 1L << 62;
    if (mpq_cmp_si(integer.backend().data(), kEdge, 1) > 0) return kEdge;
    if (mpq_cmp_si(integer.backend().data(), -kEdge, 1) < 0) return -kEdge;
    return numerator(integer).convert_to<long>();
}

// delta + c k over the integers k: the score difference of two offers k
// positions apart. Its root -delta / c and the integers just past it on
// either side are computed once for every range of k asked about
// (fold_query asks about four per pair of runs, and pairs of runs of the
// same two symbols share a line); they are kept as machine integers clamped
// to +-2^62, which orders them correctly against any position difference.
class ScoreLine {
  public:
    ScoreLine(const Rational &delta, const Rational &c)
        : delta_(delta), c_(c), delta_sign_(delta.sign()), c_sign_(c.sign()) {
        if (c_sign_ == 0) return;
        if (delta_sign_ == 0) { // the root 0, without a division
            integral_ = true, above_ = 1, below_ = -1;
            return;
        }
        Rational root = -delta_ / c_;
        Rational f = floor_of(root);
        integral_ = f == root;
        root_ = clamped(f);
        above_ = clamped(f + 1);
        below_ = integral_ ? clamped(f - 1) : root_;
    }

    // Least positive value over the integers k of [lo, hi]: at the first k
    // above the root when increasing, the last k below it when decreasing.
    // (null: none).
    const Rational *least_positive(long lo, long hi) const {
        if (lo > hi) return nullptr;
        if (c_sign_ == 0) return delta_sign_ > 0 ? &delta_ : nullptr;
        if (c_sign_ > 0 ? above_ > hi : below_ < lo) return nullptr;
        const long k = c_sign_ > 0 ? std::max(lo, above_) : std::min(hi, below_);
        if (!at_ || at_->first != k) at_.emplace(k, delta_ + c_ * k);
        return &at_->second;
    }

    // Whether the value is 0 at an integer k of [lo, hi].
    bool has_zero(long lo, long hi) const {
        if (lo > hi) return false;
        if (c_sign_ == 0) return delta_sign_ == 0;
        return integral_ && lo <= root_ && root_ <= hi;
    }

  private:
    Rational delta_, c_;
    int delta_sign_, c_sign_;
    long root_ = 0, above_ = 0, below_ = 0; // root_: floor of the root
    bool integral_ = false;
    mutable std::optional<std::pair<long, Rational>> at_; // the last k asked and the value there
};

struct GapFacts {
    std::optional<Rational> gap;
    bool tie = false;
};

// What one head reads of each value: W_Q d, W_K d, W_V d, distinct over S
// (the first k entries), then BOS's when there is one (entry k).
struct HeadAlphabet {
    std::vector<Vector> QE, KE, VE;
    std::size_t k = 0;
};

HeadAlphabet head_alphabet(const Head &head, const std::vector<Vector> &S, const Vector *bos) {
    HeadAlphabet h;
    std::set<std::tuple<Vector, Vector, Vector>> seen;
    for (const auto &d : S) {
        auto key =
            std::make_tuple(matvec(head.query, d), matvec(head.key, d), matvec(head.value, d));
        if (!seen.insert(key).second) continue;
        h.QE.push_back(std::get<0>(key));
        h.KE.push_back(std::get<1>(key));
        h.VE.push_back(std::get<2>(key));
    }
    h.k = h.QE.size();
    if (bos) {
        h.QE.push_back(matvec(head.query, *bos));
        h.KE.push_back(matvec(head.key, *bos));
        h.VE.push_back(matvec(head.value, *bos));
    }
    return h;
}

// Tables at one length: W_Q P(i) for every i, and W_K P(j) = K0 + j D.
struct PositionTables {
    std::vector<Vector> QP;
    Vector K0, D;
};

PositionTables position_tables(const Model &m, const Head &head, std::size_t len,
                               const std::string &where) {
    PositionTables t;
    // W_K P(j) = K0 + j D, read off the first two positions (0 and 1 with a
    // BOS position, else 1 and 2: P(0) may be undefined there)
    const std::size_t a = m.has_bos() ? 0 : 1;
    Vector ka = matvec(head.key, position(m, a, len, where));
    Vector kb = len > a ? matvec(head.key, position(m, a + 1, len, where)) : ka;
    t.D = kb;
    t.K0 = ka;
    for (std::size_t c = 0; c < t.D.size(); ++c) {
        t.D[c] -= ka[c];
        t.K0[c] -= Rational(static_cast<long>(a)) * t.D[c];
    }
    for (std::size_t j = 0; j <= len; ++j) {
        if (j == 0 && !m.has_bos()) {
            t.QP.emplace_back(m.width, Rational(0)); // no position 0: never read
            continue;
        }
        Vector p = position(m, j, len, where);
        Vector kp = matvec(head.key, p);
        for (std::size_t c = 0; c < kp.size(); ++c)
            if (kp[c] != t.K0[c] + Rational(static_cast<long>(j)) * t.D[c])
                reject(where, "its scores are not affine in the key position (at j = " +
                                  std::to_string(j) +
                                  "); this checker verifies layerwise claims for such heads only");
        t.QP.push_back(matvec(head.query, p));
    }
    return t;
}

// Which positions a head's mask lets a query see.
struct Sight {
    bool back, fwd, self;
};

// The runs of offers a query at position i (symbol a) of a word of length
// len compares, and the largest least offer of a block (a position of the
// maximum offers at least that). Offers are alpha + c j.
struct Offers {
    std::vector<Run> runs;
    Rational L, c;
};

Offers offers(const HeadAlphabet &h, const PositionTables &t, const Sight &sight, bool bos,
              std::size_t len, std::size_t i, std::size_t a) {
    Vector q = h.QE[a];
    for (std::size_t c = 0; c < q.size(); ++c)
        q[c] += t.QP[i][c];
    Offers o;
    Rational b = dot(q, t.K0);
    o.c = dot(q, t.D);
    std::vector<Rational> alpha_of; // per symbol (BOS last): its offer at position 0
    for (const auto &ke : h.KE)
        alpha_of.push_back(dot(q, ke) + b);
    std::vector<Rational> least_at; // per block of positions: the largest least offer
    auto block = [&](std::size_t lo, std::size_t hi) {
        Rational L = 0;
        for (std::size_t s = 0; s < h.k; ++s) {
            o.runs.push_back({s, static_cast<long>(lo), static_cast<long>(hi), alpha_of[s]});
            Rational best = alpha_of[s] + o.c * static_cast<long>(o.c >= 0 ? hi : lo);
            if (s == 0 || best < L) L = best;
        }
        least_at.push_back(L);
    };
    // BOS (position 0): seen by masks looking back, or by its own query when
    // the mask includes the query
    if (bos && (i == 0 ? sight.self : sight.back)) {
        o.runs.push_back({h.k, 0, 0, alpha_of[h.k]});
        least_at.push_back(o.runs.back().alpha);
    }
    if (sight.back && i >= 2) block(1, i - 1);
    if (sight.self && i >= 1) {
        const long li = static_cast<long>(i);
        o.runs.push_back({a, li, li, alpha_of[a]});
        least_at.push_back(o.runs.back().alpha + o.c * li);
    }
    if (sight.fwd && i < len) block(i + 1, len);
    if (!least_at.empty()) o.L = *std::max_element(least_at.begin(), least_at.end());
    return o;
}

// Folds one query's least gap and different-value ties into `out`: over
// pairs of runs u (the positions of u whose offer is >= L) and v, at
// different positions k = j_u - j_v != 0.
void fold_query(const HeadAlphabet &h, const Offers &o, GapFacts &out) {
    // a run's alpha is its symbol's (BOS is symbol k): one line per pair
    const std::size_t symbols = h.KE.size();
    std::vector<std::optional<ScoreLine>> lines(symbols * symbols);
    // per symbol, the first (c > 0) or last (c < 0) position whose offer is
    // at least L
    std::vector<std::optional<long>> edges(symbols);
    const int c_sign = o.c.sign();
    for (const auto &u : o.runs) {
        long lo = u.lo, hi = u.hi;
        if (c_sign == 0 && u.alpha < o.L) continue;
        if (c_sign != 0) {
            std::optional<long> &edge = edges[u.symbol];
            if (!edge) {
                Rational x = (o.L - u.alpha) / o.c;
                edge = clamped(c_sign > 0 ? ceil_of(x) : floor_of(x));
            }
            if (c_sign > 0) lo = std::max(lo, *edge);
            if (c_sign < 0) hi = std::min(hi, *edge);
        }
        if (lo > hi) continue;
        for (const auto &v : o.runs) {
            std::optional<ScoreLine> &line = lines[u.symbol * symbols + v.symbol];
            if (!line) line.emplace(u.alpha - v.alpha, o.c);
            const bool differ = h.VE[u.symbol] != h.VE[v.symbol];
            const long klo = lo - v.hi, khi = hi - v.lo;
            const long ends[2][2] = {{klo, std::min(khi, -1L)}, {std::max(klo, 1L), khi}};
            for (const auto &[from, to] : ends) {
                const Rational *g = line->least_positive(from, to);
                if (g && (!out.gap || *g < *out.gap)) out.gap = *g;
                if (differ && line->has_zero(from, to)) out.tie = true;
            }
        }
    }
}

// A head judged by its profile (proofs/profile-bound.md) at its layer's
// beta: `beta[len]` a lower bound of that beta at length len (one entry,
// index 1, when beta does not depend on n).
struct ProfileRequest {
    std::vector<Rational> beta;
    Rational eps;
    PrecisionPolicy policy;
};

// One query's offers, grouped by positions (the runs of one block share
// them); adjacent groups offering the same alphas are one group (each of
// their positions offers the same scores either way), so that queries
// differing only in where the query's own position splits a block compare
// equal.
QueryOffers query_offers(const Offers &o) {
    std::map<std::pair<long, long>, std::vector<Rational>> by_range;
    for (const auto &r : o.runs)
        by_range[{r.lo, r.hi}].push_back(r.alpha);
    QueryOffers q;
    q.c = o.c;
    for (auto &[range, alphas] : by_range) {
        std::sort(alphas.begin(), alphas.end());
        alphas.erase(std::unique(alphas.begin(), alphas.end()), alphas.end());
        if (!q.groups.empty() && q.groups.back().hi + 1 == range.first &&
            q.groups.back().alphas == alphas)
            q.groups.back().hi = range.second;
        else
            q.groups.push_back({range.first, range.second, std::move(alphas)});
    }
    return q;
}

// The judge of the last beta (its weights cached) and the last query it
// held within eps: the same offers at the same beta need no second look.
struct LastJudged {
    std::optional<ProfileJudge> judge;
    std::optional<QueryOffers> held;
};

// Rejects unless every configuration of the query keeps TV <= eps at beta.
void judge_query(const ProfileRequest &pr, LastJudged &last, const Offers &o, const Rational &beta,
                 std::size_t len, std::size_t i, const std::string &where) {
    if (!last.judge || last.judge->beta() != beta) {
        last.judge.emplace(beta, pr.eps, pr.policy.start, pr.policy.cap);
        last.held.reset();
    }
    QueryOffers q = query_offers(o);
    if (last.held && *last.held == q) return;
    ProfileFinding f = last.judge->judge(q);
    if (f.within == Tri::True) {
        last.held = std::move(q);
        return;
    }
    reject(where, std::string("its profile bound does not hold: at beta ") + to_string(beta) +
                      ", the query at position " + std::to_string(i) + " of length " +
                      std::to_string(len) + " has a configuration with maximum score " +
                      to_string(f.maximum) +
                      (f.within == Tri::False ? " whose TV exceeds eps"
                                              : " whose TV could not be shown within eps at " +
                                                    std::to_string(pr.policy.cap) + " bits"));
}

// The lengths one task of head_facts examines: lo..hi.
struct LengthBlock {
    std::size_t lo, hi;
};

// Lengths 1..n cut into about 64 blocks of equal work: a length costs its
// queries, len of them, or one where only its last position is examined.
std::vector<LengthBlock> length_blocks(std::size_t n, bool one_length) {
    auto cost = [&](std::size_t len) { return one_length ? 1.0 : static_cast<double>(len); };
    double total = 0;
    for (std::size_t len = 1; len <= n; ++len)
        total += cost(len);
    std::vector<LengthBlock> blocks;
    double part = 0;
    for (std::size_t len = 1; len <= n; ++len) {
        if (blocks.empty() || part >= total / 64) {
            blocks.push_back({len, len});
            part = 0;
        }
        blocks.back().hi = len;
        part += cost(len);
    }
    return blocks;
}

// Minimum gap and different-value ties of one head over every sequence of
// `S` (one element per position) of length up to n; with `profile`, also
// every query's profile judged at its beta.
// `bos`: the vector BOS holds (nullptr: no BOS). The queries are split into
// blocks run on --threads threads; the facts are a minimum and an "or", and
// a rejection is the first block's in order, so neither depends on them.
GapFacts head_facts(const Model &m, const Head &head, const std::vector<Vector> &S,
                    const Vector *bos, std::size_t n, const std::string &where,
                    const Limits &limits, const ProfileRequest *profile = nullptr) {
    const HeadAlphabet h = head_alphabet(head, S, bos);
    const Sight sight{sees_before(head.mask), sees_after(head.mask), includes_self(head.mask)};
    bool uses_n = false;
    for (const auto &f : m.positions)
        uses_n = uses_n || f.expr.uses_n();
    bool one_length = !uses_n && looks_backward(head.mask);
    // query configurations, each comparing |Sigma|^2 pairs of symbols
    double dk = static_cast<double>(h.k), dn = static_cast<double>(n);
    double queries = (one_length ? dn * dk : dk * dn * dn / 2) * std::max(1.0, dk * dk);
    if (queries > static_cast<double>(limits.max_queries))
        throw LimitError(where + ": re-deriving its gap would examine more than " +
                         std::to_string(limits.max_queries) +
                         " query configurations (--max-queries); nothing was verified");
    PositionTables shared;
    if (!uses_n) shared = position_tables(m, head, n, where);
    // a query at the end of length len stands for the same position of every
    // longer input when one_length: the least beta over those lengths
    std::vector<Rational> beta;
    if (profile) {
        beta = profile->beta;
        if (one_length)
            for (std::size_t len = beta.size() - 1; len-- > 1;)
                beta[len] = std::min(beta[len], beta[len + 1]);
    }
    const std::vector<LengthBlock> blocks = length_blocks(n, one_length);
    std::vector<GapFacts> found(blocks.size());
    detail::run_tasks(blocks.size(), limits.threads(), [&](std::size_t b) {
        const LengthBlock &block = blocks[b];
        LastJudged judge;
        GapFacts &out = found[b];
        auto query = [&](const PositionTables &t, std::size_t len, std::size_t i, std::size_t a) {
            check_budget(limits);
            Offers o = offers(h, t, sight, bos != nullptr, len, i, a);
            if (o.runs.empty()) return;
            fold_query(h, o, out);
            if (profile)
                judge_query(*profile, judge, o, beta[std::min(len, beta.size() - 1)], len, i,
                            where);
        };
        for (std::size_t len = block.lo; len <= block.hi; ++len) {
            PositionTables own;
            if (uses_n) own = position_tables(m, head, len, where);
            const PositionTables &t = uses_n ? own : shared;
            if (bos && (!one_length || len == 1)) query(t, len, 0, h.k); // the BOS query
            for (std::size_t i = one_length ? len : 1; i <= len; ++i)
                for (std::size_t a = 0; a < h.k; ++a)
                    query(t, len, i, a);
        }
    });
    GapFacts all;
    for (const GapFacts &f : found) {
        if (f.gap && (!all.gap || *f.gap < *all.gap)) all.gap = f.gap;
        all.tie = all.tie || f.tie;
    }
    return all;
}

std::string list_text(const std::set<std::size_t> &s) {
    std::string out;
    for (std::size_t c : s)
        out += (out.empty() ? "" : ", ") + std::to_string(c);
    return "[" + out + "]";
}

// ---- verify_layerwise, piece by piece -------------------------------------

// The certificate's own fields: keys, beta's source, proofs, verdict.
void check_layerwise_header(const OJson &cert, const std::string &criterion) {
    only_keys(cert, "$",
              {"format", "tool", "model", "n", "eps", "criterion", "method", "beta", "layers",
               "readout_exact", "verdict", "proofs"});
    only_keys(field(cert, "$", "beta"), "$.beta", {"spec", "source"});
    std::string source = text(field(cert, "$", "beta"), "$.beta", "source");
    if (source != "layerwise" && source != "user")
        reject("$.beta.source", "expected \"layerwise\" or \"user\", got \"" + source + "\"");
    if (criterion != "tv" && criterion != "output" && criterion != "decision")
        reject("$.criterion", "unknown criterion \"" + criterion + "\"");
    if (text(cert, "$", "verdict") != "certified")
        reject("$.verdict", "a layerwise certificate claims \"certified\"");
}

// The positional feature coordinates, which no head's value or output and
// no feed-forward sublayer may touch (so a position's features stay exact).
std::set<std::size_t> untouched_features(const Model &m) {
    std::set<std::size_t> features;
    for (const auto &f : m.positions)
        features.insert(f.dim);
    for (std::size_t l = 0; l < m.layers.size(); ++l) {
        const Layer &layer = m.layers[l];
        std::string p = "layer " + std::to_string(l + 1);
        for (std::size_t c : features) {
            for (const auto &h : layer.heads)
                if (column_used(h.value, c) || row_used(h.output, c))
                    reject("$.method", p +
                                           ": a head's value reads or output writes feature "
                                           "coordinate " +
                                           std::to_string(c));
            if (layer.ffn && (column_used(layer.ffn->w1, c) || row_used(layer.ffn->w2, c) ||
                              layer.ffn->b2[c] != 0))
                reject("$.method", p + ": the feed-forward sublayer touches feature coordinate " +
                                       std::to_string(c));
        }
    }
    return features;
}

BetaSpec layerwise_beta(const OJson &cert, const Model &m) {
    std::string spec = text(field(cert, "$", "beta"), "$.beta", "spec");
    try {
        return BetaSpec::parse(spec, m.layers.size(), "$.beta.spec");
    } catch (const InputError &e) {
        reject("$.beta.spec", e.what());
    }
}

// What the walk over layers carries: the hard values of free positions (S)
// and of BOS (B), the coordinates the soft model perturbs, the count
// coordinates (check_counts.hpp).
struct LayerValues {
    std::vector<Vector> S, B;
    std::set<std::size_t> tainted;
    Counts counts;
};

// A layer entry's value counts and keys; no head or sublayer reads a
// perturbed coordinate.
void check_layer_entry(const OJson &claim, const std::string &p, const Layer &layer, std::size_t l,
                       const LayerValues &v) {
    if (count(claim, p, "values") != v.S.size())
        reject(p + ".values", "claims " + std::to_string(count(claim, p, "values")) +
                                  ", recomputed " + std::to_string(v.S.size()));
    if (count(claim, p, "bos_values") != v.B.size())
        reject(p + ".bos_values", "claims " + std::to_string(count(claim, p, "bos_values")) +
                                      ", recomputed " + std::to_string(v.B.size()));
    for (std::size_t c : v.tainted) {
        for (const auto &h : layer.heads)
            if (column_used(h.query, c) || column_used(h.key, c) || column_used(h.value, c))
                reject(p, "a head reads coordinate " + std::to_string(c) +
                              ", which the soft model perturbs");
        if (layer.ffn && column_used(layer.ffn->w1, c))
            reject(p, "the feed-forward sublayer reads coordinate " + std::to_string(c) +
                          ", which the soft model perturbs");
    }
    only_keys(claim, p, {"layer", "values", "bos_values", "heads", "perturbed"});
    same_count(claim, p, "layer", l + 1);
}

// The distinct outputs W_O W_V d of a head over the values in `sets` (and
// the zero output of an empty allowed set when `empty`).
std::vector<Vector> head_outputs(const Head &head,
                                 const std::vector<const std::vector<Vector> *> &sets, bool empty,
                                 std::size_t width) {
    std::set<Vector> out;
    for (const auto *set : sets)
        for (const auto &d : *set)
            out.insert(matvec(head.output, matvec(head.value, d)));
    if (empty) out.insert(Vector(width, Rational(0)));
    return std::vector<Vector>(out.begin(), out.end());
}

// Adds to each coordinate of `span` the range of the outputs there.
void widen(Vector &span, const std::vector<Vector> &out) {
    for (std::size_t c = 0; c < span.size(); ++c) {
        Rational lo = out.front()[c], hi = lo;
        for (const auto &o : out) {
            lo = std::min(lo, o[c]);
            hi = std::max(hi, o[c]);
        }
        span[c] += hi - lo;
    }
}

// One layer's heads, re-derived: their need for beta, the spans of their
// outputs (real positions, BOS), the outputs each may add, new counts.
struct LayerHeads {
    Rational need = 0;       // Lemma GT's, over the heads not judged by their profile
    bool by_profile = false; // some head judged by its profile
    Vector span, span_B;
    std::vector<std::vector<Vector>> outputs, outputs_B;
    Counts fresh;
};

// A head's least gap (and whether it ties different values), by its kind;
// with `profile`, every query's profile judged too.
GapFacts head_gap(const Model &m, const Layer &layer, std::size_t h, const LayerValues &v,
                  bool uniform, LayerHeads &out, std::size_t n, const std::string &hp,
                  const Limits &limits, ProfileRequest *profile) {
    const Head &head = layer.heads[h];
    GapFacts f;
    bool counting = !uniform && reads_count(head.query, v.counts);
    if (profile && (uniform || counting))
        reject(hp + ".judged_by", std::string("a profile judgement covers heads whose scores the "
                                              "closed form covers; this head is ") +
                                      (uniform ? "uniform" : "a counting head"));
    if (uniform) { // exact at every beta; real positions' outputs are counts
        add_counts(layer, h, v.S, v.B, out.fresh, hp);
    } else if (counting) {
        f.gap = counting_gap(head, v.S, v.B, v.counts, n, m.has_bos(), hp);
    } else { // BOS holds one of B in a word: the least gap over the choices
        for (std::size_t x = 0; x < std::max<std::size_t>(v.B.size(), 1); ++x) {
            GapFacts one =
                head_facts(m, head, v.S, v.B.empty() ? nullptr : &v.B[x], n, hp, limits, profile);
            if (one.gap && (!f.gap || *one.gap < *f.gap)) f.gap = one.gap;
            f.tie = f.tie || one.tie;
        }
    }
    if (f.tie) reject(hp, "two positions can tie with different values");
    return f;
}

// The head entry's claims (min_gap, N, beta_gap_up); returns its bound.
Rational check_head_entry(const OJson &entry, const std::string &hp, std::size_t h,
                          const Head &head, const GapFacts &f, const Model &m, std::size_t n,
                          const Rational &eps, const PrecisionPolicy &policy) {
    only_keys(entry, hp, {"head", "min_gap", "N", "beta_gap_up", "judged_by"});
    same_count(entry, hp, "head", h + 1);
    same_gap(entry, hp, "min_gap", f.gap);
    std::size_t N = max_allowed(head.mask, n, m.has_bos());
    if (count(entry, hp, "N") != N)
        reject(hp + ".N", "claims " + std::to_string(count(entry, hp, "N")) + ", recomputed " +
                              std::to_string(N));
    // an upper bound of Lemma GT's beta, compared as an inequality
    rounded_up(entry, hp, "beta_gap_up", LemmaGt{N, f.gap, eps}, policy);
    return exact(entry, hp, "beta_gap_up");
}

// What a head may add at real positions and at BOS, by its mask.
void add_head_outputs(const Head &head, bool uniform, const LayerValues &v, std::size_t width,
                      LayerHeads &out) {
    if (uniform) { // counts stay out of S; BOS averages over itself
        out.outputs.push_back({Vector(width, Rational(0))});
        out.outputs_B.push_back(head_outputs(head, {&v.B}, false, width));
        return;
    }
    std::vector<Vector> all = head_outputs(head, {&v.S, &v.B}, can_be_empty(head.mask), width);
    widen(out.span, all);
    out.outputs.push_back(all);
    if (head.mask == Mask::Causal) { // BOS's query sees BOS alone: exact
        out.outputs_B.push_back(head_outputs(head, {&v.B}, false, width));
    } else if (head.mask == Mask::Strict) { // BOS's query sees nothing
        out.outputs_B.push_back({Vector(width, Rational(0))});
    } else {
        widen(out.span_B, all);
        out.outputs_B.push_back(all);
    }
}

// Whether a head entry claims a profile judgement ("judged_by": "profile";
// absent: Lemma GT at the least gap).
bool judged_by_profile(const OJson &entry, const std::string &hp) {
    if (!entry.is_object() || !entry.contains("judged_by")) return false;
    std::string how = text(entry, hp, "judged_by");
    if (how != "profile")
        reject(hp + ".judged_by", "expected \"profile\" (or no such key), got \"" + how + "\"");
    return true;
}

// Lower bounds of layer l's beta at every length it takes.
ProfileRequest profile_request(const BetaSpec &beta, std::size_t l, std::size_t n,
                               const Rational &eps, const PrecisionPolicy &policy) {
    ProfileRequest pr;
    pr.eps = eps;
    pr.policy = policy;
    const std::size_t lengths = beta.uses_n() ? n : 1;
    pr.beta.assign(lengths + 1, Rational(0));
    for (std::size_t len = 1; len <= lengths; ++len) {
        Real b;
        try {
            b = beta.at(l, len, policy.start);
        } catch (const std::runtime_error &e) {
            reject("$.beta.spec", e.what());
        }
        Rational lo = b.is_exact() ? b.exact() : b.interval()->lower_exact();
        if (lo <= 0)
            reject("$.beta.spec",
                   "layer " + std::to_string(l + 1) +
                       "'s beta is not certainly positive at n = " + std::to_string(len));
        pr.beta[len] = lo;
    }
    pr.beta[0] = pr.beta[1]; // not read
    return pr;
}

LayerHeads verify_heads(const Model &m, std::size_t l, const OJson &claim, const std::string &p,
                        const LayerValues &v, const BetaSpec &beta, std::size_t n,
                        const Rational &eps, const Limits &limits, const PrecisionPolicy &policy) {
    const Layer &layer = m.layers[l];
    const OJson &heads = field(claim, p, "heads");
    if (!heads.is_array() || heads.size() != layer.heads.size())
        reject(p + ".heads",
               "expected one entry per head (" + std::to_string(layer.heads.size()) + ")");
    LayerHeads out;
    out.span = out.span_B = Vector(m.width, Rational(0));
    for (std::size_t h = 0; h < layer.heads.size(); ++h) {
        const std::string hp = p + ".heads[" + std::to_string(h) + "]";
        bool uniform = is_uniform(layer.heads[h], v.S, v.B);
        std::optional<ProfileRequest> profile;
        if (judged_by_profile(heads[h], hp)) profile = profile_request(beta, l, n, eps, policy);
        GapFacts f =
            head_gap(m, layer, h, v, uniform, out, n, hp, limits, profile ? &*profile : nullptr);
        Rational gt = check_head_entry(heads[h], hp, h, layer.heads[h], f, m, n, eps, policy);
        if (profile)
            out.by_profile = true; // its queries were judged at beta itself
        else
            out.need = std::max(out.need, gt);
        add_head_outputs(layer.heads[h], uniform, v, m.width, out);
    }
    return out;
}

// Every length's beta of layer l is positive and meets Lemma GT's need.
void check_layer_beta(const BetaSpec &beta, std::size_t l, const Rational &need, std::size_t n,
                      const PrecisionPolicy &policy) {
    for (std::size_t len = 1; len <= (beta.uses_n() ? n : 1); ++len) {
        try {
            beta.at(l, len, policy.start); // throws if not positive, or undecided
        } catch (const std::runtime_error &e) {
            reject("$.beta.spec", e.what());
        }
        // raised up to the cap before refusing: a true certificate whose beta
        // is wide at the start precision is not refused for that alone
        if (need > 0 && beta.at_least(l, len, need, policy.start, policy.cap) != Tri::True)
            reject("$.beta.spec",
                   "layer " + std::to_string(l + 1) + " needs beta >= " + to_string(need) +
                       " (Lemma GT over its value set)" +
                       (beta.uses_n() ? ", not met at n = " + std::to_string(len) : ""));
    }
}

// A layer's soft radius: which coordinates its heads perturb, and by how much.
struct Radius {
    const std::set<std::size_t> &perturbed;
    const Vector &span;
};

// The sublayer on one half-activation d, phase-stable within the radius;
// coordinates the soft model may perturb after it go into `next_tainted`.
Vector ffn_on(const Ffn &f, const Vector &d, const Radius &r, const Rational &eps,
              const std::string &p, std::set<std::size_t> &next_tainted) {
    Vector pre = matvec(f.w1, d), out = d;
    std::vector<bool> on(pre.size());
    for (std::size_t u = 0; u < pre.size(); ++u) {
        pre[u] += f.b1[u];
        Rational R = 0;
        for (std::size_t c : r.perturbed)
            R += abs(f.w1[u][c]) * eps * r.span[c];
        if (pre[u] > -R && pre[u] < R)
            reject(p, "ReLU unit " + std::to_string(u + 1) +
                          " can change phase within the soft radius");
        on[u] = pre[u] >= R;
        if (on[u])
            for (std::size_t c = 0; c < out.size(); ++c)
                out[c] += f.w2[c][u] * pre[u];
    }
    for (std::size_t c = 0; c < out.size(); ++c) {
        out[c] += f.b2[c];
        for (std::size_t q : r.perturbed) {
            Rational jac = c == q ? 1 : 0;
            for (std::size_t u = 0; u < pre.size(); ++u)
                if (on[u]) jac += f.w2[c][u] * f.w1[u][q];
            if (jac != 0) next_tainted.insert(c);
        }
    }
    return out;
}

// One position's values after the layer: each value plus one output of
// every head, then the sublayer on each.
std::vector<Vector> advance(const Layer &layer, const std::vector<Vector> &start,
                            const std::vector<std::vector<Vector>> &outputs, const Radius &r,
                            const Rational &eps, std::size_t cap, const std::string &p,
                            std::set<std::size_t> &next_tainted) {
    std::set<Vector> half(start.begin(), start.end());
    for (const auto &out : outputs) {
        std::set<Vector> next;
        for (const auto &d : half)
            for (const auto &o : out) {
                Vector s = d;
                for (std::size_t c = 0; c < s.size(); ++c)
                    s[c] += o[c];
                next.insert(std::move(s));
            }
        if (next.size() > cap)
            reject(p, "more than " + std::to_string(cap) + " hard values (--max-values)");
        half = std::move(next);
    }
    if (!layer.ffn) return std::vector<Vector>(half.begin(), half.end());
    std::set<Vector> after;
    for (const auto &d : half)
        after.insert(ffn_on(*layer.ffn, d, r, eps, p, next_tainted));
    return std::vector<Vector>(after.begin(), after.end());
}

void check_perturbed(const OJson &claim, const std::string &p,
                     const std::set<std::size_t> &tainted) {
    std::set<std::size_t> claimed;
    const OJson &pj = field(claim, p, "perturbed");
    if (!pj.is_array()) reject(p + ".perturbed", "expected a list of coordinates");
    for (const auto &c : pj) {
        if (!c.is_number_unsigned()) reject(p + ".perturbed", "expected coordinates");
        // a list, not a set: a repeated entry is a malformed claim
        if (!claimed.insert(c.get<std::size_t>()).second)
            reject(p + ".perturbed", "lists coordinate " + c.dump() + " twice");
    }
    if (claimed != tainted)
        reject(p + ".perturbed",
               "claims " + list_text(claimed) + ", recomputed " + list_text(tainted));
}

// One layer: its entry, heads and beta checked; `v` moved past it. Whether
// a head of it was judged by its profile.
bool verify_layer(const Model &m, std::size_t l, const OJson &claim, const BetaSpec &beta,
                  const std::set<std::size_t> &features, LayerValues &v, std::size_t n,
                  const Rational &eps, const Limits &limits, const PrecisionPolicy &policy) {
    const Layer &layer = m.layers[l];
    const std::string p = "$.layers[" + std::to_string(l) + "]";
    check_count_reads(layer, v.counts, features, p);
    check_layer_entry(claim, p, layer, l, v);
    LayerHeads heads = verify_heads(m, l, claim, p, v, beta, n, eps, limits, policy);
    check_layer_beta(beta, l, heads.need, n, policy);
    for (const auto &entry : heads.fresh)
        v.counts.insert(entry);
    std::set<std::size_t> perturbed = v.tainted, perturbed_B = v.tainted;
    for (std::size_t c = 0; c < m.width; ++c) {
        if (heads.span[c] != 0) perturbed.insert(c);
        if (heads.span_B[c] != 0) perturbed_B.insert(c);
    }
    std::set<std::size_t> next_tainted;
    if (!layer.ffn) next_tainted = perturbed;
    const std::size_t cap = limits.max_values; // hard values per position (--max-values)
    std::vector<Vector> S = advance(layer, v.S, heads.outputs, Radius{perturbed, heads.span}, eps,
                                    cap, p, next_tainted);
    std::vector<Vector> B = advance(layer, v.B, heads.outputs_B, Radius{perturbed_B, heads.span_B},
                                    eps, cap, p, next_tainted);
    v.tainted = next_tainted;
    check_perturbed(claim, p, v.tainted);
    v.S = std::move(S);
    v.B = std::move(B);
    return heads.by_profile;
}

// The read-out reads no count coordinate; readout_exact as recomputed.
void check_layerwise_readout(const OJson &cert, const Model &m, const LayerValues &v,
                             const std::string &criterion) {
    bool exact_readout = true;
    const std::vector<std::size_t> read = m.output.coordinates(); // sorted
    for (const auto &entry : v.counts)
        if (std::binary_search(read.begin(), read.end(), entry.first))
            reject("$.readout_exact",
                   "the read-out reads count coordinate " + std::to_string(entry.first));
    for (std::size_t c : v.tainted)
        exact_readout = exact_readout && !std::binary_search(read.begin(), read.end(), c);
    const OJson &ro = field(cert, "$", "readout_exact");
    if (!ro.is_boolean() || ro.get<bool>() != exact_readout)
        reject("$.readout_exact", std::string("recomputed ") + (exact_readout ? "true" : "false"));
    if (criterion != "tv" && !exact_readout)
        reject("$.criterion", "the read-out reads a perturbed coordinate, so only tv is certified");
}

} // namespace

void verify_layerwise(const OJson &cert, const Model &m, std::size_t n, const Rational &eps,
                      const std::string &criterion, const Limits &limits,
                      const PrecisionPolicy &policy) {
    check_layerwise_header(cert, criterion);
    const std::set<std::size_t> features = untouched_features(m);
    const BetaSpec beta = layerwise_beta(cert, m);
    const OJson &layers = field(cert, "$", "layers");
    if (!layers.is_array() || layers.size() != m.layers.size())
        reject("$.layers",
               "expected one entry per layer (" + std::to_string(m.layers.size()) + ")");
    LayerValues v;
    for (const auto &sym : m.alphabet)
        v.S.push_back(m.embedding.at(sym));
    if (m.has_bos()) v.B.push_back(m.embedding.at(*m.bos));
    bool by_profile = false;
    for (std::size_t l = 0; l < m.layers.size(); ++l)
        by_profile =
            verify_layer(m, l, layers[l], beta, features, v, n, eps, limits, policy) || by_profile;
    check_layerwise_readout(cert, m, v, criterion);
    std::vector<std::string> proofs{"proofs/layerwise.md", "proofs/symbolic-gap.md",
                                    "proofs/lemma-gt.md"};
    if (by_profile) proofs.push_back("proofs/profile-bound.md");
    same_list(cert, "$", "proofs", proofs);
}

std::set<std::size_t> feature_coordinates(const Model &m) {
    return untouched_features(m);
}

BetaSpec certificate_beta(const OJson &cert, const Model &m) {
    return layerwise_beta(cert, m);
}

std::optional<Rational> value_set_gap(const Model &m, const Head &head,
                                      const std::vector<Vector> &S, const std::vector<Vector> &B,
                                      std::size_t n, const std::string &hp, const Limits &limits) {
    GapFacts f;
    for (std::size_t x = 0; x < std::max<std::size_t>(B.size(), 1); ++x) {
        GapFacts one = head_facts(m, head, S, B.empty() ? nullptr : &B[x], n, hp, limits);
        if (one.gap && (!f.gap || *one.gap < *f.gap)) f.gap = one.gap;
        f.tie = f.tie || one.tie;
    }
    if (f.tie) reject(hp, "two positions can tie with different values");
    return f.gap;
}

std::vector<Vector> distinct_outputs(const Head &head,
                                     const std::vector<const std::vector<Vector> *> &sets,
                                     bool empty, std::size_t width) {
    return head_outputs(head, sets, empty, width);
}

Vector position_vector(const Model &m, std::size_t j, std::size_t len, const std::string &where) {
    return position(m, j, len, where);
}

} // namespace tempcert::check
