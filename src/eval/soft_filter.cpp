// Softmax and TV in double intervals; see soft_filter.hpp and
// proofs/double-filter.md (the formulas are proofs/softmax-enclosure.md's).
#include "soft_filter.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace tempcert::detail {

DInterval enclose_d(const Real &x, Prec prec) {
    return x.is_exact() ? to_dinterval(x.exact()) : to_dinterval(x.enclose(prec));
}

DMatrix to_dmatrix(const Matrix &m) {
    DMatrix out;
    out.reserve(m.size());
    for (const auto &row : m)
        out.push_back(to_dvector(row));
    return out;
}

DVector to_dvector(const Vector &v) {
    DVector out;
    out.reserve(v.size());
    for (const auto &q : v)
        out.push_back(to_dinterval(q));
    return out;
}

DVector to_dvector(const RealVector &v, Prec prec) {
    DVector out;
    out.reserve(v.size());
    for (const auto &x : v)
        out.push_back(enclose_d(x, prec));
    return out;
}

namespace {

bool is_point(DInterval a) {
    return a.lo == a.hi;
}

// Points whose product or sum is a double stay points, so exactly tied
// scores (2 * 1 at two positions) have a difference of exactly 0 and
// exp(0) = 1, instead of [-ulp, ulp] times a huge beta, which made every
// node at beta = 10^20 undecided. Round-to-nearest products and sums are
// exact when the error-free transformations (fma residual, TwoSum) give 0;
// the fma residual is itself exact only above 2^-969 (no underflow).
DInterval times(DInterval a, DInterval b) {
    if (is_point(a) && is_point(b)) {
        double p = a.lo * b.lo;
        if (std::isfinite(p) && (p == 0 ? (a.lo == 0 || b.lo == 0) : std::fabs(p) >= 0x1p-969) &&
            std::fma(a.lo, b.lo, -p) == 0)
            return DInterval::point(p);
    }
    return a * b;
}
DInterval plus(DInterval a, DInterval b) {
    if (is_point(a) && is_point(b)) {
        double s = a.lo + b.lo, bb = s - a.lo;
        if (std::isfinite(s) && (a.lo - (s - bb)) + (b.lo - bb) == 0) return DInterval::point(s);
    }
    return add_exact_zero(a, b);
}

} // namespace

DInterval dot(const DVector &row, const DVector &x) {
    DInterval sum = DInterval::point(0);
    for (std::size_t k = 0; k < row.size(); ++k) {
        if (row[k].lo == 0 && row[k].hi == 0) continue;
        if (x[k].lo == 0 && x[k].hi == 0) continue;
        // a product by an exact +-1 entry is exact
        DInterval p = row[k].lo == row[k].hi && row[k].lo == 1    ? x[k]
                      : row[k].lo == row[k].hi && row[k].lo == -1 ? -x[k]
                                                                  : times(row[k], x[k]);
        sum = plus(sum, p);
    }
    return sum;
}

DVector matvec(const DMatrix &m, const DVector &x) {
    DVector out;
    out.reserve(m.size());
    for (const auto &row : m)
        out.push_back(dot(row, x));
    return out;
}

namespace {

// k ulps below / above a finite x >= 0 (bit arithmetic; +inf above DBL_MAX).
inline double down_k(double x, int k) {
    auto bits = std::bit_cast<std::uint64_t>(x);
    return bits > static_cast<std::uint64_t>(k) ? std::bit_cast<double>(bits - k) : 0.0;
}
inline double up_k(double x, int k) {
    return std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) + k);
}

// exp on [lo, hi] for finite lo <= hi <= 0, with one libm call when hi - lo
// is small: exp(hi) = exp(lo) exp(w) <= exp(lo) (1 + 2w) for 0 <= w <= 1
// (proofs/double-filter.md).
inline DInterval exp_nonpositive(double lo, double hi) {
    double e = std::exp(lo);
    double e_lo = down_k(e, kLibmUlps), e_hi = up_k(e, kLibmUlps);
    if (hi == lo) return {e_lo, e_hi};
    double w = step_up(hi - lo);
    if (w <= 1e-3) return {e_lo, step_up(e_hi * step_up(1 + 2 * w))}; // 2w is exact
    return {e_lo, up_k(std::exp(hi), kLibmUlps)};
}

} // namespace

