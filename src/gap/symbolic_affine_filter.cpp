// The affine scan's double filter (proofs/double-filter.md, "The affine
// scan's filter"). Each test follows its exact closed form in
// symbolic_affine.cpp step by step, with every rational enclosed in a
// DInterval. Integer steps (the floors that pick a key offset, the ends of
// a run's positions at or above L) must come out exactly as the exact form's:
// where an enclosure straddles an integer, that floor is computed from the
// rationals. Comparisons the doubles cannot decide make the test answer
// false (or, in the profile bound, take the larger term), so a true answer
// is always one the exact form would give.
#include "symbolic_affine_filter.hpp"
#include "symbolic_affine_parts.hpp"

#include <algorithm>
#include <cmath>

namespace tempcert::detail {

AffineEnclosure enclose_query(const AffineQuery &q) {
    AffineEnclosure e{enclose(q.c), {}};
    e.alpha.reserve(q.runs.size());
    for (const auto &r : q.runs)
        e.alpha.push_back(enclose(r.alpha));
    return e;
}

namespace {

DInterval at(long k) {
    return DInterval::point(static_cast<double>(k)); // positions are far below 2^53
}

// floor_clamped / ceil_clamped of the exact x that xd encloses; `exact`
// gives x when the enclosure's two ends round differently. Both functions
// are monotone, so equal ends decide it.
template <class Exact>
long clamped(const DInterval &xd, long lo, long hi, double (*round)(double),
             long (*exact_clamped)(const Rational &, long, long), Exact exact) {
    auto f = [&](double d) {
        return d <= static_cast<double>(lo)   ? lo
               : d >= static_cast<double>(hi) ? hi
                                              : static_cast<long>(round(d));
    };
    if (xd.finite() && f(xd.lo) == f(xd.hi)) return f(xd.lo);
    return exact_clamped(exact(), lo, hi);
}

template <class Exact> long floor_of(const DInterval &xd, long lo, long hi, Exact exact) {
    return clamped(xd, lo, hi, static_cast<double (*)(double)>(std::floor), floor_clamped, exact);
}

template <class Exact> long ceil_of(const DInterval &xd, long lo, long hi, Exact exact) {
    return clamped(xd, lo, hi, static_cast<double (*)(double)>(std::ceil), ceil_clamped, exact);
}

// (to - from) / c, exactly 0 when the two rationals are equal (the
// enclosure of a difference of equal values would straddle 0).
DInterval over_c(const Rational &to, const DInterval &tod, const Rational &from,
                 const DInterval &fromd, const DInterval &c) {
    return to == from ? DInterval::point(0) : (tod - fromd) / c;
}

// c k, exactly 0 for k = 0.
DInterval times(const DInterval &c, long k) {
    return k == 0 ? DInterval::point(0) : c * at(k);
}

// at_least_L(q, run) exactly, from the enclosures where they decide it.
std::pair<long, long> reaching_L(const AffineQuery &q, const AffineEnclosure &e, std::size_t r) {
    const AffineRun &run = q.runs[r];
    const int cs = q.c.sign();
    if (cs == 0) return at_least_L(q, run); // one comparison
    // (L - alpha) / c = L_position + (alpha_L - alpha) / c: exactly the
    // position for the alpha that offers L
    const AffineRun &lr = q.runs[q.L_run];
    const DInterval x = add_exact_zero(
        at(q.L_position), over_c(lr.alpha, e.alpha[q.L_run], run.alpha, e.alpha[r], e.c));
    auto exact = [&] { return Rational((q.L - run.alpha) / q.c); };
    if (cs > 0) return {std::max(run.lo, ceil_of(x, run.lo - 1, run.hi + 1, exact)), run.hi};
    return {run.lo, std::min(run.hi, floor_of(x, run.lo - 1, run.hi + 1, exact))};
}

} // namespace

bool affine_gaps_not_below(const AffineQuery &q, const AffineEnclosure &e, const Rational &best,
                           const Limits &limits) {
    const int cs = q.c.sign();
    const DInterval best_d = enclose(best);
    for (std::size_t u = 0; u < q.runs.size(); ++u) {
        check_budget(limits);
        auto [ulo, uhi] = reaching_L(q, e, u);
        if (ulo > uhi) continue;
        for (std::size_t v = 0; v < q.runs.size(); ++v) {
            const AffineRun &ru = q.runs[u], &rv = q.runs[v];
            const long klo = ulo - rv.hi, khi = uhi - rv.lo;
            const bool same = ru.alpha == rv.alpha;
            const DInterval delta = same ? DInterval::point(0) : e.alpha[u] - e.alpha[v];
            long k; // as affine_min_gap picks it
            if (cs == 0) {
                if (same || delta.hi <= 0) continue; // delta <= 0: no gap
                k = klo != 0 ? klo : 1;
            } else {
                const DInterval x = same ? DInterval::point(0) : -delta / e.c;
                auto exact = [&] { return Rational(-(ru.alpha - rv.alpha) / q.c); };
                if (cs > 0) {
                    k = std::max(klo, floor_of(x, klo - 2, khi + 1, exact) + 1);
                    if (k == 0) k = 1;
                } else {
                    k = std::min(khi, ceil_of(x, klo - 1, khi + 2, exact) - 1);
                    if (k == 0) k = -1;
                }
            }
            if (k < klo || k > khi) continue;
            const DInterval gap = cs == 0 ? delta : delta + e.c * at(k);
            if (gap.lo >= best_d.hi) continue;
            // undecided (a gap equal to the best is common: every query of
            // a length can share it): this pair's gap exactly
            if (gap.hi < best_d.lo || (ru.alpha - rv.alpha) + q.c * k < best) return false;
        }
    }
    return true;
}

bool affine_no_tie(const AffineQuery &q, const AffineEnclosure &e,
                   const std::vector<int> &value_class, const Limits &limits) {
    auto cls = [&](int symbol) {
        return value_class[symbol < 0 ? value_class.size() - 1 : static_cast<std::size_t>(symbol)];
    };
    const int cs = q.c.sign();
    for (std::size_t u = 0; u < q.runs.size(); ++u) {
        check_budget(limits);
        auto [ulo, uhi] = reaching_L(q, e, u);
        if (ulo > uhi) continue;
        for (std::size_t v = 0; v < q.runs.size(); ++v) {
            const AffineRun &ru = q.runs[u], &rv = q.runs[v];
            if (cls(ru.symbol) == cls(rv.symbol)) continue;
            const long klo = ulo - rv.hi, khi = uhi - rv.lo;
            const bool same = ru.alpha == rv.alpha;
            if (cs == 0) {
                if (!same) continue; // delta != 0
                const long k = klo != 0 ? klo : 1;
                if (k <= khi) return false; // a tie: the exact form reports it
                continue;
            }
            // a tie needs the integer k = -delta/c, k != 0, in klo..khi
            const DInterval x = same ? DInterval::point(0) : -(e.alpha[u] - e.alpha[v]) / e.c;
            if (!x.finite()) return false;
            const double a = std::max(std::ceil(x.lo), static_cast<double>(klo));
            const double b = std::min(std::floor(x.hi), static_cast<double>(khi));
            if (a > b || (a == 0 && b == 0)) continue;
            return false;
        }
    }
    return true;
}

namespace {

// offset_sum of symbol_affine.cpp in doubles: an upper bound of the sum over
// k in [ka, kb] of exp(-beta g(t0 + c k)), segment by segment.
DInterval offset_sum_filtered(const AffineQuery &q, const AffineEnclosure &e, const AffineLayout &l,
                              const Rational &t0, const DInterval &t0d, long ka, long kb,
                              const DInterval &beta, const DInterval &step,
                              const DInterval &rho_minus_1) {
    DInterval sum = DInterval::point(0);
    if (ka > kb) return sum;
    const bool up = q.c.sign() > 0;
    auto alpha_d = [&](const AffineRun *r) {
        return e.alpha[static_cast<std::size_t>(r - q.runs.data())];
    };
    for (std::size_t r = 0; r < l.alphas.size(); ++r) {
        const AffineRun *ar = l.alphas[r];
        // k with alpha_r < t0 + c k <= alpha_{r+1} (no upper side for the last)
        long lo = ka, hi = kb;
        const DInterval below = over_c(ar->alpha, alpha_d(ar), t0, t0d, e.c);
        auto exact_below = [&] { return Rational((ar->alpha - t0) / q.c); };
        const AffineRun *next = r + 1 < l.alphas.size() ? l.alphas[r + 1] : nullptr;
        auto exact_next = [&] { return Rational((next->alpha - t0) / q.c); };
        if (up) {
            lo = std::max(lo, floor_of(below, ka - 1, kb + 1, exact_below) + 1);
            if (next)
                hi = std::min(hi, floor_of(over_c(next->alpha, alpha_d(next), t0, t0d, e.c), ka - 1,
                                           kb + 1, exact_next));
        } else {
            hi = std::min(hi, ceil_of(below, ka - 1, kb + 1, exact_below) - 1);
            if (next)
                lo = std::max(lo, ceil_of(over_c(next->alpha, alpha_d(next), t0, t0d, e.c), ka - 1,
                                          kb + 1, exact_next));
        }
        if (lo > hi) continue;
        const long first = up ? lo : hi; // the least u of the segment
        const DInterval g0 = t0d + e.c * at(first) - alpha_d(ar);
        const double m = static_cast<double>(hi - lo + 1);
        // (1 - rho^m) / (1 - rho) = (rho^m - 1) / (rho - 1) (1 for one term)
        DInterval geometric = DInterval::point(1);
        if (m > 1) {
            geometric = expm1(-(step * DInterval::point(m))) / rho_minus_1;
            if (!geometric.finite() || geometric.hi > m) geometric = DInterval{0, m};
        }
        sum = sum + exp(-(beta * g0)) * geometric;
    }
    return sum;
}

} // namespace

bool affine_profile_at_most_filtered(const AffineQuery &q, const AffineEnclosure &e, std::size_t i,
                                     const DInterval &beta, const DInterval &ratio,
                                     const Limits &limits) {
    const int cs = q.c.sign();
    if (cs == 0 || !(beta.lo > 0)) return false;
    const AffineLayout l = layout_of(q, i);
    const DInterval step = beta * abs(e.c);
    const DInterval rho_minus_1 = expm1(-step); // rho = e^(-step), once per query
    auto index = [&](const AffineRun *r) { return static_cast<std::size_t>(r - q.runs.data()); };
    // One group of maxima, as in affine_profile_at_most.
    auto certain = [&](const AffineRun &group, long a, long bb, const AffineRun *own) {
        check_budget(limits);
        const DInterval t0d = e.alpha[index(&group)];
        DInterval x = DInterval::point(0);
        for (const auto &[lo, hi] : l.ranges)
            x = x + offset_sum_filtered(q, e, l, group.alpha, t0d, a - hi, bb - lo, beta, step,
                                        rho_minus_1);
        const DInterval t_min = t0d + e.c * at(cs > 0 ? a : bb);
        for (const AffineRun *f : l.fixed) {
            if (f == own) continue;
            const DInterval v = e.alpha[index(f)] + e.c * at(f->lo);
            // the exact form's term is exp(-beta (t_min - v)) below t_min
            // and 1 from t_min on: 1 bounds it where doubles cannot tell
            x = x +
                (less(v, t_min) == Tri::True ? exp(-(beta * (t_min - v))) : DInterval::point(1));
        }
        return less_equal(x, ratio) == Tri::True;
    };
    for (const AffineRun *r : l.free_runs) {
        auto [a, bb] = reaching_L(q, e, index(r));
        if (a <= bb && !certain(*r, a, bb, nullptr)) return false;
    }
    const AffineRun &lr = q.runs[q.L_run];
    for (const AffineRun *f : l.fixed) {
        // v - L = (alpha_f - alpha_L) + c (position - L_position)
        const DInterval v_minus_L = add_exact_zero(
            f->alpha == lr.alpha ? DInterval::point(0) : e.alpha[index(f)] - e.alpha[q.L_run],
            times(e.c, f->lo - q.L_position));
        const Tri reaches = f->alpha == lr.alpha && f->lo == q.L_position
                                ? Tri::True
                                : less_equal(DInterval::point(0), v_minus_L);
        const bool maximum =
            reaches == Tri::Unknown ? f->alpha + q.c * f->lo >= q.L : reaches == Tri::True;
        if (maximum && !certain(*f, f->lo, f->lo, f)) return false;
    }
    return true;
}

} // namespace tempcert::detail
