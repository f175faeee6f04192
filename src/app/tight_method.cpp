// The tight question's method chooser (include/engine/tempcert/method.hpp).
#include "tempcert/certify.hpp"
#include "tempcert/enumerate.hpp"
#include "tempcert/error.hpp"
#include "tempcert/limits.hpp"
#include "tempcert/method.hpp"
#include "tempcert/symbolic.hpp"

namespace tempcert {

namespace {

// Words above which a model in the symbolic method's scope is bracketed
// symbolically even within the word budget: its bracket is the same
// threshold enumeration finds (proofs/profile-bound.md (3)), in
// milliseconds where enumeration takes seconds (has-b at n = 16: 0.02 s
// against 2.9 s; first-is-a-bounded at n = 12: 0.04 s against 22 s).
constexpr std::uint64_t kSymbolicBeforeWords = 4096;

} // namespace

const char *to_string(TightMethod m) {
    switch (m) {
    case TightMethod::Exhaustive:
        return "exhaustive";
    case TightMethod::Symbolic:
        return "symbolic";
    case TightMethod::Layers:
        return "layerwise";
    }
    return "?";
}

TightChoice choose_tight_method(const Model &m, const CertifyOptions &o, std::uint64_t word_budget,
                                CertifyMethodAsked asked) {
    if (asked == CertifyMethodAsked::Exhaustive || asked == CertifyMethodAsked::Plain)
        return {TightMethod::Exhaustive, "asked for (--method exhaustive or plain)"};
    if (asked == CertifyMethodAsked::Layerwise)
        return {TightMethod::Layers, "asked for (--method layerwise)"};
    std::uint64_t words = count_words(m.alphabet.size(), o.n);
    std::string why_not;
    const bool symbolic = o.criterion == Criterion::Tv && symbolic_applies(m, why_not);
    if (words <= word_budget && symbolic && m.is_rational() && words > kSymbolicBeforeWords)
        return {TightMethod::Symbolic, std::to_string(words) +
                                           " words, but heads in layer 1 only: the symbolic "
                                           "threshold, the one enumeration would find, costs less"};
    if (words <= word_budget)
        return {TightMethod::Exhaustive,
                std::to_string(words) + " words, within the budget " + std::to_string(word_budget)};
    if (o.criterion != Criterion::Tv)
        why_not = "the symbolic bracket needs --criterion tv";
    else if (symbolic)
        return {TightMethod::Symbolic, "beyond the word budget; heads in layer 1 only"};
    std::string why_not_scores;
    if (!m.is_rational() && position_scores_apply(m, o, why_not_scores))
        return {TightMethod::Symbolic, "beyond the word budget; irrational features, scores that "
                                       "read no symbol: their profiles in enclosures"};
    return {TightMethod::Layers,
            "beyond the word budget; not symbolic: " + why_not +
                (why_not_scores.empty() ? "" : "; not position-only: " + why_not_scores)};
}

namespace {

// Words up to which enumerating a model whose features read n costs less
// than trying the layerwise bracket first.
constexpr std::uint64_t kWholeWordsCheap = 4096;

// Whether auto tries the layerwise bracket before enumerating: features
// that read n leave no prefix to share, so every word is evaluated whole in
// MPFI (`b S a` with --pe bounded at n = 14: 71 s, the layerwise bracket
// 0.03 s), and the symbolic bracket does not apply.
bool layers_before_words(const Model &m, const CertifyOptions &o) {
    std::string why_not;
    return o.criterion == Criterion::Tv && m.features_use_n() &&
           count_words(m.alphabet.size(), o.n) > kWholeWordsCheap && !symbolic_applies(m, why_not);
}

} // namespace

TightResult tight_auto(const Model &m, const CertifyOptions &o, const Rational &rel,
                       std::uint64_t word_budget, TightChoice *chosen, CertifyMethodAsked asked) {
    TightChoice c = choose_tight_method(m, o, word_budget, asked);
    if (asked == CertifyMethodAsked::Auto && c.method == TightMethod::Exhaustive &&
        layers_before_words(m, o)) {
        try {
            TightResult t = tight_by_layers(m, o, rel);
            if (t.converged) {
                if (chosen)
                    *chosen = {TightMethod::Layers,
                               "features read n, so every word would be evaluated whole: the "
                               "layerwise bracket, which converged"};
                return t;
            }
        } catch (const Undecided &) { // neither layerwise argument applies: enumerate
        } catch (const LimitError &) {
            check_budget(o.limits); // the deadline ends the command; --max-queries: enumerate
        }
    }
    if (chosen) *chosen = c;
    // within the word budget, enumeration answers where the symbolic
    // bracket stops (a tie it cannot decide, a limit)
    if (asked == CertifyMethodAsked::Auto && c.method == TightMethod::Symbolic &&
        count_words(m.alphabet.size(), o.n) <= word_budget) {
        try {
            return tight_symbolic(m, o, rel);
        } catch (const Undecided &) {
        } catch (const LimitError &) {
            check_budget(o.limits);
        }
        if (chosen)
            *chosen = {TightMethod::Exhaustive, "the symbolic bracket stopped: enumeration"};
        return tight_exhaustive(m, o, rel);
    }
    switch (c.method) {
    case TightMethod::Exhaustive:
        return tight_exhaustive(m, o, rel);
    case TightMethod::Symbolic:
        return m.is_rational() ? tight_symbolic(m, o, rel) : tight_position_scores(m, o, rel);
    case TightMethod::Layers:
        return tight_by_layers(m, o, rel);
    }
    return tight_by_layers(m, o, rel);
}

} // namespace tempcert