void softmax_filter(const DVector &scores, DInterval beta, DSoftmax &out) {
    out.beta = beta;
    out.s = scores;
    std::size_t m = scores.size();
    out.e.resize(m);
    out.weights.resize(m);
    if (m == 1) {
        out.e[0] = out.weights[0] = DInterval::point(1);
        return;
    }
    std::size_t ref = 0;
    for (std::size_t k = 1; k < m; ++k)
        if (scores[ref].hi < scores[k].hi) ref = k;
    // weights e_j / sum_k e_k, with the sum's ends bounding the denominator
    const DInterval sr = scores[ref];
    const bool fast = beta.lo >= 0 && std::isfinite(beta.hi) && sr.finite();
    double total_lo = 0, total_hi = 0;
    for (std::size_t k = 0; k < m; ++k) {
        DInterval e;
        if (k == ref || (scores[k].lo == scores[k].hi && scores[k].lo == sr.lo && sr.lo == sr.hi)) {
            e = DInterval::point(1); // the reference, or an exact tie with it: exp(0)
        } else {
            DInterval d = scores[k] - sr;
            if (fast && d.hi <= 0 && std::isfinite(d.lo)) {
                // beta >= 0, d <= 0: beta d in [beta.hi d.lo, beta.lo d.hi]
                double lo = step_down(beta.hi * d.lo), hi = step_up(beta.lo * d.hi);
                e = exp_nonpositive(lo, std::min(hi, 0.0));
            } else {
                e = exp(beta * d);
            }
        }
        out.e[k] = e;
        total_lo += e.lo; // widened once below
        total_hi += e.hi;
    }
    // A recursive sum of m >= 0 terms in round-to-nearest is within
    // (m-1) u / (1 - (m-1) u) of the exact sum, relatively (u = 2^-53;
    // Higham, Accuracy and Stability, 4.2); 2 m u covers that for m < 2^50.
    const double rel = static_cast<double>(m) * 0x1p-52;
    total_lo = step_down(total_lo * step_down(1 - rel));
    total_hi = step_up(total_hi * step_up(1 + rel));
    double inv_lo = step_down(1 / total_hi), inv_hi = step_up(1 / total_lo);
    if (!(total_lo >= 1) || !std::isfinite(total_hi)) { // cannot happen: e_ref = 1
        for (auto &w : out.weights)
            w = {0, 1};
        return;
    }
    for (std::size_t k = 0; k < m; ++k)
        out.weights[k] = {std::max(0.0, step_down(out.e[k].lo * inv_lo)),
                          std::min(1.0, step_up(out.e[k].hi * inv_hi))};
}

DSoftmax softmax_filter(const DVector &scores, DInterval beta) {
    DSoftmax out;
    softmax_filter(scores, beta, out);
    return out;
}

// a + b for a, b >= 0 (exp-masses): outward rounding of a lower end 0
// would step below 0 (to -2^-1074), which share() rightly treats as a
// possibly negative mass and answers [0, 1]: every node whose off-support
// masses underflowed went to the exact path. The true sum is >= 0.
static DInterval sum_of_nonnegative(DInterval a, DInterval b) {
    DInterval s = add_exact_zero(a, b);
    if (a.lo >= 0 && b.lo >= 0 && s.lo < 0) s.lo = 0;
    return s;
}

DInterval tv_filter(const std::vector<char> &on_support, const DSoftmax &sm) {
    DInterval on = DInterval::point(0), off = DInterval::point(0);
    std::size_t k = 0;
    for (std::size_t a = 0; a < on_support.size(); ++a) {
        if (on_support[a]) {
            on = sum_of_nonnegative(on, sm.e[a]);
            ++k;
        } else {
            off = sum_of_nonnegative(off, sm.e[a]);
        }
    }
    DInterval rest = share(off, on); // R / (T + R)
    if (k == 1) return rest;
    // For j in S, T - k e_j = sum_{i in S} (e_i - e_j) (proofs/softmax-enclosure.md,
    // claim 2). With a reference r in S and delta_i = expm1(beta (s_i - s_r)),
    // e_i = e_r (1 + delta_i) for the true scores, so that sum is
    // e_r (D - k delta_j) with D = sum_{i in S} delta_i: k expm1 calls per
    // query instead of k^2 (an average head over a long word's ties made
    // the filter cubic in the length). r is the support's narrowest score,
    // so that the deltas carry little of its width; a score exactly tied
    // with r (the same point) has delta exactly 0, so exact ties keep TV's
    // relative accuracy as before.
    std::size_t r = on_support.size();
    for (std::size_t i = 0; i < on_support.size(); ++i)
        if (on_support[i] &&
            (r == on_support.size() || sm.s[i].hi - sm.s[i].lo < sm.s[r].hi - sm.s[r].lo))
            r = i;
    thread_local std::vector<DInterval> delta;
    delta.assign(on_support.size(), DInterval::point(0));
    DInterval D = DInterval::point(0);
    const DInterval sr = sm.s[r];
    for (std::size_t i = 0; i < on_support.size(); ++i) {
        if (!on_support[i] || i == r) continue;
        if (sm.s[i].lo == sm.s[i].hi && sm.s[i].lo == sr.lo && sr.lo == sr.hi)
            continue; // an exact tie with r: delta exactly 0
        delta[i] = expm1(sm.beta * (sm.s[i] - sr));
        D = add_exact_zero(D, delta[i]);
    }
    const DInterval kk = DInterval::point(static_cast<double>(k));
    DInterval denom = kk * (on + off);
    DInterval sum = rest;
    for (std::size_t j = 0; j < on_support.size(); ++j) {
        if (!on_support[j]) continue;
        DInterval spread = sm.e[r] * add_exact_zero(D, -(kk * delta[j]));
        sum = sum + abs(add_exact_zero(off, spread)) / denom;
    }
    return sum * DInterval::point(0.5);
}

DVector apply_ffn(const DFfn &f, const DVector &x) {
    DVector hidden = matvec(f.w1, x);
    for (std::size_t k = 0; k < hidden.size(); ++k)
        hidden[k] = relu(add_exact_zero(hidden[k], f.b1[k]));
    DVector out = matvec(f.w2, hidden);
    for (std::size_t c = 0; c < out.size(); ++c)
        out[c] = add_exact_zero(add_exact_zero(x[c], out[c]), f.b2[c]);
    return out;
}

} // namespace tempcert::detail
