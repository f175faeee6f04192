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

// The pieces of the soft model, apart for the tests' reference comparisons:
// softmax weights at beta of enclosed scores; a feed-forward sublayer on an
// enclosed activation; one read-out's criterion against the hard values.
std::vector<Iv> softmax(const std::vector<Iv> &scores, const Iv &beta);
std::vector<Iv> soft_ffn(const Ffn &f, const std::vector<Iv> &x, long prec);
Tri judge_readout(const Model &m, const Vec &hard, const std::vector<Iv> &soft, const Q &eps,
                  const std::string &criterion, long prec);

// The soft model at `betas` (one per layer, enclosed at prec) on a word:
// the read-outs (as HardWord's) and, `with_tv`, every query's TV against
// the hard weights it is compared with.
struct SoftWord {
    std::vector<std::vector<std::vector<std::optional<Iv>>>> tv; // [layer][head][position]
    std::vector<std::vector<Iv>> readouts;
};
SoftWord evaluate_soft(const Model &m, const Word &w, const HardWord &hard,
                       const std::vector<Iv> &betas, long prec, bool with_tv);

// value <= eps: True, False (certainly above), Unknown
Tri within(const Iv &value, const Q &eps);

// The criterion ("tv", "output", "decision") on the soft model at `betas`
// (one per layer, enclosed at prec) against the hard word.
Judgement judge_soft(const Model &m, const Word &w, const HardWord &hard,
                     const std::vector<Iv> &betas, const Q &eps, const std::string &criterion,
                     long prec);

} // namespace minicheck
