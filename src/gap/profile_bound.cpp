// The profile bound (docs/semantics.md; proofs/profile-bound.md): for one query with
// maximising set M (k = |M|) and gaps d_j > 0 to the other allowed
// positions, TV(softmax_beta, uniform on M) = X / (k + X) with
// X(beta) = sum_j exp(-beta d_j), which is <= eps exactly when
// X(beta) <= c = k eps / (1 - eps). X decreases strictly, so the threshold is
// its unique root; the bound of a head is the largest threshold over all
// inputs and queries. For a single-layer model under tv it is the tight
// inverse temperature.
#include "tempcert/bounds.hpp"
#include "tempcert/dinterval.hpp"
#include "tempcert/error.hpp"

#include <algorithm>

namespace tempcert {

std::vector<GapCount> group_gaps(std::vector<Rational> d) {
    // Sorted by a double key first (GMP's rational comparison was a third of
    // a long scan): mpq_get_d truncates toward zero, which is monotone, so a
    // smaller key means a smaller gap, and only equal keys compare exactly.
    std::vector<std::pair<double, std::size_t>> order(d.size());
    for (std::size_t i = 0; i < d.size(); ++i)
        order[i] = {mpq_get_d(d[i].backend().data()), i};
    std::sort(order.begin(), order.end(), [&d](const auto &a, const auto &b) {
        return a.first != b.first ? a.first < b.first : d[a.second] < d[b.second];
    });
    std::vector<GapCount> gaps;
    double last_key = 0;
    for (const auto &[key, i] : order) {
        if (!gaps.empty() && key == last_key && gaps.back().gap == d[i])
            ++gaps.back().count;
        else
            gaps.push_back({std::move(d[i]), 1});
        last_key = key;
    }
    return gaps;
}

namespace {

// X(beta) <= c in outward-rounded doubles (the filter of
// proofs/double-filter.md): Unknown when the doubles cannot decide, and
// then MPFI does. The gaps are summed from the smallest, and the sum stops
// as soon as it decides: with beta >= 0 every term not yet added is at most
// the current one, so X lies between the partial sum and the partial sum
// plus (terms left) times the current term. Gaps that grow with the
// position make the terms fall geometrically: a few terms decide.
Tri gaps_x_at_most_filtered(const std::vector<GapCount> &gaps, const Rational &beta,
                            const Rational &c) {
    if (beta < 0) return Tri::Unknown;
    const DInterval b = to_dinterval(beta), bound = to_dinterval(c);
    std::size_t left = 0;
    for (const auto &g : gaps)
        left += g.count;
    // counts are at most the number of positions, far below 2^53: exact doubles
    auto exactly = [](std::size_t k) { return DInterval::point(static_cast<double>(k)); };
    DInterval x = DInterval::point(0);
    for (const auto &g : gaps) {
        DInterval term = exp(-(b * to_dinterval(g.gap)));
        DInterval most = x + term * exactly(left);
        if (less_equal(most, bound) == Tri::True) return Tri::True;
        x = x + term * exactly(g.count);
        left -= g.count;
        if (less_equal(x, bound) == Tri::False) return Tri::False;
    }
    return less_equal(x, bound);
}

} // namespace

Tri gaps_x_at_most(const std::vector<GapCount> &gaps, const Rational &beta, const Rational &c,
                   Prec prec) {
    Tri fast = gaps_x_at_most_filtered(gaps, beta, c);
    if (fast != Tri::Unknown) return fast;
    for (Prec p = prec; p <= 8 * prec; p *= 2) {
        Interval x(p);
        Interval b(beta, p);
        for (const auto &g : gaps)
            x = add(x, mul(exp(neg(mul(b, g.gap, p)), p), Rational(static_cast<long>(g.count)), p),
                    p);
        Tri t = less_equal(x, c);
        if (t != Tri::Unknown) return t;
    }
    return Tri::Unknown;
}

Bracket profile_threshold(const std::vector<Rational> &d, std::size_t k, const Rational &eps,
                          const Rational &rel, Prec prec) {
    return profile_threshold(group_gaps(d), k, eps, rel, prec);
}

Bracket profile_threshold(const std::vector<GapCount> &gaps, std::size_t k, const Rational &eps,
                          const Rational &rel, Prec prec, const Rational &above) {
    Rational c = Rational(static_cast<long>(k)) * eps / (1 - eps);
    std::size_t total = 0;
    for (const auto &g : gaps)
        total += g.count;
    if (Rational(static_cast<long>(total)) <= c) return {0, 0}; // X(0) = |d| <= c
    // Upper start: X(beta) <= |d| exp(-beta dmin) <= c once
    // beta >= ln(|d| / c) / dmin (the Lemma GT argument); gaps are sorted.
    const Rational &dmin = gaps.front().gap;
    Interval start = div(log(Interval(Rational(static_cast<long>(total)) / c, prec), prec),
                         Interval(dmin, prec), prec);
    Rational hi = round_decimal(start.upper_exact(), 30, true);
    if (gaps_x_at_most(gaps, hi, c, prec) != Tri::True)
        throw Undecided("profile bound: cannot certify X(beta) <= c at the Lemma GT start");
    Rational lo = above < hi ? above : Rational(0); // X(above) > c, so above < hi
    while (hi - lo > rel * hi) {
        Rational mid = round_decimal((lo + hi) / 2, 30, true);
        if (mid >= hi || mid <= lo) break;
        Tri t = gaps_x_at_most(gaps, mid, c, prec);
        if (t == Tri::True)
            hi = mid;
        else if (t == Tri::False)
            lo = mid;
        else
            break; // X(mid) = c to working precision: the bracket stays sound
    }
    return {lo, hi};
}

std::optional<Bracket> query_threshold_beyond(const std::vector<GapCount> &gaps, std::size_t k,
                                              const Rational &eps, const Rational &rel, Prec prec,
                                              const Bracket &bound) {
    if (bound.lo <= 0) return profile_threshold(gaps, k, eps, rel, prec);
    Rational c = Rational(static_cast<long>(k)) * eps / (1 - eps);
    Tri below_lo = gaps_x_at_most(gaps, bound.lo, c, prec);
    if (below_lo == Tri::True) return std::nullopt; // threshold <= bound.lo
    if (below_lo == Tri::Unknown) return profile_threshold(gaps, k, eps, rel, prec);
    // X(bound.lo) > c: the threshold is above bound.lo
    Tri below_hi = gaps_x_at_most(gaps, bound.hi, c, prec);
    if (below_hi == Tri::True) return std::nullopt; // in (bound.lo, bound.hi]
    return profile_threshold(gaps, k, eps, rel, prec, below_hi == Tri::False ? bound.hi : bound.lo);
}

const HeadProfile *ProfileReport::attaining() const {
    const HeadProfile *top = nullptr;
    for (const auto &h : heads)
        if (h.witness && (!top || h.bound.hi > top->bound.hi)) top = &h;
    return top;
}

ProfileReport profile_bound_plain(const Model &m, std::size_t n, const Rational &eps,
                                  const Rational &rel, const Limits &limits,
                                  const PrecisionPolicy &policy) {
    check_word_budget(m.alphabet.size(), n, limits.max_words);
    ProfileReport r;
    for (std::size_t l = 0; l < m.layers.size(); ++l)
        for (std::size_t h = 0; h < m.layers[l].heads.size(); ++h)
            r.heads.push_back(HeadProfile{l + 1, h + 1, {0, 0}, std::nullopt});
    for_each_word(m.alphabet.size(), n, [&](const Word &w) {
        check_budget(limits);
        Trace t = evaluate_hard(m, w, policy);
        std::size_t idx = 0;
        for (std::size_t l = 0; l < t.layers.size(); ++l)
            for (std::size_t h = 0; h < t.layers[l].heads.size(); ++h, ++idx) {
                HeadProfile &hp = r.heads[idx];
                for (const auto &q : t.layers[l].heads[h].queries) {
                    if (!q.gap) continue;
                    // an exact gap between irrational scores (their forms cancel)
                    // still leaves the other scores irrational
                    if (!q.gap->is_exact() ||
                        !std::all_of(q.scores.begin(), q.scores.end(),
                                     [](const Real &s) { return s.is_exact(); }))
                        throw Undecided("profile bound: irrational scores are not supported");
                    Rational top = q.scores[0].exact();
                    for (const auto &s : q.scores)
                        top = std::max(top, s.exact());
                    std::vector<Rational> d;
                    for (const auto &s : q.scores)
                        if (s.exact() != top) d.push_back(top - s.exact());
                    std::vector<GapCount> gaps = group_gaps(std::move(d));
                    // max over queries of thresholds in [lo_q, hi_q] lies in
                    // [max lo_q, max hi_q]; the witness attains the max lower
                    // end. A query whose threshold certainly lies below the
                    // current upper end changes neither.
                    std::optional<Bracket> beyond = query_threshold_beyond(
                        gaps, q.argmax.size(), eps, rel, policy.start, hp.bound);
                    if (!beyond) continue;
                    const Bracket &b = *beyond;
                    if (!hp.witness || b.lo > hp.bound.lo) {
                        hp.bound.lo = b.lo;
                        hp.witness = Witness{w, l + 1, h + 1, q.query, q.argmax, q.runner_up};
                    }
                    hp.bound.hi = std::max(hp.bound.hi, b.hi);
                }
            }
        return true;
    });
    for (const auto &hp : r.heads) {
        r.bound.lo = std::max(r.bound.lo, hp.bound.lo);
        r.bound.hi = std::max(r.bound.hi, hp.bound.hi);
    }
    return r;
}

} // namespace tempcert
