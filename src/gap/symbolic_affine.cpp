// Closed forms for affine scores (proofs/symbolic-gap.md, "Affine scores").
//
// By Lemma 3 of the proof, the least gap of a query is the least u - v > 0
// over offers u >= L and v from two different positions. Offers come in runs
// (one symbol over consecutive positions, values alpha + c j), and all runs
// are over the same or disjoint position sets, so two offers of runs R, S at
// positions j, j' are from different positions exactly when k = j - j' != 0.
// For a pair of runs the differences are Delta + c k with Delta = alpha_R -
// alpha_S and k ranging over an integer interval without 0: the least
// positive one and the zero (a tie) have closed forms.
#include "symbolic_affine.hpp"
#include "symbolic_affine_parts.hpp"
#include "tempcert/dinterval.hpp"
#include "tempcert/mask.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace tempcert::detail {

// floor(x) and ceil(x), clamped to [lo, hi] (so they fit in a long).
long floor_clamped(const Rational &x, long lo, long hi) {
    if (x <= lo) return lo;
    if (x >= hi) return hi;
    Integer f = numerator(x) / denominator(x); // rounds toward zero
    if (x < 0 && f * denominator(x) != numerator(x)) f -= 1;
    return f.convert_to<long>();
}

long ceil_clamped(const Rational &x, long lo, long hi) {
    if (x <= lo) return lo;
    if (x >= hi) return hi;
    Integer f = numerator(x) / denominator(x);
    if (x > 0 && f * denominator(x) != numerator(x)) f += 1;
    return f.convert_to<long>();
}

// The positions of run r whose offer is >= L: lo..hi, empty when lo > hi.
std::pair<long, long> at_least_L(const AffineQuery &q, const AffineRun &r) {
    if (q.c == 0) return r.alpha >= q.L ? std::make_pair(r.lo, r.hi) : std::make_pair(1L, 0L);
    Rational x = (q.L - r.alpha) / q.c; // c j >= L - alpha
    if (q.c > 0) return {std::max(r.lo, ceil_clamped(x, r.lo - 1, r.hi + 1)), r.hi};
    return {r.lo, std::min(r.hi, floor_clamped(x, r.lo - 1, r.hi + 1))};
}

namespace {

// The positions j (of u's run, from ulo on) and j - k (of v's run); j is
// also <= min(uhi, v.hi + k), as k is a difference of the two ranges.
AffinePair pick(const AffineRun &u, long ulo, const AffineRun &v, long k, Rational value) {
    long j = std::max(ulo, v.lo + k);
    return {std::move(value),
            {static_cast<std::size_t>(j), u.symbol},
            {static_cast<std::size_t>(j - k), v.symbol}};
}

} // namespace

AffineQuery affine_query(const std::vector<Rational> &A, const Rational &b0, const Rational &c,
                         Mask mask, std::size_t len, std::size_t i, int a, bool bos) {
    AffineQuery q;
    affine_query(q, A, b0, c, mask, len, i, a, bos);
    return q;
}

