// One query's offers over a value set (value_gap.cpp builds them): runs of
// positions, each offering the score alpha[value] + c j at position j, and
// the floor no maximum can be below. The profile judge reads them too.
#pragma once

#include "evaluate.hpp"
#include "numbers.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace minicheck {
// Positions first..last, each offering the score alpha[value] + c j.
struct Run {
    long first, last;
    std::size_t value;
};

// One query's runs and scores; `floor` is the largest over its positions
// of their least offer: no position's score can be the maximum below it.
struct Query {
    std::vector<Run> runs;
    std::vector<Q> alpha;
    Q c, floor;
    bool any = false;
};

// Rejects (exit 1, at `where`) unless every configuration of the query's
// offers keeps TV <= eps at beta against the uniform weights on its
// maximising set (proofs/profile-bound.md); exit 3 once more than
// `weights` exponentials would be taken in all (it is decremented). `memo`
// holds e^x at the first precision for the exponents x met so far.
void judge_profile(const Query &q, const Q &beta, const Q &eps, long cap, std::uint64_t &weights,
                   ExpMemo &memo, const std::string &where);
} // namespace minicheck
