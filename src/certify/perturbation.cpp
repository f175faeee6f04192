// The perturbation argument (proofs/perturbation.md).
//
// Invariant after layer l, at every position of every word up to n:
//   the hard activation is d + P(j) with d in the finite set S_l (B_l at
//   BOS), and |soft_c - hard_c| <= r_c for every coordinate c
// (P(j) the positional features, equal in both models and never written).
// One layer, given r (proofs/perturbation.md, "One layer"):
//  * score deviation e = sum_r a_r K_r + Q_r b_r + a_r b_r, with a = |W_Q| r,
//    b = |W_K| r and Q_r, K_r the largest |query|, |key| coordinates over
//    the hard activations;
//  * TV <= X/(1+X) + tanh(beta e / 2), X = (N-1) exp(-beta (gamma - 2e)),
//    gamma the hard least gap over the value set (must exceed 2e);
//  * output deviation |W_O W_V| r + TV * span, span the range of the hard
//    values the head may mix;
//  * feed-forward: per hard half-activation, a unit whose pre-activation
//    keeps its sign within its deviation R_k = (|W1| r)_k is affine (the
//    Jacobian I + W2 D W1 carries the error, cancellations included);
//    another passes at most R_k (or pre + R_k when pre < 0) through |W2|.
// Every bound is an exact rational rounded up from its enclosure; the
// checker (src/check/check_perturbation.cpp) re-derives each from the
// previous ones.
#include "tempcert/perturbation.hpp"
#include "layerwise_counts.hpp"
#include "tempcert/bounds.hpp"
#include "tempcert/error.hpp"
#include "tempcert/exact_vector.hpp"
#include "tempcert/interval.hpp"
#include "tempcert/mask.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace tempcert {

namespace {

using layerwise_detail::add_outputs;
using layerwise_detail::Fail;
using layerwise_detail::head_name;

struct Range {
    Rational lo, hi;
};
using FeatureRanges = std::map<std::size_t, Range>;

} // namespace

// The plan's parts, named outside the anonymous namespace because the
// plan (declared in perturbation.hpp) holds them.
namespace perturbation_plan {

struct HeadPlan {
    HeadGap gap; // over lengths 1..n: a lower bound at every shorter length too
    Mask mask = Mask::None;
    Matrix abs_q, abs_k, abs_ov; // |W_Q|, |W_K|, |W_O W_V|
    Vector q_max, k_max;         // per row: the largest |(W_Q x)_r|, |(W_K x)_r| over hard x
    Vector span;                 // per coordinate: range of W_O W_V x over the values mixed
    // Spread competitors (proofs/perturbation.md): scores alpha + c (j - 1)
    // with |c| >= spread > 0 and at most `classes` values of alpha, so at
    // most `classes` keys have a gap in any interval of width `spread`.
    Rational spread = 0;
    std::size_t classes = 0;
};

struct LayerPlan {
    std::size_t values = 0, bos_values = 0;
    std::vector<HeadPlan> heads;
    std::vector<Vector> pre; // the feed-forward sublayer's hard pre-activations
    Matrix abs_w1;
};

} // namespace perturbation_plan

using perturbation_plan::HeadPlan;
using perturbation_plan::LayerPlan;

struct PerturbationPlan {
    Model model;
    std::size_t n = 0;
    std::vector<LayerPlan> layers;
    // What the read-out compares: the least |hard read-out| (linear) or half
    // the least gap between the top class and the next (categorical), over
    // the final value set; 0 when a hard read-out may be degenerate.
    Rational readout_margin;
    std::string readout_degenerate; // why the margin is 0
};

