// One word through the hard model (exact: every head's maximising set, gap,
// runner-up and tie) and through the soft model at beta (enclosed), and the
// criterion judged between the two (docs/semantics.md, "Criteria").
#pragma once

#include "forward.hpp"

#include <optional>

namespace minicheck {

using Word = std::vector<std::size_t>; // symbol indices

struct HardQuery {
    std::vector<std::size_t> allowed, argmax;
    std::optional<std::size_t> runner_up; // the first position with the second score
    std::optional<Q> gap;                 // none when every allowed position maximises
    bool shares_value = true;             // the maximising positions carry one value
    Vec compare;                          // the weights the criterion tv compares with
};

struct HardWord {
    // [layer][head][position]: nullopt where the query has no allowed position
    std::vector<std::vector<std::vector<std::optional<HardQuery>>>> queries;
    std::vector<Vec> readouts; // per read-out position: {y} or the class values
};

HardWord evaluate_hard(const Model &m, const Word &w);

enum class Tri { True, False, Unknown };

struct Judgement {
    Tri verdict = Tri::True;
    std::string where; // the first place that is not True
};

// The criterion ("tv", "output", "decision") on the soft model at `betas`
// (one per layer, enclosed at prec) against the hard word.
Judgement judge_soft(const Model &m, const Word &w, const HardWord &hard,
                     const std::vector<Iv> &betas, const Q &eps, const std::string &criterion,
                     long prec);

} // namespace minicheck
