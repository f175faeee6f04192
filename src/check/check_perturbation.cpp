// Perturbation certificates, re-verified (proofs/perturbation.md). The
// value sets, gaps, feature ranges and every bound are recomputed by the
// checker's own code (it shares nothing with src/certify/perturbation.cpp);
// each claimed bound must be at least what the proof's formula gives from
// the previous claims, so rounded-up claims are accepted and lowered ones
// are not.
#include "check_arguments.hpp"
#include "check_fields.hpp"
#include "check_layerwise.hpp"
#include "tempcert/error.hpp"
#include "tempcert/exact_vector.hpp"
#include "tempcert/mask.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace tempcert::check {

namespace {

Rational magnitude(const Rational &q) {
    return q < 0 ? Rational(-q) : q;
}

// sum_c |w_rc| r_c for each row r.
Vector abs_times(const Matrix &w, const Vector &r) {
    Vector out(w.size(), Rational(0));
    for (std::size_t row = 0; row < w.size(); ++row)
        for (std::size_t c = 0; c < r.size(); ++c)
            if (w[row][c] != 0 && r[c] != 0) out[row] += magnitude(w[row][c]) * r[c];
    return out;
}

Matrix times_matrix(const Matrix &a, const Matrix &b) {
    Matrix p(a.size(), Vector(b.empty() ? 0 : b[0].size(), Rational(0)));
    for (std::size_t i = 0; i < a.size(); ++i)
        for (std::size_t k = 0; k < b.size(); ++k)
            for (std::size_t j = 0; j < p[i].size(); ++j)
                if (a[i][k] != 0 && b[k][j] != 0) p[i][j] += a[i][k] * b[k][j];
    return p;
}

// Lowest and highest value of every feature coordinate over the positions
// (BOS's 0 included) of every length 1..n.
struct Bounds {
    Vector lo, hi;
};

Bounds feature_bounds(const Model &m, std::size_t n, const std::set<std::size_t> &features,
                      const Limits &limits) {
    Bounds b{Vector(m.width, Rational(0)), Vector(m.width, Rational(0))};
    bool uses_n = false, first = true;
    for (const auto &f : m.positions)
        uses_n = uses_n || f.expr.uses_n();
    if (features.empty()) return b;
    if (uses_n && n > 2000) reject("$.n", "features reading n are checked up to n = 2000 only");
    for (std::size_t len = uses_n ? 1 : n; len <= n; ++len)
        for (std::size_t j = m.has_bos() ? 0 : 1; j <= len; ++j) {
            check_budget(limits);
            Vector p = position_vector(m, j, len, "$.n");
            for (std::size_t c : features) {
                b.lo[c] = first ? p[c] : std::min(b.lo[c], p[c]);
                b.hi[c] = first ? p[c] : std::max(b.hi[c], p[c]);
            }
            first = false;
        }
    return b;
}

// P(j + 1) - P(j) when every feature is affine in j on 1..n and none reads
// n; empty otherwise.
std::optional<Vector> affine_step(const Model &m, std::size_t n, const Limits &limits) {
    for (const auto &f : m.positions)
        if (f.expr.uses_n()) return std::nullopt;
    if (n < 2) return std::nullopt;
    const Vector p1 = position_vector(m, 1, n, "$.n"), p2 = position_vector(m, 2, n, "$.n");
    Vector step(m.width, Rational(0));
    for (std::size_t c = 0; c < m.width; ++c)
        step[c] = p2[c] - p1[c];
    for (std::size_t j = 3; j <= n; ++j) {
        check_budget(limits);
        Vector p = position_vector(m, j, n, "$.n");
        for (std::size_t c = 0; c < m.width; ++c)
            if (p[c] != p1[c] + Rational(static_cast<long>(j - 1)) * step[c]) return std::nullopt;
    }
    return step;
}

// Spread competitors (proofs/perturbation.md): with a query that reads no
// feature, key scores are alpha + c (j - 1), |c| >= spread, with at most
// `classes` values of alpha (BOS its own); spread 0 when that fails.
struct Spread {
    Rational spread = 0;
    std::size_t classes = 0;
};

Spread spread_of(const Head &head, const std::vector<Vector> &S, const std::vector<Vector> &B,
                 const std::optional<Vector> &step, const std::set<std::size_t> &features) {
    Spread out;
    if (!step) return out;
    for (std::size_t c : features)
        for (const auto &row : head.query)
            if (row[c] != 0) return out;
    Vector ks = matvec(head.key, *step);
    bool first = true;
    for (const auto *set : {&S, &B})
        for (const auto &d : *set) {
            Vector q = matvec(head.query, d);
            Rational c = dot(q, ks);
            out.spread = first ? magnitude(c) : std::min(out.spread, magnitude(c));
            first = false;
        }
    std::set<Vector> keys;
    for (const auto &d : S)
        keys.insert(matvec(head.key, d));
    out.classes = keys.size() + (B.empty() ? 0 : 1);
    if (out.spread == 0) out.classes = 0;
    return out;
}

// The largest |(w x)_r| over x = d + P, d in the sets, P in the box.
Vector largest(const Matrix &w, const std::vector<Vector> &S, const std::vector<Vector> &B,
               const Bounds &f, const std::set<std::size_t> &features) {
    Vector out(w.size(), Rational(0));
    for (std::size_t row = 0; row < w.size(); ++row) {
        Rational lo = 0, hi = 0;
        for (std::size_t c : features) {
            Rational a = w[row][c] * f.lo[c], b = w[row][c] * f.hi[c];
            lo += std::min(a, b);
            hi += std::max(a, b);
        }
        for (const auto *set : {&S, &B})
            for (const auto &d : *set) {
                Rational v = 0;
                for (std::size_t c = 0; c < d.size(); ++c)
                    v += w[row][c] * d[c];
                out[row] = std::max({out[row], magnitude(v + lo), magnitude(v + hi)});
            }
    }
    return out;
}

// A claimed number: exact, and at least `floor`.
Rational at_least(const OJson &doc, const std::string &p, const char *key, const Rational &floor) {
    Rational claimed = exact(doc, p, key);
    if (claimed < floor)
        reject(p + "." + key, "claims " + to_string(claimed) + ", below the bound " +
                                  to_string(floor) + " recomputed from the previous claims");
    return claimed;
}

// X/(1+X) + tanh(beta e/2), X = (N-1) exp(-beta (gamma - 2e)): its enclosure.
Interval tv_bound(const std::optional<Rational> &gap, std::size_t N, const Spread &sp,
                  const Rational &e, const Real &beta, Prec prec) {
    Interval b = beta.enclose(prec), one(1L, prec), sum(prec);
    if (e != 0) {
        Interval x = exp(mul(b, e, prec), prec); // tanh(y/2) = (e^y - 1)/(e^y + 1)
        sum = div(sub(x, one, prec), add(x, one, prec), prec);
    }
    if (gap && N > 1) {
        // competitors: N - 1, or at most classes per interval of width spread
        Interval competitors(Rational(static_cast<long>(N - 1)), prec);
        if (sp.spread > 0) {
            Interval q = exp(neg(mul(b, sp.spread, prec)), prec); // e^{-beta spread} < 1
            competitors = min(competitors,
                              div(Interval(Rational(static_cast<long>(sp.classes)), prec),
                                  sub(one, q, prec), prec),
                              prec);
        }
        Interval X = mul(exp(neg(mul(b, Rational(*gap - 2 * e), prec)), prec), competitors, prec);
        sum = add(sum, div(X, add(one, X, prec), prec), prec);
    }
    return sum;
}

// The claimed tv is at least the bound at every beta the spec gives.
Rational check_tv(const OJson &entry, const std::string &hp, const std::optional<Rational> &gap,
                  std::size_t N, const Spread &sp, const Rational &e, const BetaSpec &beta,
                  std::size_t l, std::size_t n, const PrecisionPolicy &policy) {
    Rational claimed = exact(entry, hp, "tv");
    for (std::size_t len = 1; len <= (beta.uses_n() ? n : 1); ++len)
        for (Prec prec = policy.start;; prec *= 2) {
            Real b = [&] {
                try {
                    return beta.at(l, len, prec);
                } catch (const std::runtime_error &e) { // not positive, or undecided
                    reject("$.beta.spec", e.what());
                }
            }();
            if (less_equal(tv_bound(gap, N, sp, e, b, prec), claimed) == Tri::True) break;
            if (prec >= policy.cap)
                reject(hp + ".tv", "claims " + to_string(claimed) +
                                       ", not certainly above the bound (proofs/perturbation.md)" +
                                       (beta.uses_n() ? " at n = " + std::to_string(len) : ""));
        }
    return claimed;
}

// The values after one layer: each start plus one output per head, then
// the sublayer (no rounding is assumed).
std::vector<Vector> halves(const std::vector<Vector> &start,
                           const std::vector<std::vector<Vector>> &outs, std::size_t cap,
                           const std::string &p) {
    std::set<Vector> cur(start.begin(), start.end());
    for (const auto &out : outs) {
        std::set<Vector> next;
        for (const auto &d : cur)
            for (const auto &o : out) {
                Vector s = d;
                for (std::size_t c = 0; c < s.size(); ++c)
                    s[c] += o[c];
                next.insert(std::move(s));
            }
        if (next.size() > cap) reject(p, "more than " + std::to_string(cap) + " hard values");
        cur = std::move(next);
    }
    return std::vector<Vector>(cur.begin(), cur.end());
}

Vector pre_of(const Ffn &f, const Vector &d) {
    Vector pre = matvec(f.w1, d);
    for (std::size_t k = 0; k < pre.size(); ++k)
        pre[k] += f.b1[k];
    return pre;
}

std::vector<Vector> through_ffn(const Ffn &f, const std::vector<Vector> &half) {
    std::set<Vector> out;
    for (const auto &d : half) {
        Vector pre = pre_of(f, d), x = d;
        for (std::size_t c = 0; c < x.size(); ++c) {
            for (std::size_t k = 0; k < pre.size(); ++k)
                if (pre[k] > 0) x[c] += f.w2[c][k] * pre[k];
            x[c] += f.b2[c];
        }
        out.insert(std::move(x));
    }
    return std::vector<Vector>(out.begin(), out.end());
}

// The sublayer's deviation at one half-activation (proofs/perturbation.md,
// "Feed-forward"), per coordinate.
Vector ffn_deviation(const Ffn &f, const Vector &pre, const Vector &r) {
    Vector R = abs_times(f.w1, r), out(r.size(), Rational(0));
    for (std::size_t c = 0; c < r.size(); ++c) {
        for (std::size_t p = 0; p < r.size(); ++p) {
            if (r[p] == 0) continue;
            Rational jac = c == p ? 1 : 0;
            for (std::size_t k = 0; k < pre.size(); ++k)
                if (pre[k] >= R[k]) jac += f.w2[c][k] * f.w1[k][p];
            out[c] += magnitude(jac) * r[p];
        }
        for (std::size_t k = 0; k < pre.size(); ++k) {
            if (pre[k] >= R[k] || pre[k] <= -R[k]) continue; // linear, or 0, on the box
            out[c] += magnitude(f.w2[c][k]) * (pre[k] < 0 ? Rational(pre[k] + R[k]) : R[k]);
        }
    }
    return out;
}

Vector radius_claim(const OJson &claim, const std::string &p, std::size_t width) {
    const OJson &arr = field(claim, p, "radius");
    if (!arr.is_array() || arr.size() != width)
        reject(p + ".radius", "expected " + std::to_string(width) + " numbers");
    Vector r;
    for (std::size_t c = 0; c < width; ++c) {
        if (!arr[c].is_string())
            reject(p + ".radius[" + std::to_string(c) + "]", "expected a number");
        std::string why;
        auto q = parse_rational(arr[c].get<std::string>(), why);
        if (!q || *q < 0)
            reject(p + ".radius[" + std::to_string(c) + "]",
                   "expected a number >= 0" + (why.empty() ? "" : ": " + why));
        r.push_back(*q);
    }
    return r;
}

struct LayerState { // value sets and radius carried from layer to layer
    std::vector<Vector> S, B;
    Vector r;
};

// One layer: the heads' claims, then the radius claim.
void verify_layer(const Model &m, std::size_t l, const OJson &claim, const BetaSpec &beta,
                  const Bounds &fb, const std::set<std::size_t> &features,
                  const std::optional<Vector> &step, std::size_t n, const Rational &eps,
                  bool tv_criterion, const Limits &limits, const PrecisionPolicy &policy,
                  LayerState &w) {
    const Layer &layer = m.layers[l];
    const std::string p = "$.layers[" + std::to_string(l) + "]";
    only_keys(claim, p, {"layer", "values", "bos_values", "heads", "kinks", "radius"});
    same_count(claim, p, "layer", l + 1);
    same_count(claim, p, "values", w.S.size());
    same_count(claim, p, "bos_values", w.B.size());
    count(claim, p, "kinks"); // informative
    const OJson &heads = field(claim, p, "heads");
    if (!heads.is_array() || heads.size() != layer.heads.size())
        reject(p + ".heads",
               "expected one entry per head (" + std::to_string(layer.heads.size()) + ")");
    Vector half = w.r;
    std::vector<std::vector<Vector>> outs_S, outs_B;
    for (std::size_t h = 0; h < layer.heads.size(); ++h) {
        const Head &head = layer.heads[h];
        const std::string hp = p + ".heads[" + std::to_string(h) + "]";
        const OJson &entry = heads[h];
        only_keys(entry, hp, {"head", "min_gap", "N", "score_deviation", "tv"});
        same_count(entry, hp, "head", h + 1);
        std::optional<Rational> gap = value_set_gap(m, head, w.S, w.B, n, hp, limits);
        same_gap(entry, hp, "min_gap", gap);
        const std::size_t N = max_allowed(head.mask, n, m.has_bos());
        same_count(entry, hp, "N", N);
        Vector a = abs_times(head.query, w.r), b = abs_times(head.key, w.r);
        Vector Q = largest(head.query, w.S, w.B, fb, features);
        Vector K = largest(head.key, w.S, w.B, fb, features);
        Rational e = 0;
        for (std::size_t row = 0; row < a.size(); ++row)
            e += a[row] * K[row] + Q[row] * b[row] + a[row] * b[row];
        Rational e_claim = at_least(entry, hp, "score_deviation", e);
        if (gap && N > 1 && *gap - 2 * e_claim <= 0)
            reject(hp + ".score_deviation", "at least half the gap: the argument does not close");
        Spread sp = spread_of(head, w.S, w.B, step, features);
        Rational tv = check_tv(entry, hp, gap, N, sp, e_claim, beta, l, n, policy);
        if (tv_criterion && tv > eps) reject(hp + ".tv", "above eps");
        Matrix ov = times_matrix(head.output, head.value);
        std::vector<Vector> mixed = distinct_outputs(head, {&w.S, &w.B}, false, m.width);
        Vector value_dev = abs_times(ov, w.r);
        for (std::size_t c = 0; c < m.width; ++c) {
            Rational lo = mixed.front()[c], hi = lo;
            for (const auto &o : mixed) {
                lo = std::min(lo, o[c]);
                hi = std::max(hi, o[c]);
            }
            half[c] += value_dev[c] + tv * (hi - lo);
        }
        outs_S.push_back(distinct_outputs(head, {&w.S, &w.B}, can_be_empty(head.mask), m.width));
        if (!looks_backward(head.mask))
            outs_B.push_back(outs_S.back());
        else if (mask_allows(head.mask, 0, 0))
            outs_B.push_back(distinct_outputs(head, {&w.B}, false, m.width));
        else
            outs_B.push_back({Vector(m.width, Rational(0))});
    }
    std::vector<Vector> hs = halves(w.S, outs_S, limits.max_values, p);
    std::vector<Vector> hb = halves(w.B, outs_B, limits.max_values, p);
    Vector next = half;
    if (layer.ffn) {
        next.assign(m.width, Rational(0));
        for (const auto *set : {&hs, &hb})
            for (const auto &d : *set) {
                Vector dev = ffn_deviation(*layer.ffn, pre_of(*layer.ffn, d), half);
                for (std::size_t c = 0; c < m.width; ++c)
                    next[c] = std::max(next[c], dev[c]);
            }
        hs = through_ffn(*layer.ffn, hs);
        hb = through_ffn(*layer.ffn, hb);
    }
    Vector claimed = radius_claim(claim, p, m.width);
    for (std::size_t c = 0; c < m.width; ++c)
        if (claimed[c] < next[c])
            reject(p + ".radius[" + std::to_string(c) + "]",
                   "claims " + to_string(claimed[c]) + ", below the bound " + to_string(next[c]));
    w.S = std::move(hs);
    w.B = std::move(hb);
    w.r = std::move(claimed);
}

// The read-out's deviation and, for decision, its least hard margin.
void verify_readout(const OJson &cert, const Model &m, const LayerState &w, const Bounds &fb,
                    const std::set<std::size_t> &features, const std::string &criterion,
                    const Rational &eps) {
    const OJson &ro = field(cert, "$", "readout");
    only_keys(ro, "$.readout", {"deviation", "margin"});
    const Readout &o = m.output;
    Rational dev = 0, margin = 1;
    bool any = false, degenerate = false;
    if (o.kind == ReadKind::Linear) {
        for (std::size_t c = 0; c < m.width; ++c)
            dev += magnitude(o.weights[c]) * w.r[c];
        Rational lo = 0, hi = 0;
        for (std::size_t c : features) {
            Rational a = o.weights[c] * fb.lo[c], b = o.weights[c] * fb.hi[c];
            lo += std::min(a, b);
            hi += std::max(a, b);
        }
        for (const auto &d : w.S) {
            Rational y = o.bias + dot(o.weights, d);
            if (y + lo <= 0 && y + hi >= 0) degenerate = true;
            Rational here = y + lo > 0 ? Rational(y + lo) : Rational(-(y + hi));
            margin = any ? std::min(margin, here) : here;
            any = true;
        }
    } else {
        for (const auto &cl : o.classes) {
            if (features.count(cl.dim)) reject("$.readout", "a class coordinate is a feature");
            dev = std::max(dev, w.r[cl.dim]);
        }
        for (const auto &d : w.S) {
            std::vector<Rational> v;
            for (const auto &cl : o.classes)
                v.push_back(d[cl.dim]);
            std::sort(v.rbegin(), v.rend());
            if (v[0] == v[1]) continue;
            Rational here = (v[0] - v[1]) / 2;
            margin = any ? std::min(margin, here) : here;
            any = true;
        }
    }
    Rational claimed = at_least(ro, "$.readout", "deviation", dev);
    if (criterion == "output" && claimed > eps) reject("$.readout.deviation", "above eps");
    if (criterion != "decision") {
        if (!field(ro, "$.readout", "margin").is_null())
            reject("$.readout.margin", "expected null (the criterion is not decision)");
        return;
    }
    if (degenerate) reject("$.readout.margin", "a hard read-out over the value set can be 0");
    if (exact(ro, "$.readout", "margin") != margin)
        reject("$.readout.margin",
               "claims " + text(ro, "$.readout", "margin") + ", recomputed " + to_string(margin));
    if (claimed >= margin) reject("$.readout.deviation", "not below the margin");
}

} // namespace

