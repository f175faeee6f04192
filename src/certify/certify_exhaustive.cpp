// Exhaustive certification (docs/semantics.md): every word of length 1..n is
// evaluated exactly (hard) and in intervals (soft), and judged by the
// criterion. Per word, precision starts at the policy's start and doubles
// until the word is decided or the cap is reached. A refuting word ends the
// run: it is a counterexample whatever the other words do.
#include "tempcert/certify.hpp"
#include "tempcert/error.hpp"
#include "word_precision.hpp"

namespace tempcert {

Tri certify_word(const Model &m, const Word &w, const BetaSpec &beta, const CertifyOptions &o,
                 Violation &violation, Prec &used, std::vector<Binding> *bindings) {
    Trace hard = evaluate_hard(m, w, o.precision);
    return detail::decide_raising_precision(o, w, violation, used, [&](Prec prec) {
        Trace soft = evaluate_soft_at(m, w, beta, hard, prec);
        Tri t = judge_word(hard, soft, o.eps, o.criterion, violation, w);
        if (t == Tri::True && bindings) record_binding(*bindings, hard, soft, o.criterion, w);
        return t;
    });
}

CertifyResult certify_exhaustive(const Model &m, const BetaSpec &beta, const CertifyOptions &o) {
    check_word_budget(m.alphabet.size(), o.n, o.limits.max_words);
    CertifyResult r;
    r.method = "exhaustive";
    const std::uint64_t total = count_words(m.alphabet.size(), o.n);
    bool undecided = false;
    for_each_word(m.alphabet.size(), o.n, [&](const Word &w) {
        check_budget(o.limits);
        o.limits.progress(r.words, total);
        Violation v;
        Prec used = 0;
        Tri t = certify_word(m, w, beta, o, v, used, &r.bindings);
        ++r.words;
        r.max_prec = std::max(r.max_prec, used);
        if (t == Tri::False) {
            r.counterexample = std::move(v);
            return false;
        }
        if (t == Tri::Unknown && !undecided) {
            undecided = true;
            r.undecided = std::move(v);
        }
        return true;
    });
    r.verdict =
        r.counterexample ? Verdict::Refuted : (undecided ? Verdict::Undecided : Verdict::Certified);
    return r;
}

} // namespace tempcert

namespace tempcert {

CertifyResult certify_auto(const Model &m, const BetaSpec &beta, const CertifyOptions &o) {
    if (o.allow_prefix)
        if (auto r = certify_prefix(m, beta, o)) return *r;
    return certify_exhaustive(m, beta, o);
}

} // namespace tempcert
