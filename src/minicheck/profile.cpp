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
#include "claim_checks.hpp"
#include "offers.hpp"

#include <map>
#include <optional>
#include <set>

namespace minicheck {

namespace {

// The worst configuration with maximum t: its gaps (gap -> positions) and |M|.
struct Worst {
    std::map<Q, unsigned long> gaps;
    unsigned long held = 0;
};

Worst worst_at(const std::map<long, std::vector<Q>> &offers, const Q &t) {
    Worst w;
    std::optional<Q> holder; // the largest gap among positions that offer t
    for (const auto &entry : offers) {
        std::optional<Q> below;
        bool offers_t = false;
        for (const Q &o : entry.second) {
            if (o == t) offers_t = true;
            if (o < t && (!below || o > *below)) below = o;
        }
        if (!below) { // t is its least offer (t >= the floor): forced into M
            w.held += offers_t;
            continue;
        }
        const Q gap = t - *below;
        ++w.gaps[gap];
        if (offers_t && (!holder || gap > *holder)) holder = gap;
    }
    if (w.held == 0 && holder) { // the holder leaves X
        if (--w.gaps[*holder] == 0) w.gaps.erase(*holder);
        w.held = 1;
    }
    return w;
}

} // namespace

void judge_profile(const Query &q, const Q &beta, const Q &eps, long cap, std::uint64_t &weights,
                   const std::string &where) {
    std::map<long, std::vector<Q>> offers; // position -> its scores
    std::set<Q> maxima;
    for (const Run &r : q.runs)
        for (long j = r.first; j <= r.last; ++j) {
            const Q s = q.alpha[r.value] + q.c * j;
            offers[j].push_back(s);
            if (s >= q.floor) maxima.insert(s);
        }
    const Q ratio = eps / (1 - eps);
    for (const Q &t : maxima) {
        const Worst w = worst_at(offers, t);
        if (w.gaps.size() > weights)
            unsupported(where, "judging heads by their profile would take more than --max-queries "
                               "/ 20 exponentials");
        weights -= w.gaps.size();
        const Q limit = Q(w.held) * ratio;
        at_rising_precision(cap, where,
                            "within eps at beta " + to_text(beta) + " with maximum " + to_text(t),
                            [&](long prec) {
                                Iv X(0, prec);
                                for (const auto &[gap, count] : w.gaps)
                                    X = X + Q(count) * exp(Iv(Q(-beta * gap), prec));
                                if (X.at_most(limit)) return Tri::True;
                                return X.above(limit) ? Tri::False : Tri::Unknown;
                            });
    }
}

} // namespace minicheck