void verify_perturbation(const OJson &cert, const Model &m, std::size_t n, const Rational &eps,
                         const std::string &criterion, const Limits &limits,
                         const PrecisionPolicy &policy) {
    only_keys(cert, "$",
              {"format", "tool", "model", "n", "eps", "criterion", "method", "beta", "layers",
               "readout", "verdict", "proofs"});
    only_keys(field(cert, "$", "beta"), "$.beta", {"spec", "source"});
    std::string source = text(field(cert, "$", "beta"), "$.beta", "source");
    if (source != "perturbation" && source != "user")
        reject("$.beta.source", "expected \"perturbation\" or \"user\", got \"" + source + "\"");
    same_list(cert, "$", "proofs",
              {"proofs/perturbation.md", "proofs/symbolic-gap.md", "proofs/lemma-gt.md"});
    if (criterion != "tv" && criterion != "output" && criterion != "decision")
        reject("$.criterion", "unknown criterion \"" + criterion + "\"");
    if (text(cert, "$", "verdict") != "certified")
        reject("$.verdict", "a perturbation certificate claims \"certified\"");
    if (!m.is_rational()) reject("$.method", "the model has irrational features");
    const std::set<std::size_t> features = feature_coordinates(m);
    const BetaSpec beta = certificate_beta(cert, m);
    if (beta.uses_n()) reject("$.beta.spec", "expected betas that do not depend on n");
    const OJson &layers = field(cert, "$", "layers");
    if (!layers.is_array() || layers.size() != m.layers.size())
        reject("$.layers",
               "expected one entry per layer (" + std::to_string(m.layers.size()) + ")");
    const Bounds fb = feature_bounds(m, n, features, limits);
    const std::optional<Vector> step = affine_step(m, n, limits);
    LayerState w;
    for (const auto &sym : m.alphabet)
        w.S.push_back(m.embedding.at(sym));
    if (m.has_bos()) w.B.push_back(m.embedding.at(*m.bos));
    w.r.assign(m.width, Rational(0));
    for (std::size_t l = 0; l < m.layers.size(); ++l)
        verify_layer(m, l, layers[l], beta, fb, features, step, n, eps, criterion == "tv", limits,
                     policy, w);
    verify_readout(cert, m, w, fb, features, criterion, eps);
}

} // namespace tempcert::check