void affine_query(AffineQuery &q, const std::vector<Rational> &A, const Rational &b0,
                  const Rational &c, Mask mask, std::size_t len, std::size_t i, int a, bool bos) {
    q.c = c;
    q.least_symbol = 0;
    q.L_run = 0;
    q.L_position = 0;
    q.L = 0;
    // runs assigned in place over the previous query's (their rationals'
    // storage reused), the extra ones dropped at the end
    std::size_t used = 0;
    auto add_run = [&](int symbol, long lo, long hi, const Rational &offer_constant) {
        if (used == q.runs.size()) q.runs.emplace_back();
        AffineRun &r = q.runs[used++];
        r.symbol = symbol;
        r.lo = lo;
        r.hi = hi;
        r.alpha = offer_constant;
        if (b0 != 0) r.alpha += b0;
    };
    const std::size_t k = A.size() - (bos ? 1 : 0); // alphabet size
    for (std::size_t s = 1; s < k; ++s)
        if (A[s] < A[static_cast<std::size_t>(q.least_symbol)])
            q.least_symbol = static_cast<int>(s);
    const long li = static_cast<long>(i), ln = static_cast<long>(len);
    bool before = sees_before(mask);
    bool after = sees_after(mask);
    bool self = includes_self(mask);
    // BOS is position 0: seen from i >= 1 by masks looking back, from the
    // BOS query itself by masks including the query.
    bool sees_bos = bos && (i == 0 ? self : before);
    // a run's alpha is its symbol's offer constant A(sigma) + b0 (BOS
    // last): a fixed position's run has alpha = its offer - c p too
    // L, the largest least offer alpha + c p of a position: compared in
    // enclosures, exactly where they overlap, and computed once at the end
    const DInterval cd = enclose(c);
    auto offer_d = [&](std::size_t run, long p) {
        return add_exact_zero(enclose(q.runs[run].alpha),
                              p == 0 ? DInterval::point(0)
                                     : cd * DInterval::point(static_cast<double>(p)));
    };
    auto offer_exact = [&](std::size_t run, long p) { return Rational(q.runs[run].alpha + c * p); };
    bool have_L = false;
    auto note_least = [&](std::size_t run, long position) {
        bool larger = !have_L;
        if (!larger) {
            const Tri t = less(offer_d(q.L_run, q.L_position), offer_d(run, position));
            larger = t == Tri::Unknown
                         ? offer_exact(run, position) > offer_exact(q.L_run, q.L_position)
                         : t == Tri::True;
        }
        if (larger) {
            q.L_run = run;
            q.L_position = position;
        }
        have_L = true;
    };
    auto fixed = [&](long p, int symbol) {
        add_run(symbol, p, p, A[symbol < 0 ? k : static_cast<std::size_t>(symbol)]);
        note_least(used - 1, p);
    };
    auto free_run = [&](long lo, long hi) {
        if (lo > hi) return;
        const std::size_t first_run = used;
        for (std::size_t s = 0; s < k; ++s)
            add_run(static_cast<int>(s), lo, hi, A[s]);
        // the least offer of these positions: the least symbol at the end
        // where c j is least
        note_least(first_run + static_cast<std::size_t>(q.least_symbol), c >= 0 ? hi : lo);
    };
    if (sees_bos) fixed(0, -1);
    if (i >= 1) {
        if (before) free_run(1, li - 1);
        if (self) fixed(li, a);
    }
    if (after) free_run(li + 1, ln);
    q.runs.resize(used);
    if (have_L) q.L = offer_exact(q.L_run, q.L_position);
}

std::optional<AffinePair> affine_min_gap(const AffineQuery &q, const Limits &limits) {
    std::optional<AffinePair> best;
    const Rational &c = q.c;
    for (const auto &u : q.runs) {
        check_budget(limits);
        auto [ulo, uhi] = at_least_L(q, u);
        if (ulo > uhi) continue;
        for (const auto &v : q.runs) {
            long klo = ulo - v.hi, khi = uhi - v.lo; // k = j - j'
            Rational delta = u.alpha - v.alpha;
            long k; // the k != 0 in klo..khi with the least positive delta + c k
            if (c == 0) {
                if (delta <= 0) continue;
                k = klo != 0 ? klo : 1;
            } else if (c > 0) {
                k = std::max(klo, floor_clamped(-delta / c, klo - 2, khi + 1) + 1);
                if (k == 0) k = 1;
            } else {
                k = std::min(khi, ceil_clamped(-delta / c, klo - 1, khi + 2) - 1);
                if (k == 0) k = -1;
            }
            if (k < klo || k > khi) continue;
            Rational gap = delta + c * k;
            if (!best || gap < best->gap) best = pick(u, ulo, v, k, std::move(gap));
        }
    }
    return best;
}

std::optional<AffinePair> affine_tie(const AffineQuery &q, const std::vector<int> &value_class,
                                     const Limits &limits) {
    auto cls = [&](int symbol) {
        return value_class[symbol < 0 ? value_class.size() - 1 : static_cast<std::size_t>(symbol)];
    };
    for (const auto &u : q.runs) {
        check_budget(limits);
        auto [ulo, uhi] = at_least_L(q, u);
        if (ulo > uhi) continue;
        for (const auto &v : q.runs) {
            if (cls(u.symbol) == cls(v.symbol)) continue;
            long klo = ulo - v.hi, khi = uhi - v.lo;
            Rational delta = u.alpha - v.alpha;
            long k; // the k != 0 in klo..khi with delta + c k = 0
            if (q.c == 0) {
                if (delta != 0) continue;
                k = klo != 0 ? klo : 1;
            } else {
                Rational x = -delta / q.c;
                if (!is_integer(x) || x < klo || x > khi) continue;
                k = numerator(x).convert_to<long>(); // an integer within klo..khi
            }
            if (k == 0 || k < klo || k > khi) continue;
            return pick(u, ulo, v, k, Rational(0));
        }
    }
    return std::nullopt;
}

} // namespace tempcert::detail

