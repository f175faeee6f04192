// One word through the hard model (exact: every head's maximising set, gap,
// runner-up and tie) and through the soft model at beta (enclosed), and the
// criterion judged between the two (docs/semantics.md, "Criteria").
#pragma once

#include "forward.hpp"

#include <map>
#include <memory>
#include <optional>

namespace minicheck {
using Word = std::vector<std::size_t>; // symbol indices

struct HardQuery {
    std::vector<std::size_t> allowed, argmax;
    std::optional<std::size_t> runner_up; // the first position with the second score
    std::optional<SqrtSum> gap;           // none when every allowed position maximises
    bool shares_value = true;             // the maximising positions carry one value
    Vec compare;                          // the weights the criterion tv compares with
};

struct HardWord {
    // [layer][head][position]: nullopt where the query has no allowed position
    std::vector<std::vector<std::vector<std::optional<HardQuery>>>> queries;
    std::vector<XVec> readouts; // per read-out position: {y} or the class values
};

HardWord evaluate_hard(const Model &m, const Word &w);

enum class Tri { True, False, Unknown };

struct Judgement {
    Tri verdict = Tri::True;
    std::string where; // the first place that is not True
};

// The soft model's pieces, apart for the tests: softmax at beta of enclosed
// scores (with a memo, one per beta, a point score takes exp(beta d) of its
// distance d below the top from it: a walk meets the same distances word
// after word), a feed-forward sublayer on a box, one read-out's criterion.
using ExpMemo = std::map<Q, Iv>;
std::vector<Iv> softmax(const std::vector<Iv> &scores, const Iv &beta, ExpMemo *memo = nullptr);
std::vector<Iv> soft_ffn(const Ffn &f, const std::vector<Iv> &x, long prec);
Tri judge_readout(const Model &m, const XVec &hard, const std::vector<Iv> &soft, const Q &eps,
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

// Both models over a walk of the words, one position at a time, where
// looks_back_only (forward.hpp): each word is its prefix's state plus its
// last position. The soft model is evaluated at one precision, with betas
// free of n (none: the hard model alone).
class PrefixWalk {
  public:
    PrefixWalk(const Model &m, std::optional<std::vector<Iv>> betas, long prec);
    ~PrefixWalk();
    PrefixWalk(const PrefixWalk &) = delete;
    PrefixWalk &operator=(const PrefixWalk &) = delete;

    // Position w.size() of w, the positions before it being w's (the walk's
    // previous call was on w's prefix, or, for one symbol, none; BOS's
    // position is evaluated once, by the constructor).
    void extend(const Word &w);
    // w's hard queries at positions <= w.size() (later slots are stale).
    const HardWord &hard() const;
    // The criterion at w's last position: every head's TV at its query
    // there, or the read-out there if w has one; Unknown without betas.
    Judgement judge_last(const Word &w, const Q &eps, const std::string &criterion) const;

  private:
    struct State;
    std::unique_ptr<State> s_;
};
} // namespace minicheck
