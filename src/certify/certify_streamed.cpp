// One word decided as certify_word decides it, without its traces: the
// summary pass (src/eval/summary_eval.cpp) evaluates hard and soft in
// lockstep, one query at a time, and hands each soft query to the tv
// judge; what certify_word reads of its traces, the pass keeps: the first
// query judged False (which ends the pass) and the first judged Unknown,
// or the read-outs for the output and decision criteria. judge_word folds
// the same judgements in the same order, so verdict and violation agree
// (tests/unit/test_certify_streamed.cpp).
#include "tempcert/certify.hpp"
#include "tempcert/eval.hpp"
#include "word_precision.hpp"

namespace tempcert {

namespace {

// judge_word's verdict from what the pass kept at `prec`.
Tri judge_pass(const EvalSummary &s, const CertifyOptions &o, Prec prec, const Word &w,
               Violation &violation) {
    if (o.criterion != Criterion::Tv)
        return judge_word(s.hard, *s.soft, o.eps, o.criterion, violation, w);
    if (s.failing)
        return judge_query(s.failing->query, s.failing->layer, s.failing->head, o.eps, prec, w,
                           violation);
    if (!s.undecided) return Tri::True;
    judge_query(s.undecided->query, s.undecided->layer, s.undecided->head, o.eps, prec, w,
                violation);
    return Tri::Unknown;
}

} // namespace

Tri certify_word_streamed(const Model &m, const Word &w, const BetaSpec &beta,
                          const CertifyOptions &o, Violation &violation, Prec &used) {
    return detail::decide_raising_precision(o, w, violation, used, [&](Prec prec) {
        const QueryVerdict tv = [&](std::size_t layer, std::size_t head, const QueryTrace &q) {
            Violation scratch; // each thread its own
            return judge_query(q, layer, head, o.eps, prec, w, scratch);
        };
        EvalSummary s = evaluate_summary_at(m, w, beta, prec, &o.limits,
                                            o.criterion == Criterion::Tv ? &tv : nullptr);
        return judge_pass(s, o, prec, w, violation);
    });
}

} // namespace tempcert