namespace tempcert::detail {

AffineLayout layout_of(const AffineQuery &q, std::size_t i) {
    AffineLayout l;
    for (const auto &r : q.runs) {
        if (r.lo == r.hi && (r.lo == 0 || r.lo == static_cast<long>(i))) {
            l.fixed.push_back(&r);
            continue;
        }
        l.free_runs.push_back(&r);
        if (std::find(l.ranges.begin(), l.ranges.end(), std::make_pair(r.lo, r.hi)) ==
            l.ranges.end()) {
            l.ranges.emplace_back(r.lo, r.hi);
            l.free += static_cast<std::size_t>(r.hi - r.lo + 1);
            if (l.ranges.size() == 1 || static_cast<std::size_t>(r.lo) < l.first_free)
                l.first_free = static_cast<std::size_t>(r.lo);
        }
        // every range offers the same constants: one range's suffice
        if (l.ranges.front() == std::make_pair(r.lo, r.hi)) l.offers.push_back(&r);
    }
    std::sort(l.offers.begin(), l.offers.end(), [](const AffineRun *a, const AffineRun *b) {
        return a->alpha < b->alpha || (a->alpha == b->alpha && a->symbol < b->symbol);
    });
    for (const AffineRun *o : l.offers)
        if (l.alphas.empty() || l.alphas.back()->alpha != o->alpha) l.alphas.push_back(o);
    return l;
}

std::optional<ProfilePlan> affine_profile_constant(const AffineQuery &q, std::size_t i,
                                                   const Rational &eps, const Rational &rel,
                                                   Prec prec, Bracket &bound, bool have_word) {
    if (q.c != 0) throw std::logic_error("affine_profile_constant: offers move with the position");
    const AffineLayout o = layout_of(q, i);
    // the maxima: offers >= L, descending
    std::vector<Rational> tops;
    for (const AffineRun *v : o.alphas)
        if (v->alpha >= q.L) tops.push_back(v->alpha);
    for (const AffineRun *f : o.fixed)
        if (f->alpha >= q.L) tops.push_back(f->alpha);
    std::sort(tops.begin(), tops.end(), [](const Rational &a, const Rational &b) { return a > b; });
    tops.erase(std::unique(tops.begin(), tops.end()), tops.end());
    std::optional<ProfilePlan> word;
    for (const Rational &top : tops) {
        // a fixed position offering top holds it (its least offer is top);
        // free positions hold it when their least offer is top
        std::size_t forced = 0;
        std::vector<GapCount> gaps;
        for (const AffineRun *f : o.fixed) {
            if (f->alpha == top)
                ++forced;
            else
                gaps.push_back({top - f->alpha, 1});
        }
        const bool free_forced = o.free > 0 && o.offers.front()->alpha == top;
        if (free_forced) forced += o.free;
        // the free positions' largest offer below top and whether they offer top
        const AffineRun *pred = nullptr, *hold = nullptr;
        for (const AffineRun *v : o.offers) {
            if (v->alpha < top) pred = v; // ascending: the last is the largest
            if (v->alpha == top && !hold) hold = v;
        }
        // without forced positions one holder keeps top: the first free one
        // (the free positions' gaps are all equal, so none is larger)
        const bool free_holder = forced == 0 && hold && o.free > 0;
        if (forced == 0 && !free_holder) continue; // not an offer of any position
        if (o.free > 0 && !free_forced) {
            const std::size_t count = o.free - (free_holder ? 1 : 0);
            if (count > 0) gaps.push_back({top - pred->alpha, count});
        }
        if (gaps.empty()) continue;
        std::sort(gaps.begin(), gaps.end(),
                  [](const GapCount &a, const GapCount &b) { return a.gap < b.gap; });
        std::vector<GapCount> grouped; // equal gaps merged, as group_gaps gives them
        for (auto &g : gaps)
            if (!grouped.empty() && grouped.back().gap == g.gap)
                grouped.back().count += g.count;
            else
                grouped.push_back(std::move(g));
        const std::size_t kM = forced == 0 ? 1 : forced;
        std::optional<Bracket> beyond = query_threshold_beyond(grouped, kM, eps, rel, prec, bound);
        if (!beyond) continue; // within the bracket so far: it changes neither end
        if (!have_word || beyond->lo > bound.lo) {
            bound.lo = beyond->lo;
            ProfilePlan p;
            p.fill = free_forced || !pred ? o.offers.empty() ? 0 : o.offers.front()->symbol
                                          : pred->symbol;
            if (free_holder) p.holder = Pick{o.first_free, hold->symbol};
            word = p;
            have_word = true;
        }
        bound.hi = std::max(bound.hi, beyond->hi);
    }
    return word;
}

} // namespace tempcert::detail

