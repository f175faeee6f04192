// Profile judgements of one query (check_profile.hpp; proofs/profile-bound.md,
// claim (1) and "One bound for a symbol's maxima").
//
// For a maximum t the worst configuration is explicit: TV = X/(k + X) grows
// with X and falls with k, so every position takes its largest offer below t
// (adding e^(-beta gap) to X), a position with no offer below t takes t (it
// is forced: k grows), and when none is forced one position offering t
// holds it, the one whose offer below t weighs least. Positions offering
// only more than t make t impossible. For offers alpha + c j with c != 0,
// the positions of a run whose largest offer below t is alpha_r + c j are an
// interval of j with gaps in steps of |c|: a geometric sum.
#include "check_profile.hpp"

#include <algorithm>
#include <optional>

namespace tempcert::check {

Rational floor_of(const Rational &x) {
    Integer q = numerator(x) / denominator(x); // toward zero
    if (x < 0 && q * denominator(x) != numerator(x)) q -= 1;
    return Rational(q);
}

Rational ceil_of(const Rational &x) {
    return -floor_of(-x);
}

namespace {

// The integers x of [xl, xh] with a < base + s x <= b (no b: no upper
// bound); s != 0. Empty when the first exceeds the second.
std::pair<Rational, Rational> where_between(const Rational &base, const Rational &s,
                                            const Rational &a, const std::optional<Rational> &b,
                                            const Rational &xl, const Rational &xh) {
    Rational lo = xl, hi = xh;
    if (s > 0) {
        lo = std::max(lo, floor_of((a - base) / s) + 1);
        if (b) hi = std::min(hi, floor_of((*b - base) / s));
    } else {
        hi = std::min(hi, ceil_of((a - base) / s) - 1);
        if (b) lo = std::max(lo, ceil_of((*b - base) / s));
    }
    return {lo, hi};
}

// The x of [xl, xh] with base + s x == v, if any (s != 0).
std::optional<Rational> where_equal(const Rational &base, const Rational &s, const Rational &v,
                                    const Rational &xl, const Rational &xh) {
    Rational x = (v - base) / s;
    if (!is_integer(x) || x < xl || x > xh) return std::nullopt;
    return x;
}

std::optional<Rational> next_alpha(const std::vector<Rational> &a, std::size_t r) {
    return r + 1 < a.size() ? std::optional<Rational>(a[r + 1]) : std::nullopt;
}

} // namespace

struct ProfileJudge::AtMax {
    explicit AtMax(Prec prec) : x(prec) {}
    bool possible = true;
    Interval x;                         // X: the weight of positions below t
    long forced = 0;                    // positions that can only take t
    std::optional<Rational> holder_gap; // the largest gap of a position that could hold t
};

ProfileJudge::ProfileJudge(const Rational &beta, const Rational &eps, Prec start, Prec cap)
    : beta_(beta), eps_(eps), allowance_(eps / (1 - eps)), prec_(start), cap_(cap) {}

// f(-beta x) for f = exp or expm1, from `cache` (x -> value), which is
// emptied when it reaches kCached entries.
Interval ProfileJudge::cached(std::map<Rational, Interval> &cache, const Rational &x,
                              Interval (*f)(const Interval &, Prec)) {
    auto it = cache.find(x);
    if (it != cache.end()) return it->second;
    Interval v = f(Interval(-(beta_ * x), prec_), prec_);
    if (cache.size() >= kCached) cache.clear();
    cache.emplace(x, v);
    return v;
}

Interval ProfileJudge::weight(const Rational &gap) {
    return cached(weights_, gap, exp);
}

// expm1(-beta s), s > 0: the ratio's denominator of run_sum.
Interval ProfileJudge::step_expm1(const Rational &s) {
    return cached(steps_, s, expm1);
}

// sum over m = 0..count-1 of e^(-beta (g0 + m step)), step > 0, count >= 1.
Interval ProfileJudge::run_sum(const Rational &g0, const Rational &step, const Rational &count) {
    if (count == 1) return weight(g0);
    Interval num = expm1(Interval(-(beta_ * step * count), prec_), prec_);
    Interval den = step_expm1(step);
    return mul(weight(g0), div(num, den, prec_), prec_);
}

ProfileJudge::AtMax ProfileJudge::at_max(const QueryOffers &q, const Rational &t) {
    AtMax r(prec_);
    auto holder = [&](const Rational &gap) {
        if (!r.holder_gap || gap > *r.holder_gap) r.holder_gap = gap;
    };
    for (const auto &g : q.groups) {
        const std::vector<Rational> &a = g.alphas;
        if (q.c == 0) { // every position of the group alike: u = t
            if (t < a.front()) return r.possible = false, r;
            Rational count = g.hi - g.lo + 1;
            std::size_t below = std::lower_bound(a.begin(), a.end(), t) - a.begin();
            if (below == 0) { // t == a.front(): forced
                r.forced += numerator(count).convert_to<long>();
                continue;
            }
            Rational gap = t - a[below - 1];
            r.x = add(r.x, mul(weight(gap), count, prec_), prec_);
            if (below < a.size() && a[below] == t) holder(gap);
            continue;
        }
        // position j offers alpha + c j; u = t - c j: its offers below t are the alphas below u
        const Rational s = -q.c;
        const Rational least_u = t + s * (q.c > 0 ? g.hi : g.lo);
        if (least_u < a.front()) return r.possible = false, r;
        if (where_equal(t, s, a.front(), g.lo, g.hi)) r.forced += 1;
        for (std::size_t k = 0; k < a.size(); ++k) {
            auto [jl, jh] = where_between(t, s, a[k], next_alpha(a, k), g.lo, g.hi);
            if (jl > jh) continue;
            Rational g0 = t + s * (q.c > 0 ? jh : jl) - a[k]; // the least gap of the segment
            r.x = add(r.x, run_sum(g0, abs(q.c), jh - jl + 1), prec_);
            if (auto na = next_alpha(a, k); na && where_equal(t, s, *na, jl, jh))
                holder(*na - a[k]);
        }
    }
    return r;
}

// Whether the worst configuration with maximum t has TV <= eps, raising the
// precision up to the cap while the comparison is undecided.
Tri ProfileJudge::exact_within(const QueryOffers &q, const Rational &t) {
    Tri v = decide(q, t);
    for (Prec p = prec_ * 2; v == Tri::Unknown && p <= cap_; p *= 2)
        v = ProfileJudge(beta_, eps_, p, cap_).decide(q, t);
    return v;
}

// The same at this judge's precision.
Tri ProfileJudge::decide(const QueryOffers &q, const Rational &t) {
    AtMax r = at_max(q, t);
    if (!r.possible) return Tri::True;
    long k = r.forced;
    if (k == 0) {
        if (!r.holder_gap) return Tri::True; // no position offers t: no such maximum
        r.x = sub(r.x, weight(*r.holder_gap), prec_);
        k = 1;
    }
    return less_equal(r.x, allowance_ * Rational(k));
}

// An upper bound on X for every maximum t = alpha + c j_t, j_t in [jl, jh]
// of one free run (c != 0), valid whatever k is (proofs/profile-bound.md,
// "One bound for a symbol's maxima"): a run of positions [lo, hi] maps
// position j to k = j_t - j in [jl - hi, jh - lo], one to one, with gap
// g(alpha + c k); a single position adds its largest weight over those t.
Interval ProfileJudge::group_bound(const QueryOffers &q, const Rational &alpha, const Rational &jl,
                                   const Rational &jh) {
    const Rational t_min = alpha + q.c * (q.c > 0 ? jl : jh);
    Interval x(0L, prec_);
    for (const auto &g : q.groups) {
        const std::vector<Rational> &a = g.alphas;
        if (g.lo == g.hi) { // its offers are fixed numbers v
            Rational top = a.back() + q.c * g.lo;
            if (top >= t_min) { // some offer may equal or pass t: at most weight 1
                x = add(x, Interval(1L, prec_), prec_);
                continue;
            }
            x = add(x, weight(t_min - top), prec_);
            continue;
        }
        for (std::size_t k = 0; k < a.size(); ++k) {
            auto [kl, kh] = where_between(alpha, q.c, a[k], next_alpha(a, k), jl - g.hi, jh - g.lo);
            if (kl > kh) continue;
            Rational g0 = alpha + q.c * (q.c > 0 ? kl : kh) - a[k];
            x = add(x, run_sum(g0, abs(q.c), kh - kl + 1), prec_);
        }
    }
    return x;
}

// Every maximum alpha + c j, j in [jl, jh]: by the run's bound where it
// decides, else halved, down to single maxima judged exactly. `worst` gets
// the maximum of a configuration not shown within.
Tri ProfileJudge::within_from(const QueryOffers &q, const Rational &alpha, const Rational &jl,
                              const Rational &jh, Rational &worst) {
    if (jl == jh) {
        Tri v = exact_within(q, alpha + q.c * jl);
        if (v != Tri::True) worst = alpha + q.c * jl;
        return v;
    }
    if (less_equal(group_bound(q, alpha, jl, jh), allowance_) == Tri::True) return Tri::True;
    Rational mid = floor_of((jl + jh) / 2);
    Tri left = within_from(q, alpha, jl, mid, worst);
    if (left == Tri::False) return left;
    Tri right = within_from(q, alpha, mid + 1, jh, worst);
    if (right == Tri::False) return right;
    return left == Tri::True && right == Tri::True ? Tri::True : Tri::Unknown;
}

ProfileFinding ProfileJudge::judge(const QueryOffers &q) {
    ProfileFinding f;
    if (q.groups.empty()) return f;
    // No maximum lies below L: every position offers at most L's group's least
    Rational L;
    for (std::size_t i = 0; i < q.groups.size(); ++i) {
        const OfferGroup &g = q.groups[i];
        Rational least = g.alphas.front() + q.c * (q.c > 0 ? g.hi : g.lo);
        if (i == 0 || least > L) L = least;
    }
    auto fold = [&](Tri v, const Rational &t) {
        if (f.within == Tri::False || v == Tri::True) return;
        if (v == Tri::False || f.within == Tri::True) f.maximum = t;
        f.within = v;
    };
    for (const auto &g : q.groups)
        for (const auto &alpha : g.alphas) {
            if (q.c == 0 || g.lo == g.hi) { // one maximum
                Rational t = alpha + q.c * g.lo;
                if (t >= L) fold(exact_within(q, t), t);
                continue;
            }
            Rational jl = g.lo, jh = g.hi; // the positions whose offer is at least L
            if (q.c > 0)
                jl = std::max(jl, ceil_of((L - alpha) / q.c));
            else
                jh = std::min(jh, floor_of((L - alpha) / q.c));
            if (jl > jh) continue;
            Rational worst;
            Tri v = within_from(q, alpha, jl, jh, worst);
            fold(v, worst);
        }
    return f;
}

} // namespace tempcert::check
