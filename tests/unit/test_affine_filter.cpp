// The affine scan's double filter (src/gap/symbolic_affine_filter.hpp)
// against the exact closed forms it stands in front of: on random queries,
// each "certainly" it answers must be what the exact form computes, and it
// must decide most queries (a filter that always says "don't know" is sound
// and useless). The whole scan with and without the filter is compared in
// test_symbolic.cpp.
#include "gap/symbolic_affine.hpp"
#include "gap/symbolic_affine_filter.hpp"

#include <doctest/doctest.h>

#include <random>
#include <vector>

using namespace tempcert;
using namespace tempcert::detail;

namespace {

Rational filter_small(std::mt19937 &rng, long span, long den) {
    return Rational(static_cast<long>(rng() % (2 * span + 1)) - span,
                    1 + static_cast<long>(rng() % den));
}

struct RandomAffineQuery {
    AffineQuery q;
    std::size_t i = 0;
    std::vector<int> value_class;
};

// Scores A(sigma) + b0 + c j as a first-layer head gives them; c is 0 in
// one query of six, and A repeats values often (equal offers are where
// doubles cannot decide); every score times `scale`.
RandomAffineQuery random_affine_query(std::mt19937 &rng, const Rational &scale = Rational(1)) {
    const Mask masks[] = {Mask::None, Mask::Causal, Mask::Strict, Mask::Future, Mask::StrictFuture};
    const std::size_t k = 1 + rng() % 4;
    const bool bos = rng() % 3 == 0;
    std::vector<Rational> A;
    RandomAffineQuery r;
    for (std::size_t s = 0; s < k + (bos ? 1 : 0); ++s) {
        A.push_back(rng() % 3 == 0 && s > 0 ? A[s - 1] : Rational(filter_small(rng, 6, 3) * scale));
        r.value_class.push_back(static_cast<int>(rng() % 3));
    }
    const Rational c = rng() % 6 == 0 ? Rational(0) : Rational(filter_small(rng, 3, 7) * scale);
    const std::size_t len = 1 + rng() % 40;
    r.i = (bos ? 0 : 1) + rng() % (len + (bos ? 1 : 0));
    const int a = r.i == 0 ? -1 : static_cast<int>(rng() % k);
    r.q = affine_query(A, Rational(filter_small(rng, 5, 2) * scale), c, masks[rng() % 5], len, r.i,
                       a, bos);
    return r;
}

} // namespace

TEST_CASE("affine query: L is the offer of the run and position it records") {
    std::mt19937 rng(41);
    for (int round = 0; round < 3000; ++round) {
        const RandomAffineQuery r = random_affine_query(rng);
        if (r.q.runs.empty()) continue;
        const AffineRun &run = r.q.runs[r.q.L_run];
        CHECK(run.lo <= r.q.L_position);
        CHECK(r.q.L_position <= run.hi);
        CHECK(r.q.L == run.alpha + r.q.c * r.q.L_position);
    }
}

TEST_CASE("affine filter: every 'certainly' agrees with the exact closed forms") {
    std::mt19937 rng(20261205);
    int gap_said = 0, gap_could = 0, tie_said = 0, tie_could = 0, prof_said = 0, prof_could = 0;
    const Rational epss[] = {Rational(1, 100), Rational(1, 10), Rational(1, 3)};
    for (int round = 0; round < 4000; ++round) {
        CAPTURE(round);
        const RandomAffineQuery r = random_affine_query(rng);
        const AffineQuery &q = r.q;
        if (q.runs.empty()) continue;
        const AffineEnclosure e = enclose_query(q);
        const Limits none;
        // the least gap against a best equal to it, just above, just below
        if (auto g = affine_min_gap(q, none)) {
            const Rational bests[] = {g->gap, g->gap + Rational(1, 1000000007),
                                      g->gap - Rational(1, 1000000007), g->gap * 2};
            for (const Rational &best : bests) {
                CAPTURE(to_string(best));
                const bool said = affine_gaps_not_below(q, e, best, none);
                const bool truth = g->gap >= best;
                if (said) CHECK(truth);
                gap_said += said;
                gap_could += truth;
            }
        } else {
            CHECK(affine_gaps_not_below(q, e, Rational(1, 1000), none));
        }
        const bool tie = affine_tie(q, r.value_class, none).has_value();
        const bool no_tie = affine_no_tie(q, e, r.value_class, none);
        if (no_tie) CHECK_FALSE(tie);
        tie_said += no_tie;
        tie_could += !tie;
        if (q.c == 0) continue;
        for (int t = 0; t < 3; ++t) {
            const Rational beta(1 + static_cast<long>(rng() % 200), 8);
            const Rational &eps = epss[rng() % 3];
            const bool exact = affine_profile_at_most(q, r.i, beta, eps);
            const bool said = affine_profile_at_most_filtered(q, e, r.i, enclose(beta),
                                                              enclose(eps / (1 - eps)), none);
            CAPTURE(to_string(beta));
            if (said) CHECK(exact);
            prof_said += said;
            prof_could += exact;
        }
    }
    MESSAGE("gap: " << gap_said << " of " << gap_could << "; no tie: " << tie_said << " of "
                    << tie_could << "; profile: " << prof_said << " of " << prof_could);
    // the filter decides nearly all of what it may (not a test that cannot fail)
    CHECK(gap_said >= gap_could * 99 / 100);
    CHECK(tie_said >= tie_could * 99 / 100);
    CHECK(prof_said >= prof_could * 9 / 10);
    CHECK(prof_could > 1000);
}

// Scores past the doubles' range (2^1030: enclosures are the whole line)
// and below it (2^-1080: they straddle 0): the filter decides little there,
// and what it decides must still be right.
TEST_CASE("affine filter: never wrong at magnitudes doubles cannot hold") {
    std::mt19937 rng(1030);
    const Integer two(2);
    const Rational scales[] = {Rational(pow(two, 1030)), Rational(Integer(1), pow(two, 1080)),
                               Rational(Integer(1), pow(two, 1000))};
    const Limits none;
    int checked = 0;
    for (const Rational &scale : scales)
        for (int round = 0; round < 600; ++round) {
            CAPTURE(round);
            const RandomAffineQuery r = random_affine_query(rng, scale);
            const AffineQuery &q = r.q;
            if (q.runs.empty()) continue;
            const AffineEnclosure e = enclose_query(q);
            if (auto g = affine_min_gap(q, none)) {
                CHECK_FALSE(affine_gaps_not_below(q, e, g->gap * 2, none)); // gaps are > 0
                if (affine_gaps_not_below(q, e, g->gap, none)) ++checked;
            }
            if (affine_no_tie(q, e, r.value_class, none))
                CHECK_FALSE(affine_tie(q, r.value_class, none).has_value());
            if (q.c == 0) continue;
            const Rational beta(1 + static_cast<long>(rng() % 200), 8), eps(1, 10);
            if (affine_profile_at_most_filtered(q, e, r.i, enclose(beta), enclose(eps / (1 - eps)),
                                                none))
                CHECK(affine_profile_at_most(q, r.i, beta, eps));
        }
    CHECK(checked > 0);
}