namespace tempcert::detail {

namespace {

// Upper bound of sum over k in [ka, kb] of exp(-beta g(t0 + c k)), where
// g(u) = u - (the largest alpha below u), terms with no alpha below u left
// out (such a position holds the maximum). Per segment alpha_r < u <=
// alpha_{r+1} the gaps are g0, g0 + |c|, ...: exp(-beta g0) times a
// geometric sum.
DInterval offset_sum(const AffineLayout &l, const Rational &t0, const Rational &c, long ka, long kb,
                     const DInterval &beta) {
    DInterval sum = DInterval::point(0);
    if (ka > kb) return sum;
    const DInterval step = beta * to_dinterval(c < 0 ? Rational(-c) : c);
    for (std::size_t r = 0; r < l.alphas.size(); ++r) {
        // k with alpha_r < t0 + c k <= alpha_{r+1} (no upper side for the last)
        long lo = ka, hi = kb;
        const Rational below = (l.alphas[r]->alpha - t0) / c;
        if (c > 0) {
            lo = std::max(lo, floor_clamped(below, ka - 1, kb + 1) + 1);
            if (r + 1 < l.alphas.size())
                hi = std::min(hi, floor_clamped((l.alphas[r + 1]->alpha - t0) / c, ka - 1, kb + 1));
        } else { // c < 0: u grows as k falls
            hi = std::min(hi, ceil_clamped(below, ka - 1, kb + 1) - 1);
            if (r + 1 < l.alphas.size())
                lo = std::max(lo, ceil_clamped((l.alphas[r + 1]->alpha - t0) / c, ka - 1, kb + 1));
        }
        if (lo > hi) continue;
        const long first = c > 0 ? lo : hi; // the least u of the segment
        const Rational g0 = t0 + c * first - l.alphas[r]->alpha;
        const double m = static_cast<double>(hi - lo + 1);
        // (1 - rho^m) / (1 - rho), both as expm1 of negatives
        DInterval geometric = expm1(-(step * DInterval::point(m))) / expm1(-step);
        if (!geometric.finite() || geometric.hi > m) geometric = DInterval{0, m};
        sum = sum + exp(-(beta * to_dinterval(g0))) * geometric;
    }
    return sum;
}

} // namespace

bool affine_profile_at_most(const AffineQuery &q, std::size_t i, const Rational &beta,
                            const Rational &eps) {
    if (q.c == 0 || beta <= 0) return false;
    const AffineLayout l = layout_of(q, i);
    const DInterval b = to_dinterval(beta);
    const DInterval bound = to_dinterval(eps / (1 - eps));
    // One group of maxima: t = t0 + c j for j in [a, b] (a free run's
    // symbol, or a fixed position alone); `own` is that fixed position.
    auto certain = [&](const Rational &t0, long a, long bb, const AffineRun *own) {
        DInterval x = DInterval::point(0);
        for (const auto &[lo, hi] : l.ranges)
            x = x + offset_sum(l, t0, q.c, a - hi, bb - lo, b);
        // the other fixed positions at the least maximum of the group
        const Rational t_min = t0 + q.c * (q.c > 0 ? a : bb);
        for (const AffineRun *f : l.fixed) {
            if (f == own) continue;
            const Rational v = f->alpha + q.c * f->lo;
            x = x + (v < t_min ? exp(-(b * to_dinterval(t_min - v))) : DInterval::point(1));
        }
        return less_equal(x, bound) == Tri::True;
    };
    for (const AffineRun *r : l.free_runs) {
        auto [a, bb] = at_least_L(q, *r);
        if (a <= bb && !certain(r->alpha, a, bb, nullptr)) return false;
    }
    for (const AffineRun *f : l.fixed) {
        const Rational v = f->alpha + q.c * f->lo;
        if (v >= q.L && !certain(f->alpha, f->lo, f->lo, f)) return false;
    }
    return true;
}

} // namespace tempcert::detail