namespace {

Rational abs_of(const Rational &q) {
    return q < 0 ? Rational(-q) : q;
}

Matrix abs_of(const Matrix &w) {
    Matrix a = w;
    for (auto &row : a)
        for (auto &x : row)
            x = abs_of(x);
    return a;
}

Matrix product(const Matrix &a, const Matrix &b) {
    std::size_t inner = b.size(), cols = b.empty() ? 0 : b[0].size();
    Matrix p(a.size(), Vector(cols, Rational(0)));
    for (std::size_t r = 0; r < a.size(); ++r)
        for (std::size_t k = 0; k < inner; ++k)
            if (a[r][k] != 0)
                for (std::size_t c = 0; c < cols; ++c)
                    if (b[k][c] != 0) p[r][c] += a[r][k] * b[k][c];
    return p;
}

// An upper bound with a 64-bit mantissa: keeps the chain's numbers short.
Rational round_up(const Rational &q) {
    return Interval(q, 64).upper_exact();
}

// The range of every feature coordinate over positions 0 (BOS) or 1..len
// and lengths 1..n (only len = n when no feature reads n).
FeatureRanges feature_ranges(const Model &m, std::size_t n, const Limits &limits) {
    FeatureRanges ranges;
    if (m.positions.empty()) return ranges;
    bool uses_n = m.features_use_n();
    if (uses_n && n > 2000)
        throw Fail{"positional features depend on n: their ranges are computed for n <= 2000 only"};
    for (std::size_t len = uses_n ? 1 : n; len <= n; ++len) {
        check_budget(limits);
        for (std::size_t j = m.has_bos() ? 0 : 1; j <= len; ++j) {
            std::map<std::size_t, Rational> p;
            for (const auto &f : m.positions) {
                Real v = f.expr.eval(Rational(static_cast<long>(j)),
                                     Rational(static_cast<long>(len)), kPrecStart);
                if (!v.is_exact()) throw Fail{"the model has irrational features"};
                p[f.dim] += v.exact();
            }
            for (const auto &[c, v] : p) {
                auto [it, fresh] = ranges.emplace(c, Range{v, v});
                if (!fresh) {
                    it->second.lo = std::min(it->second.lo, v);
                    it->second.hi = std::max(it->second.hi, v);
                }
            }
        }
    }
    return ranges;
}

// P(j + 1) - P(j) when the features are affine in j on 1..n and do not read
// n (proofs/perturbation.md, "Spread competitors"); empty otherwise.
std::optional<Vector> feature_step(const Model &m, std::size_t n, const Limits &limits) {
    if (m.features_use_n() || n < 2) return std::nullopt;
    auto at = [&](std::size_t j) {
        Vector p(m.width, Rational(0));
        for (const auto &f : m.positions)
            p[f.dim] += f.expr
                            .eval(Rational(static_cast<long>(j)), Rational(static_cast<long>(n)),
                                  kPrecStart)
                            .exact();
        return p;
    };
    const Vector first = at(1), second = at(2);
    Vector step(m.width, Rational(0));
    for (std::size_t c = 0; c < m.width; ++c)
        step[c] = second[c] - first[c];
    for (std::size_t j = 3; j <= n; ++j) {
        if (j % 4096 == 0) check_budget(limits);
        Vector p = at(j);
        for (std::size_t c = 0; c < m.width; ++c)
            if (p[c] != first[c] + Rational(static_cast<long>(j - 1)) * step[c])
                return std::nullopt;
    }
    return step;
}

// Per row r of w: the largest |(w x)_r| over x = d + P(j), d in the sets.
Vector largest_rows(const Matrix &w, const std::vector<const std::vector<Vector> *> &sets,
                    const FeatureRanges &features) {
    Vector out(w.size(), Rational(0));
    for (std::size_t r = 0; r < w.size(); ++r) {
        Rational flo = 0, fhi = 0;
        for (const auto &[c, range] : features) {
            const Rational &x = w[r][c];
            flo += x < 0 ? x * range.hi : x * range.lo;
            fhi += x < 0 ? x * range.lo : x * range.hi;
        }
        for (const auto *set : sets)
            for (const auto &d : *set) {
                Rational v = 0;
                for (std::size_t c = 0; c < d.size(); ++c)
                    if (w[r][c] != 0 && d[c] != 0) v += w[r][c] * d[c];
                out[r] = std::max({out[r], abs_of(v + flo), abs_of(v + fhi)});
            }
    }
    return out;
}

std::vector<Vector> distinct_outputs(const Matrix &ov,
                                     const std::vector<const std::vector<Vector> *> &sets) {
    std::vector<Vector> out;
    std::set<Vector> seen;
    for (const auto *set : sets)
        for (const auto &d : *set) {
            Vector o = matvec(ov, d);
            if (seen.insert(o).second) out.push_back(std::move(o));
        }
    return out;
}

Vector span_of(const std::vector<Vector> &outs, std::size_t width) {
    Vector span(width, Rational(0));
    for (std::size_t c = 0; c < width; ++c) {
        if (outs.empty()) continue;
        Rational lo = outs[0][c], hi = outs[0][c];
        for (const auto &o : outs) {
            lo = std::min(lo, o[c]);
            hi = std::max(hi, o[c]);
        }
        span[c] = hi - lo;
    }
    return span;
}

Vector pre_activation(const Ffn &f, const Vector &d) {
    Vector pre = matvec(f.w1, d);
    for (std::size_t k = 0; k < pre.size(); ++k)
        pre[k] += f.b1[k];
    return pre;
}

std::vector<Vector> apply_ffn(const Ffn &f, const std::vector<Vector> &halves) {
    std::vector<Vector> after;
    std::set<Vector> seen;
    for (const auto &d : halves) {
        Vector pre = pre_activation(f, d);
        Vector out = d;
        for (std::size_t k = 0; k < pre.size(); ++k)
            if (pre[k] > 0)
                for (std::size_t c = 0; c < out.size(); ++c)
                    if (f.w2[c][k] != 0) out[c] += f.w2[c][k] * pre[k];
        for (std::size_t c = 0; c < out.size(); ++c)
            out[c] += f.b2[c];
        if (seen.insert(out).second) after.push_back(std::move(out));
    }
    return after;
}

// The read-out's margin over the final value set (see PerturbationPlan).
void readout_margin(const Model &m, const std::vector<Vector> &S, const FeatureRanges &features,
                    PerturbationPlan &plan) {
    const Readout &o = m.output;
    std::optional<Rational> margin;
    if (o.kind == ReadKind::Linear) {
        Rational flo = 0, fhi = 0;
        for (const auto &[c, range] : features) {
            const Rational &w = o.weights[c];
            flo += w < 0 ? w * range.hi : w * range.lo;
            fhi += w < 0 ? w * range.lo : w * range.hi;
        }
        for (const auto &d : S) {
            Rational y = o.bias + dot(o.weights, d);
            Rational lo = y + flo, hi = y + fhi;
            if (lo <= 0 && hi >= 0) {
                plan.readout_degenerate = "a hard read-out over the value set can be exactly 0";
                margin = Rational(0);
                break;
            }
            Rational here = lo > 0 ? lo : Rational(-hi);
            margin = margin ? std::min(*margin, here) : here;
        }
    } else {
        for (const auto &cl : o.classes)
            if (features.count(cl.dim))
                throw Fail{"a class coordinate of the read-out is a positional feature"};
        for (const auto &d : S) {
            std::vector<Rational> v;
            for (const auto &cl : o.classes)
                v.push_back(d[cl.dim]);
            std::sort(v.rbegin(), v.rend());
            if (v[0] == v[1]) continue; // no hard label: nothing to keep
            Rational here = (v[0] - v[1]) / 2;
            margin = margin ? std::min(*margin, here) : here;
        }
    }
    plan.readout_margin = margin ? *margin : Rational(1);
}

// The head's spread and classes, when its query reads no feature: every
// query vector q = W_Q d gives key scores q.W_K d' + q.W_K P(j), whose
// positional part moves by c = q.W_K step per position.
void spread_of(const Head &head, const std::vector<Vector> &S, const std::vector<Vector> &B,
               const Vector &step, const FeatureRanges &features, HeadPlan &hp) {
    for (const auto &[c, range] : features)
        for (const auto &row : head.query)
            if (row[c] != 0) return;
    const Vector key_step = matvec(head.key, step);
    std::optional<Rational> least;
    for (const auto *set : {&S, &B})
        for (const auto &d : *set) {
            Vector q = matvec(head.query, d);
            Rational c = dot(q, key_step);
            least = least ? std::min(*least, abs_of(c)) : abs_of(c);
        }
    if (!least || *least == 0) return;
    std::set<Vector> keys;
    for (const auto &d : S)
        keys.insert(matvec(head.key, d));
    hp.spread = *least;
    hp.classes = keys.size() + (B.empty() ? 0 : 1); // BOS: one position of its own
}

HeadPlan plan_head(const Model &m, std::size_t l, std::size_t h, std::size_t n,
                   const std::vector<Vector> &S, const std::vector<Vector> &B,
                   const FeatureRanges &features, const std::optional<Vector> &step,
                   const Limits &limits) {
    const Head &head = m.layers[l].heads[h];
    HeadPlan hp;
    LayerwiseLayer unused;
    hp.gap = layerwise_detail::symbolic_head_gap(m, head, l, h, S, B, n, Rational(1, 2), limits,
                                                 false, nullptr, unused);
    hp.mask = head.mask;
    hp.abs_q = abs_of(head.query);
    hp.abs_k = abs_of(head.key);
    Matrix ov = product(head.output, head.value);
    hp.abs_ov = abs_of(ov);
    hp.q_max = largest_rows(head.query, {&S, &B}, features);
    hp.k_max = largest_rows(head.key, {&S, &B}, features);
    hp.span = span_of(distinct_outputs(ov, {&S, &B}), m.width);
    if (step) spread_of(head, S, B, *step, features, hp);
    return hp;
}

// The head's hard outputs at real positions and at BOS (as the exact
// rounding method: a backward head's query at BOS sees BOS alone or nothing).
void head_value_sets(const Head &head, const std::vector<Vector> &S, const std::vector<Vector> &B,
                     std::size_t width, std::vector<Vector> &at_S, std::vector<Vector> &at_B) {
    Matrix ov = product(head.output, head.value);
    at_S = distinct_outputs(ov, {&S, &B});
    Vector zero(width, Rational(0));
    if (can_be_empty(head.mask) && std::find(at_S.begin(), at_S.end(), zero) == at_S.end())
        at_S.push_back(zero);
    if (!looks_backward(head.mask))
        at_B = at_S;
    else if (mask_allows(head.mask, 0, 0))
        at_B = distinct_outputs(ov, {&B});
    else
        at_B = {zero};
}

std::shared_ptr<PerturbationPlan> make_plan(const Model &m, std::size_t n, const Limits &limits) {
    if (!m.is_rational()) throw Fail{"the model has irrational features"};
    std::set<std::size_t> feature_dims;
    for (const auto &f : m.positions)
        feature_dims.insert(f.dim);
    layerwise_detail::check_feature_use(m, feature_dims);
    auto plan = std::make_shared<PerturbationPlan>();
    plan->model = m;
    plan->n = n;
    FeatureRanges features = feature_ranges(m, n, limits);
    const std::optional<Vector> step = feature_step(m, n, limits);
    std::vector<Vector> S, B;
    for (const auto &sym : m.alphabet)
        S.push_back(m.embedding.at(sym));
    if (m.has_bos()) B.push_back(m.embedding.at(*m.bos));
    for (std::size_t l = 0; l < m.layers.size(); ++l) {
        const Layer &layer = m.layers[l];
        LayerPlan lp;
        lp.values = S.size();
        lp.bos_values = B.size();
        std::vector<std::vector<Vector>> outs_S, outs_B;
        for (std::size_t h = 0; h < layer.heads.size(); ++h) {
            check_budget(limits);
            lp.heads.push_back(plan_head(m, l, h, n, S, B, features, step, limits));
            outs_S.emplace_back();
            outs_B.emplace_back();
            head_value_sets(layer.heads[h], S, B, m.width, outs_S.back(), outs_B.back());
        }
        S = add_outputs(S, outs_S, limits, l);
        B = add_outputs(B, outs_B, limits, l);
        if (layer.ffn) {
            lp.abs_w1 = abs_of(layer.ffn->w1);
            for (const auto *set : {&S, &B})
                for (const auto &d : *set)
                    lp.pre.push_back(pre_activation(*layer.ffn, d));
            S = apply_ffn(*layer.ffn, S);
            B = apply_ffn(*layer.ffn, B);
            if (S.size() > limits.max_values)
                throw Fail{"layer " + std::to_string(l + 1) + ": more than " +
                           std::to_string(limits.max_values) +
                           " hard values per position (--max-values)"};
        }
        plan->layers.push_back(std::move(lp));
    }
    readout_margin(m, S, features, *plan);
    return plan;
}

// |W| r, row by row, over the perturbed coordinates only.
Vector apply_abs(const Matrix &abs_w, const Vector &r) {
    Vector out(abs_w.size(), Rational(0));
    for (std::size_t row = 0; row < abs_w.size(); ++row)
        for (std::size_t c = 0; c < r.size(); ++c)
            if (r[c] != 0 && abs_w[row][c] != 0) out[row] += abs_w[row][c] * r[c];
    return out;
}

Rational score_deviation(const HeadPlan &hp, const Vector &r) {
    Vector a = apply_abs(hp.abs_q, r), b = apply_abs(hp.abs_k, r);
    Rational e = 0;
    for (std::size_t row = 0; row < a.size(); ++row)
        e += a[row] * hp.k_max[row] + hp.q_max[row] * b[row] + a[row] * b[row];
    return round_up(e);
}

// TV <= X/(1+X) + tanh(beta e/2) (proofs/perturbation.md, "Weights").
// Empty when the effective gap gamma - 2e is not positive.
std::optional<Rational> head_tv(const HeadGap &g, const HeadPlan &hp, const Rational &e,
                                const Interval &beta, Prec prec) {
    Interval tv(prec);
    if (e > 0) {
        Interval em = expm1(mul(beta, e, prec), prec);
        tv = div(em, add(em, Interval(2L, prec), prec), prec);
    }
    if (g.min_gap && g.max_allowed > 1) {
        Rational effective = g.min_gap->exact() - 2 * e;
        if (effective <= 0) return std::nullopt;
        // competitors: N - 1, or when spread, at most classes / (1 - e^{-beta spread})
        Interval count(Rational(static_cast<long>(g.max_allowed - 1)), prec);
        if (hp.spread > 0) {
            Interval geometric = div(Interval(Rational(static_cast<long>(hp.classes)), prec),
                                     neg(expm1(neg(mul(beta, hp.spread, prec)), prec)), prec);
            count = min(count, geometric, prec);
        }
        Interval X = mul(exp(neg(mul(beta, effective, prec)), prec), count, prec);
        tv = add(tv, div(X, add(X, Interval(1L, prec), prec), prec), prec);
    }
    return round_up(tv.upper_exact());
}

// The feed-forward sublayer's output deviation (proofs/perturbation.md,
// "Feed-forward"), the largest over the hard half-activations.
Vector ffn_radius(const Ffn &f, const LayerPlan &lp, const Vector &r, std::size_t &kinks) {
    const std::size_t width = r.size(), units = f.b1.size();
    Vector R = apply_abs(lp.abs_w1, r);
    std::vector<std::size_t> perturbed;
    for (std::size_t p = 0; p < width; ++p)
        if (r[p] != 0) perturbed.push_back(p);
    std::map<std::vector<char>, Vector> affine_part; // by the stable-active units
    Vector out(width, Rational(0));
    for (const auto &pre : lp.pre) {
        std::vector<char> active(units, 0);
        Vector dev(units, Rational(0)); // units that may change phase
        for (std::size_t k = 0; k < units; ++k) {
            if (pre[k] - R[k] >= 0)
                active[k] = 1;
            else if (pre[k] + R[k] > 0) {
                dev[k] = pre[k] < 0 ? pre[k] + R[k] : R[k];
                ++kinks;
            }
        }
        auto it = affine_part.find(active);
        if (it == affine_part.end()) {
            Vector v(width, Rational(0));
            for (std::size_t c = 0; c < width; ++c)
                for (std::size_t p : perturbed) {
                    Rational j = c == p ? Rational(1) : Rational(0);
                    for (std::size_t k = 0; k < units; ++k)
                        if (active[k] && f.w2[c][k] != 0 && f.w1[k][p] != 0)
                            j += f.w2[c][k] * f.w1[k][p];
                    v[c] += abs_of(j) * r[p];
                }
            it = affine_part.emplace(active, std::move(v)).first;
        }
        for (std::size_t c = 0; c < width; ++c) {
            Rational here = it->second[c];
            for (std::size_t k = 0; k < units; ++k)
                if (dev[k] != 0 && f.w2[c][k] != 0) here += abs_of(f.w2[c][k]) * dev[k];
            out[c] = std::max(out[c], here);
        }
    }
    return out;
}

// Shown rounded up (every quantity shown is an upper bound).
std::string decimal(const Rational &q) {
    return short_significant(q, 6, true);
}

} // namespace

