// A perturbation certificate's claims, re-derived; see claims.hpp.
#include "claim_checks.hpp"
#include "claims.hpp"
#include "value_sets.hpp"

#include <algorithm>

namespace minicheck {
namespace {
// sum_c |w_rc| r_c for every row r.
Vec abs_times(const Mat &w, const Vec &r) {
    Vec out(w.size(), 0);
    for (std::size_t row = 0; row < w.size(); ++row)
        for (std::size_t c = 0; c < r.size(); ++c)
            out[row] += abs(w[row][c]) * r[c];
    return out;
}

// Each feature coordinate's least and largest value over every position
// (BOS's 0 too) of every length 1..n.
struct Range {
    Vec lo, hi;
};

Range feature_range(const Model &m, std::size_t n, std::uint64_t budget) {
    Range r{Vec(m.width, 0), Vec(m.width, 0)};
    const std::set<std::size_t> features = feature_coordinates(m);
    bool uses_n = false, first = true;
    for (const auto &f : m.features)
        uses_n = uses_n || f.expr.uses(Expr::Op::N);
    if (uses_n && static_cast<double>(n) * static_cast<double>(n + 1) / 2 > budget)
        unsupported("$.n", "the features' range over every length would take more than "
                           "--max-queries positions");
    for (std::size_t len = uses_n ? 1 : n; len <= n && !features.empty(); ++len)
        for (std::size_t j = m.bos ? 0 : 1; j <= len; ++j) {
            const Vec p = features_at(m, j, len);
            for (std::size_t c : features) {
                r.lo[c] = first ? p[c] : std::min(r.lo[c], p[c]);
                r.hi[c] = first ? p[c] : std::max(r.hi[c], p[c]);
            }
            first = false;
        }
    return r;
}

// The ends of w . P over the feature box.
std::pair<Q, Q> feature_part(const Vec &w, const Range &f, const std::set<std::size_t> &features) {
    Q lo = 0, hi = 0;
    for (std::size_t c : features) {
        Q a = w[c] * f.lo[c], b = w[c] * f.hi[c];
        lo += std::min(a, b);
        hi += std::max(a, b);
    }
    return {lo, hi};
}

// max |(W x)_r| over x = d + P, d in the sets, P in the feature box.
Vec magnitudes(const Mat &w, const std::vector<Vec> &S, const std::vector<Vec> &B, const Range &f,
               const std::set<std::size_t> &features) {
    Vec out(w.size(), 0);
    for (std::size_t row = 0; row < w.size(); ++row) {
        auto [lo, hi] = feature_part(w[row], f, features);
        for (const auto *set : {&S, &B})
            for (const Vec &d : *set) {
                const Q v = dot(w[row], d);
                out[row] = std::max({out[row], Q(abs(v + lo)), Q(abs(v + hi))});
            }
    }
    return out;
}

// Spread competitors: when every feature is affine in j on 1..n and reads
// no n, and the query reads no feature, a key's score is alpha + c (j - 1)
// with |c| >= spread, and keys sharing W_K d form one of `classes` (BOS its
// own). Spread 0: not available.
struct Spread {
    Q spread = 0;
    std::size_t classes = 0;
};

Spread spread_of(const Model &m, const Head &head, const std::vector<Vec> &S,
                 const std::vector<Vec> &B, std::size_t n) {
    Spread out;
    for (const auto &f : m.features)
        if (f.expr.uses(Expr::Op::N) || reads_column(head.query, f.dim)) return out;
    if (n < 2) return out;
    const Vec p1 = features_at(m, 1, n);
    Vec step = features_at(m, 2, n);
    for (std::size_t c = 0; c < step.size(); ++c)
        step[c] -= p1[c];
    for (std::size_t j = 3; j <= n; ++j) {
        const Vec p = features_at(m, j, n);
        for (std::size_t c = 0; c < p.size(); ++c)
            if (p[c] != p1[c] + Q(static_cast<unsigned long>(j - 1)) * step[c]) return out;
    }
    const Vec ks = mat_times(head.key, step);
    bool first = true;
    for (const auto *set : {&S, &B})
        for (const Vec &d : *set) {
            const Q c = dot(mat_times(head.query, d), ks);
            out.spread = first ? Q(abs(c)) : std::min(out.spread, Q(abs(c)));
            first = false;
        }
    std::set<Vec> keys;
    for (const Vec &d : S)
        keys.insert(mat_times(head.key, d));
    out.classes = out.spread > 0 ? keys.size() + (B.empty() ? 0 : 1) : 0;
    return out;
}

// An enclosure of tv_h = X/(1 + X) + tanh(beta e / 2), X = competitors
// e^{-beta (gamma - 2e)} (proofs/perturbation.md, "Weights").
Iv tv_bound(const std::optional<Q> &gap, std::size_t N, const Spread &sp, const Q &e,
            const Iv &beta, long prec) {
    const Iv one(1, prec);
    Iv sum(0, prec);
    if (e != 0) {
        Iv x = exp(e * beta);
        sum = (x - one) / (x + one);
    }
    if (!gap || N <= 1) return sum;
    Iv competitors(Q(static_cast<unsigned long>(N - 1)), prec);
    if (sp.spread > 0) {
        // 1 - e^{-spread beta} as -expm1(-spread beta): no cancellation when
        // spread beta is tiny, and an enclosure reaching 0 leaves per_class
        // unbounded above, which is then not used
        Iv per_class = Iv(Q(static_cast<unsigned long>(sp.classes)), prec) /
                       (Iv(0, prec) - expm1(Q(-sp.spread) * beta));
        // min(N - 1, per_class) <= either: the one with the lower upper end
        if (per_class.finite() && per_class.upper() < competitors.upper())
            competitors = Iv(per_class.upper(), prec);
    }
    Iv X = exp(Q(2 * e - *gap) * beta) * competitors;
    return sum + X / (one + X);
}

// A claimed number, at least `floor`.
Q at_least(const Json &obj, const std::string &path, const char *key, const Q &floor) {
    Q claimed = exact_at(obj, path, key);
    if (claimed < floor)
        rejected(path + "." + key, "claims " + to_text(claimed) + ", below the bound " +
                                       to_text(floor) + " recomputed from the previous claims");
    return claimed;
}

struct Context {
    const Model &m;
    std::size_t n;
    Q eps;
    std::string criterion;
    const Limits &limits;
    Range features;
    std::set<std::size_t> feature_dims;
};

// The values and radius carried into a layer.
struct State {
    std::vector<Vec> S, B;
    Vec r;
};

// One head: its gap, N, score deviation e and tv; adds its output's
// deviation to `half`.
void check_head(const Context &cx, const Json &entry, const std::string &p, const Head &head,
                std::size_t h, const Expr &beta, const State &w, Vec &half) {
    only_keys(entry, p, {"head", "min_gap", "N", "score_deviation", "tv"});
    same_count(entry, p, "head", h + 1);
    const std::optional<Q> gap = least_gap(cx.m, head, w.S, w.B, cx.n, cx.limits.max_queries, p);
    compare_gap(entry, p, gap);
    const std::size_t N = most_seen(cx.m, head.mask, cx.n);
    same_count(entry, p, "N", N);
    const Vec a = abs_times(head.query, w.r), b = abs_times(head.key, w.r);
    const Vec Qm = magnitudes(head.query, w.S, w.B, cx.features, cx.feature_dims);
    const Vec Km = magnitudes(head.key, w.S, w.B, cx.features, cx.feature_dims);
    Q e = 0;
    for (std::size_t r = 0; r < a.size(); ++r)
        e += a[r] * Km[r] + Qm[r] * b[r] + a[r] * b[r];
    const Q e_claim = at_least(entry, p, "score_deviation", e);
    if (gap && N > 1 && *gap <= 2 * e_claim)
        rejected(p + ".score_deviation", "at least half the gap: the argument does not close");
    const Spread sp = spread_of(cx.m, head, w.S, w.B, cx.n);
    const Q tv = exact_at(entry, p, "tv");
    at_rising_precision(cx.limits.prec_cap, p + ".tv",
                        "at least the bound of proofs/perturbation.md", [&](long prec) {
                            Iv bound = tv_bound(gap, N, sp, e_claim,
                                                beta.enclose(Q(static_cast<unsigned long>(cx.n)),
                                                             prec, "$.beta.spec"),
                                                prec);
                            if (bound.broken()) return Tri::Unknown;
                            if (bound.at_most(tv)) return Tri::True;
                            return bound.above(tv) ? Tri::False : Tri::Unknown;
                        });
    if (cx.criterion == "tv" && tv > cx.eps) rejected(p + ".tv", "above eps");
    // o' - o = sum p (v' - v) + sum (p - u) v: |W_O W_V| r, plus tv times the span
    Mat ov(head.output.size(), Vec(cx.m.width, 0));
    for (std::size_t i = 0; i < ov.size(); ++i)
        for (std::size_t k = 0; k < head.value.size(); ++k)
            for (std::size_t j = 0; j < cx.m.width; ++j)
                ov[i][j] += head.output[i][k] * head.value[k][j];
    const Vec moved = abs_times(ov, w.r);
    const std::set<Vec> mixed = head_outputs(head, {&w.S, &w.B}, false, cx.m.width);
    for (std::size_t c = 0; c < cx.m.width; ++c) {
        auto [lo, hi] = std::minmax_element(
            mixed.begin(), mixed.end(), [&](const Vec &x, const Vec &y) { return x[c] < y[c]; });
        half[c] += moved[c] + tv * ((*hi)[c] - (*lo)[c]);
    }
}

Vec pre_activation(const Ffn &f, const Vec &d) {
    Vec pre = mat_times(f.w1, d);
    for (std::size_t k = 0; k < pre.size(); ++k)
        pre[k] += f.b1[k];
    return pre;
}

// The sublayer's deviation at one hard half-activation (proofs/perturbation.md,
// "Feed-forward"): |I + W2 D W1| r plus each kink unit's deviation.
Vec ffn_deviation(const Ffn &f, const Vec &d, const Vec &r) {
    const Vec pre = pre_activation(f, d), R = abs_times(f.w1, r);
    Vec out(r.size(), 0);
    for (std::size_t c = 0; c < r.size(); ++c) {
        for (std::size_t q = 0; q < r.size(); ++q) {
            if (r[q] == 0) continue;
            Q jacobian = c == q ? 1 : 0;
            for (std::size_t k = 0; k < pre.size(); ++k)
                if (pre[k] >= R[k]) jacobian += f.w2[c][k] * f.w1[k][q];
            out[c] += abs(jacobian) * r[q];
        }
        for (std::size_t k = 0; k < pre.size(); ++k)
            if (pre[k] < R[k] && pre[k] > -R[k]) // a kink within reach
                out[c] += abs(f.w2[c][k]) * (pre[k] < 0 ? Q(pre[k] + R[k]) : R[k]);
    }
    return out;
}

std::vector<Vec> through(const Ffn &f, const std::set<Vec> &half) {
    std::set<Vec> out;
    for (const Vec &d : half) {
        const Vec pre = pre_activation(f, d);
        Vec x = d;
        for (std::size_t c = 0; c < x.size(); ++c) {
            for (std::size_t k = 0; k < pre.size(); ++k)
                if (pre[k] > 0) x[c] += f.w2[c][k] * pre[k];
            x[c] += f.b2[c];
        }
        out.insert(std::move(x));
    }
    return std::vector<Vec>(out.begin(), out.end());
}

Vec claimed_radius(const Json &claim, const std::string &p, std::size_t width) {
    const Json &list = at(claim, p, "radius");
    require_array(list, p + ".radius");
    if (list.size() != width)
        malformed(p + ".radius", "expected " + std::to_string(width) + " numbers");
    Vec r;
    for (std::size_t c = 0; c < width; ++c) {
        auto q =
            list[c].is_string() ? parse_number(list[c].get<std::string>(), false) : std::nullopt;
        if (!q || *q < 0)
            malformed(p + ".radius[" + std::to_string(c) + "]", "expected an exact number >= 0");
        r.push_back(*q);
    }
    return r;
}

void check_layer(const Context &cx, const Json &claim, std::size_t l, const Expr &beta, State &w) {
    const std::string p = "$.layers[" + std::to_string(l) + "]";
    const Layer &layer = cx.m.layers[l];
    only_keys(claim, p, {"layer", "values", "bos_values", "heads", "kinks", "radius"});
    same_count(claim, p, "layer", l + 1);
    same_count(claim, p, "values", w.S.size());
    same_count(claim, p, "bos_values", w.B.size());
    count_at(claim, p, "kinks"); // informative
    const Json &heads = at(claim, p, "heads");
    require_array(heads, p + ".heads");
    same(heads.size() == layer.heads.size(), p + ".heads", std::to_string(heads.size()) + " heads",
         std::to_string(layer.heads.size()));
    Vec half = w.r;
    std::vector<std::set<Vec>> add, add_B;
    for (std::size_t h = 0; h < layer.heads.size(); ++h) {
        const Head &head = layer.heads[h];
        check_head(cx, heads[h], p + ".heads[" + std::to_string(h) + "]", head, h, beta, w, half);
        add.push_back(head_outputs(head, {&w.S, &w.B}, can_be_empty(head.mask), cx.m.width));
        if (head.mask == Mask::Causal) // BOS's query sees BOS alone
            add_B.push_back(head_outputs(head, {&w.B}, false, cx.m.width));
        else if (head.mask == Mask::Strict) // nothing
            add_B.push_back({Vec(cx.m.width, 0)});
        else
            add_B.push_back(add.back());
    }
    const std::set<Vec> hs = plus_outputs(w.S, add, cx.limits.max_values, p);
    const std::set<Vec> hb = plus_outputs(w.B, add_B, cx.limits.max_values, p);
    Vec next = half;
    if (layer.ffn) {
        next.assign(cx.m.width, 0);
        for (const auto *set : {&hs, &hb})
            for (const Vec &d : *set) {
                const Vec dev = ffn_deviation(*layer.ffn, d, half);
                for (std::size_t c = 0; c < next.size(); ++c)
                    next[c] = std::max(next[c], dev[c]);
            }
    }
    const Vec claimed = claimed_radius(claim, p, cx.m.width);
    for (std::size_t c = 0; c < claimed.size(); ++c)
        if (claimed[c] < next[c])
            rejected(p + ".radius[" + std::to_string(c) + "]",
                     "claims " + to_text(claimed[c]) + ", below the bound " + to_text(next[c]));
    w.S = layer.ffn ? through(*layer.ffn, hs) : std::vector<Vec>(hs.begin(), hs.end());
    w.B = layer.ffn ? through(*layer.ffn, hb) : std::vector<Vec>(hb.begin(), hb.end());
    w.r = claimed;
}

// The read-out's deviation, and for decision the least hard margin over
// the final values (the features' range included).
void check_readout(const Context &cx, const Json &cert, const State &w) {
    const Json &ro = at(cert, "$", "readout");
    only_keys(ro, "$.readout", {"deviation", "margin"});
    const Model &m = cx.m;
    Q dev = 0;
    std::optional<Q> margin;
    bool degenerate = false;
    auto lower = [&](const Q &x) { margin = margin ? std::min(*margin, x) : x; };
    if (!m.categorical) {
        for (std::size_t c = 0; c < m.width; ++c)
            dev += abs(m.weights[c]) * w.r[c];
        auto [lo, hi] = feature_part(m.weights, cx.features, cx.feature_dims);
        for (const Vec &d : w.S) {
            const Q y = m.bias + dot(m.weights, d);
            degenerate = degenerate || (y + lo <= 0 && y + hi >= 0);
            lower(y + lo > 0 ? Q(y + lo) : Q(-(y + hi)));
        }
    } else {
        for (const auto &cl : m.classes) {
            if (cx.feature_dims.count(cl.first))
                rejected("$.readout", "a class coordinate is a feature");
            dev = std::max(dev, w.r[cl.first]);
        }
        for (const Vec &d : w.S) {
            std::vector<Q> v;
            for (const auto &cl : m.classes)
                v.push_back(d[cl.first]);
            std::sort(v.rbegin(), v.rend());
            if (v.size() > 1 && v[0] != v[1]) lower((v[0] - v[1]) / 2);
        }
    }
    const Q claimed = at_least(ro, "$.readout", "deviation", dev);
    if (cx.criterion == "output" && claimed > cx.eps) rejected("$.readout.deviation", "above eps");
    if (cx.criterion != "decision") {
        same_at(ro, "$.readout", "margin", nullptr); // the criterion is not decision
        return;
    }
    if (degenerate) rejected("$.readout.margin", "a hard read-out over the value set can be 0");
    const Q want = margin.value_or(1);
    same(exact_at(ro, "$.readout", "margin") == want, "$.readout.margin",
         text_at(ro, "$.readout", "margin"), to_text(want));
    if (claimed >= want) rejected("$.readout.deviation", "not below the margin");
}
} // namespace

std::string verify_perturbation(const Json &cert, const Model &m, const Limits &limits) {
    const Json &layers = argument_fields(cert, m, "perturbation", "readout");
    const Json proofs = {"proofs/perturbation.md", "proofs/symbolic-gap.md", "proofs/lemma-gt.md"};
    same_at(cert, "$", "proofs", proofs);
    const Claim c = read_claim(cert, m);
    const std::vector<Expr> betas = read_betas(cert, m);
    for (const Expr &b : betas) {
        if (b.uses(Expr::Op::N)) rejected("$.beta.spec", "expected betas that do not depend on n");
        require_positive(b, limits.prec_cap, "$.beta.spec");
    }
    const Context cx{m,
                     c.n,
                     c.eps,
                     c.criterion,
                     limits,
                     feature_range(m, c.n, limits.max_queries),
                     feature_coordinates(m)};
    State w{first_values(m), first_bos_values(m), Vec(m.width, 0)};
    for (std::size_t l = 0; l < m.layers.size(); ++l)
        check_layer(cx, layers[l], l, betas[betas.size() == 1 ? 0 : l], w);
    check_readout(cx, cert, w);
    return "perturbation bounds re-derived over " + std::to_string(c.n) + " lengths";
}
} // namespace minicheck
