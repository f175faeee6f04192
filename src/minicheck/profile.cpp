// The profile judge: every configuration of one query, judged at beta
// (proofs/profile-bound.md, proofs/layerwise.md "Heads judged by their
// profile"); see offers.hpp.
//
// For a maximum t, TV against the uniform weights on the maximising set M
// is X / (|M| + X), X the sum of e^{-beta (t - s_j)} over the positions
// outside M. It grows with X and falls with |M|, so the worst configuration
// is explicit: a position with no offer below t is forced into M; every
// other position takes its largest offer below t; when none is forced one
// position offering t must hold it, the one whose offer below t weighs
// least. Every t from the floor up is judged, and TV <= eps is
// X <= |M| eps / (1 - eps).
//
// A group of positions first..last offering alpha_v + c j for the same
// values v is summed per segment: with u = t - c j, the positions whose u
// lies in (a_r, a_{r+1}] (a the sorted alphas) take offer a_r + c j at gap
// u - a_r, an arithmetic progression of step |c| over them, so their
// weights are one geometric sum.
#include "claim_checks.hpp"
#include "offers.hpp"
#include "value_gap.hpp"

#include <algorithm>
#include <map>
#include <optional>

namespace minicheck {
namespace {
// count positions at gaps g0, g0 + step, ...: sum e^{-beta gap}
struct Terms {
    Q g0, step;
    long count;
};

// The worst configuration with maximum t: its weights, |M| (forced
// positions) and the largest gap among positions that offer t.
struct Worst {
    std::vector<Terms> terms;
    unsigned long forced = 0;
    std::optional<Q> holder;
};

using Group = std::pair<std::pair<long, long>, std::vector<Q>>; // positions, sorted alphas

// The positions j of [first, last] with lo < t - c j <= hi (c != 0; hi
// may be absent: +infinity): an interval of j.
std::pair<long, long> where_u(const Q &t, const Q &c, const Q &lo, const std::optional<Q> &hi,
                              long first, long last) {
    constexpr long kEdge = 1L << 62;
    long a = first, b = last;
    if (c > 0) { // u falls with j: j < (t - lo)/c, j >= (t - hi)/c
        b = std::min(b, clamped(ceil_of((t - lo) / c) - 1, -kEdge, kEdge));
        if (hi) a = std::max(a, clamped(ceil_of((t - *hi) / c), -kEdge, kEdge));
    } else { // u rises with j: j > (lo - t)/|c|, j <= (hi - t)/|c|
        a = std::max(a, clamped(floor_of((lo - t) / -c) + 1, -kEdge, kEdge));
        if (hi) b = std::min(b, clamped(floor_of((*hi - t) / -c), -kEdge, kEdge));
    }
    return {a, b};
}

// Whether some j of [first, last] has t - c j == a (c != 0).
bool hits(const Q &t, const Q &c, const Q &a, long first, long last) {
    const Q j = (t - a) / c;
    return j.get_den() == 1 && j >= first && j <= last;
}

void add_group(const Group &g, const Q &c, const Q &t, Worst &w) {
    const auto [first, last] = g.first;
    const std::vector<Q> &a = g.second;
    if (c == 0) {                                             // every position alike: u = t
        auto below = std::lower_bound(a.begin(), a.end(), t); // first alpha >= t
        const bool offers_t = below != a.end() && *below == t;
        if (below == a.begin()) {
            w.forced += offers_t ? static_cast<unsigned long>(last - first + 1) : 0;
            return;
        }
        const Q gap = t - *std::prev(below);
        w.terms.push_back({gap, 0, last - first + 1});
        if (offers_t && (!w.holder || gap > *w.holder)) w.holder = gap;
        return;
    }
    if (hits(t, c, a.front(), first, last)) ++w.forced; // u = a_1: no offer below t
    for (std::size_t r = 0; r < a.size(); ++r) {
        const std::optional<Q> hi = r + 1 < a.size() ? std::optional<Q>(a[r + 1]) : std::nullopt;
        auto [lo_j, hi_j] = where_u(t, c, a[r], hi, first, last);
        if (lo_j > hi_j) continue;
        // the least gap u - a_r where u is nearest a_r
        const long nearest = c > 0 ? hi_j : lo_j;
        w.terms.push_back({t - c * nearest - a[r], abs(c), hi_j - lo_j + 1});
        if (hi && hits(t, c, *hi, lo_j, hi_j)) { // offers t there, at gap a_{r+1} - a_r
            const Q gap = *hi - a[r];
            if (!w.holder || gap > *w.holder) w.holder = gap;
        }
    }
}

// e^x enclosed at prec; at the first precision from the memo of the
// head's queries (the same x recur query after query), one enclosure of
// the same number however it was reached
Iv exp_of(const Q &x, long prec, ExpMemo &memo) {
    if (prec != kPrecStart) return exp(Iv(x, prec));
    auto hit = memo.find(x);
    if (hit != memo.end()) return hit->second;
    Iv e = exp(Iv(x, prec));
    if (memo.size() < (1u << 18)) memo.emplace(x, e);
    return e;
}

Iv weight_sum(const std::vector<Terms> &terms, const Q &beta, long prec, ExpMemo &memo) {
    const Iv one(1, prec);
    Iv X(0, prec);
    for (const Terms &k : terms) {
        Iv first = exp_of(Q(-beta * k.g0), prec, memo);
        if (k.count == 1) {
            X = X + first;
        } else if (k.step == 0) {
            X = X + Q(k.count) * first;
        } else { // first (1 - rho^count) / (1 - rho), rho = e^{-beta step}
            Iv rho = exp_of(Q(-beta * k.step), prec, memo);
            Iv rho_m = exp_of(Q(-beta * k.step * k.count), prec, memo);
            X = X + first * (one - rho_m) / (one - rho);
        }
    }
    return X;
}
} // namespace

void judge_profile(const Query &q, const Q &beta, const Q &eps, long cap, std::uint64_t &weights,
                   ExpMemo &memo, const std::string &where) {
    std::map<std::pair<long, long>, std::vector<Q>> by_range;
    for (const Run &r : q.runs)
        by_range[{r.first, r.last}].push_back(q.alpha[r.value]);
    std::vector<Group> groups;
    for (auto &[range, alphas] : by_range) {
        std::sort(alphas.begin(), alphas.end());
        alphas.erase(std::unique(alphas.begin(), alphas.end()), alphas.end());
        groups.emplace_back(range, alphas);
    }
    const Q ratio = eps / (1 - eps);
    // every maximum: alpha + c j for every j of a group, from the floor up
    std::vector<Q> all;
    for (const Group &g : groups)
        for (const Q &alpha : g.second)
            for (long j = g.first.first; j <= g.first.second; ++j) {
                const Q t = alpha + q.c * j;
                if (t >= q.floor) all.push_back(t);
                if (q.c == 0) break; // one maximum per value
            }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    for (const Q &t : all) {
        Worst w;
        for (const Group &g : groups)
            add_group(g, q.c, t, w);
        if (w.terms.size() > weights)
            unsupported(where, "judging heads by their profile would take more than --max-queries "
                               "/ 20 exponentials");
        weights -= w.terms.size();
        const unsigned long held = w.forced > 0 ? w.forced : 1;
        const Q limit = Q(held) * ratio;
        at_rising_precision(cap, where,
                            "within eps at beta " + to_text(beta) + " with maximum " + to_text(t),
                            [&](long prec) {
                                Iv X = weight_sum(w.terms, beta, prec, memo);
                                if (w.forced == 0 && w.holder) // the holder leaves X
                                    X = X - exp_of(Q(-beta * *w.holder), prec, memo);
                                if (X.at_most(limit)) return Tri::True;
                                return X.above(limit) ? Tri::False : Tri::Unknown;
                            });
    }
}
} // namespace minicheck