PerturbationArgument::PerturbationArgument(const Model &m, std::size_t n, const Limits &limits)
    : n_(n) {
    try {
        plan_ = make_plan(m, n, limits);
    } catch (const Fail &f) {
        failure_ = f.why;
    }
}

namespace {

// One pass at fixed per-layer betas (intervals).
PerturbationRun run_at(const PerturbationPlan &plan, std::size_t len,
                       const std::vector<Interval> &betas, const Rational &eps, Criterion criterion,
                       Prec prec, const Limits &limits) {
    const Model &m = plan.model;
    PerturbationRun run;
    Vector r(m.width, Rational(0));
    for (std::size_t l = 0; l < m.layers.size(); ++l) {
        check_budget(limits);
        const LayerPlan &lp = plan.layers[l];
        PerturbedLayer out;
        out.values = lp.values;
        out.bos_values = lp.bos_values;
        Vector half = r;
        for (std::size_t h = 0; h < lp.heads.size(); ++h) {
            const HeadPlan &hp = lp.heads[h];
            PerturbedHead ph;
            ph.gap = hp.gap; // N at this length (the gap at n bounds every length's)
            ph.gap.max_allowed = max_allowed(hp.mask, len, m.has_bos());
            ph.score_dev = score_deviation(hp, r);
            ph.spread = hp.spread;
            ph.classes = hp.classes;
            std::optional<Rational> tv = head_tv(ph.gap, hp, ph.score_dev, betas[l], prec);
            if (!tv) {
                if (run.shortfall.empty())
                    run.shortfall = head_name(l, h) + ": its scores may move by " +
                                    decimal(ph.score_dev) + ", at least half its gap " +
                                    to_string(hp.gap.min_gap->exact());
                run.layers.push_back(std::move(out));
                return run;
            }
            ph.tv = *tv;
            if (criterion == Criterion::Tv && ph.tv > eps && run.shortfall.empty())
                run.shortfall =
                    head_name(l, h) + ": total variation up to " + decimal(ph.tv) + " > eps";
            Vector value_dev = apply_abs(hp.abs_ov, r);
            for (std::size_t c = 0; c < m.width; ++c)
                half[c] += value_dev[c] + ph.tv * hp.span[c];
            out.heads.push_back(std::move(ph));
        }
        Vector next = m.layers[l].ffn ? ffn_radius(*m.layers[l].ffn, lp, half, out.kinks) : half;
        for (auto &x : next)
            x = round_up(x);
        r = next;
        out.radius = r;
        run.layers.push_back(std::move(out));
    }
    const Readout &o = m.output;
    run.readout_dev = 0;
    if (o.kind == ReadKind::Linear) {
        for (std::size_t c = 0; c < m.width; ++c)
            run.readout_dev += abs_of(o.weights[c]) * r[c];
    } else {
        for (const auto &cl : o.classes)
            run.readout_dev = std::max(run.readout_dev, r[cl.dim]);
    }
    run.readout_dev = round_up(run.readout_dev);
    if (criterion == Criterion::Output && run.readout_dev > eps && run.shortfall.empty())
        run.shortfall = "the read-out may move by " + decimal(run.readout_dev) + " > eps";
    if (criterion == Criterion::Decision) {
        run.readout_margin = plan.readout_margin;
        if (!plan.readout_degenerate.empty() && run.shortfall.empty()) {
            run.shortfall = plan.readout_degenerate;
            run.beta_independent = true;
        } else if (run.readout_dev >= plan.readout_margin && run.shortfall.empty()) {
            run.shortfall = "the read-out may move by " + decimal(run.readout_dev) +
                            ", not below its least hard margin " +
                            decimal_significant(plan.readout_margin, 6, false);
            // a margin of 0 is a property of the hard model: no beta helps
            run.beta_independent = plan.readout_margin <= 0;
        }
    }
    if (run.shortfall.empty()) run.verdict = Verdict::Certified;
    return run;
}

} // namespace

