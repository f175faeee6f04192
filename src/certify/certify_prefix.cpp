// Prefix-sharing certification (SPEC 5.2): a depth-first walk over the tree
// of words where each node judges only its newest query (tv) or newest
// read-out (output, decision); the earlier ones are its ancestors' and were
// judged there. Nodes the fixed-precision soft state cannot decide are
// re-judged whole by the plain path (certify_word), which raises precision.
//
// The counterexample is the plain path's: the first refuting word in
// (length, lexicographic) order refutes at its newest item (else a shorter
// prefix would refute), so it is a node; the walk keeps the least such node
// and does not descend below a refuting node or past its length.
#include "../eval/prefix_eval.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/error.hpp"

#include <functional>

namespace tempcert {

std::optional<CertifyResult> certify_prefix(const Model &m, const BetaSpec &beta,
                                            const CertifyOptions &o) {
    if (!detail::PrefixEvaluator::applies(m)) return std::nullopt;
    // Shared prefixes need one beta for every length: no layer's beta may
    // read n (a value test at a few lengths would not do: 3 + (n-1)(n-2)).
    if (beta.uses_n()) return std::nullopt;
    std::vector<Real> betas;
    const Prec prec = o.precision.start;
    for (std::size_t l = 0; l < m.layers.size(); ++l)
        betas.push_back(beta.at(l, 1, prec));
    check_word_budget(m.alphabet.size(), o.n, o.limits.max_words);
    CertifyResult r;
    r.method = "exhaustive-prefix";
    const std::uint64_t total = count_words(m.alphabet.size(), o.n);
    r.max_prec = prec;
    detail::PrefixEvaluator ev(m, prec, betas);
    Word w;
    std::function<void()> walk = [&] {
        for (std::size_t s = 0; s < m.alphabet.size(); ++s) {
            check_budget(o.limits);
            if (o.limits.progress) o.limits.progress(r.words, total);
            ev.push(static_cast<int>(s));
            w.push_back(static_cast<int>(s));
            ++r.words;
            Tri t = Tri::True;
            Violation v;
            auto fold = [&](Tri x, Violation &cand) {
                if (x == Tri::True || t == Tri::False) return;
                if (x == Tri::False || t == Tri::True) {
                    t = x;
                    v = cand;
                }
            };
            if (o.criterion == Criterion::Tv) {
                std::size_t idx = 0;
                for (std::size_t l = 0; l < m.layers.size(); ++l)
                    for (std::size_t h = 0; h < m.layers[l].heads.size(); ++h, ++idx) {
                        Violation cand;
                        fold(
                            judge_query(ev.soft_queries()[idx], l + 1, h + 1, o.eps, prec, w, cand),
                            cand);
                    }
            } else {
                for (std::size_t k = 0; k < ev.soft_outputs().size(); ++k) {
                    Violation cand;
                    fold(judge_output(ev.soft_outputs()[k], ev.hard_outputs()[k], o.eps,
                                      o.criterion, prec, w, cand),
                         cand);
                }
            }
            if (t == Tri::Unknown) { // fixed precision could not decide: plain path
                Prec used = 0;
                t = certify_word(m, w, beta, o, v, used, &r.bindings);
                r.max_prec = std::max(r.max_prec, used);
            } else if (t == Tri::True) {
                // the newest query of each head, or the newest read-out
                Trace hard_new, soft_new;
                soft_new.prec = prec;
                if (o.criterion == Criterion::Tv) {
                    std::size_t idx = 0;
                    for (std::size_t l = 0; l < m.layers.size(); ++l) {
                        soft_new.layers.emplace_back();
                        for (std::size_t h = 0; h < m.layers[l].heads.size(); ++h, ++idx)
                            soft_new.layers[l].heads.push_back(HeadTrace{{ev.soft_queries()[idx]}});
                    }
                } else {
                    hard_new.outputs = ev.hard_outputs();
                    soft_new.outputs = ev.soft_outputs();
                }
                record_binding(r.bindings, hard_new, soft_new, o.criterion, w);
            }
            if (t == Tri::False) {
                if (!r.counterexample || word_before(w, r.counterexample->word))
                    r.counterexample = v;
            } else {
                if (t == Tri::Unknown && (!r.undecided || word_before(w, r.undecided->word)))
                    r.undecided = v;
                bool deeper = w.size() < o.n &&
                              (!r.counterexample || w.size() + 1 < r.counterexample->word.size());
                if (deeper) walk();
            }
            w.pop_back();
            ev.pop();
        }
    };
    walk();
    r.verdict = r.counterexample ? Verdict::Refuted
                                 : (r.undecided ? Verdict::Undecided : Verdict::Certified);
    return r;
}

} // namespace tempcert