PerturbationRun PerturbationArgument::run(const BetaSpec &beta, const Rational &eps,
                                          Criterion criterion, Prec prec,
                                          const Limits &limits) const {
    if (!plan_) throw std::logic_error("PerturbationArgument::run: the argument does not apply");
    const std::size_t layers = plan_->model.layers.size();
    PerturbationRun last;
    for (std::size_t len = beta.uses_n() ? 1 : n_; len <= n_; ++len) {
        std::vector<Interval> betas;
        for (std::size_t l = 0; l < layers; ++l)
            betas.push_back(beta.at(l, len, prec).enclose(prec));
        last = run_at(*plan_, len, betas, eps, criterion, prec, limits);
        if (last.verdict != Verdict::Certified) {
            if (beta.uses_n())
                last.shortfall = "at length " + std::to_string(len) + ": " + last.shortfall;
            return last;
        }
    }
    return last;
}

std::optional<Rational> PerturbationArgument::find_beta(const Rational &eps, Criterion criterion,
                                                        Prec prec, const Limits &limits,
                                                        const Rational &rel,
                                                        std::string *why) const {
    bool futile = false;
    auto passes = [&](const Rational &b) {
        PerturbationRun r = run(BetaSpec::constant(b), eps, criterion, prec, limits);
        if (r.verdict != Verdict::Certified && r.beta_independent) {
            futile = true;
            if (why) *why = r.shortfall;
        }
        return r.verdict == Verdict::Certified;
    };
    // beta 1 passing is the trivial case (bounds.hpp's policy: certify 1)
    if (passes(Rational(1))) return Rational(1);
    if (futile) return std::nullopt;
    Rational lo = 1, hi = 2;
    for (int k = 0; !passes(hi); ++k) {
        if (futile || k == 64) return std::nullopt;
        lo = hi;
        hi *= 2;
    }
    while (hi - lo > rel * hi) {
        Rational mid = round_up((lo + hi) / 2);
        if (mid >= hi) break;
        (passes(mid) ? hi : lo) = mid;
    }
    return hi;
}

} // namespace tempcert
