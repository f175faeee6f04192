// The horizon search; see tempcert/horizon.hpp.
#include "tempcert/horizon.hpp"
#include "tempcert/enumerate.hpp"
#include "tempcert/layers_method.hpp"
#include "tempcert/layerwise.hpp"
#include "tempcert/perturbation.hpp"
#include "tempcert/symbolic.hpp"

namespace tempcert {

namespace {

// The longest length whose words (all lengths 1..n) fit the word budget.
std::size_t enumerable_length(std::size_t k, std::size_t n, std::uint64_t max_words) {
    std::size_t e = 0;
    while (e < n && count_words(k, e + 1) <= max_words)
        ++e;
    return e;
}

// The largest n in [lo, hi] the layerwise argument certifies, given that it
// certifies lo (or lo = 0); monotone in n.
std::size_t layerwise_bisect(const LayerwiseResult &lw, const BetaSpec &beta, std::size_t lo,
                             std::size_t hi, const CertifyOptions &o) {
    while (lo < hi) {
        std::size_t mid = lo + (hi - lo + 1) / 2;
        if (layerwise_verdict(lw, beta, mid, o.criterion, o.precision.start).verdict ==
            Verdict::Certified)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

// tv with every head in layer 1 (proofs/profile-bound.md (3)): the words
// up to n meet tv at beta iff beta >= the profile bound beta*(n), which grows
// with n; the symbolic analysis brackets beta*(n) without enumeration. A
// word attaining beta*(n) at the first n where it exceeds beta is judged by
// certify_word for the counterexample. False when the method does not apply.
bool beyond_by_profile(const Model &m, const BetaSpec &beta, const CertifyOptions &o,
                       HorizonResult &h) {
    std::string why;
    if (o.criterion != Criterion::Tv || !symbolic_applies(m, why) || beta.uses_n() ||
        beta.per_layer())
        return false;
    SymbolicOptions so;
    so.eps = o.eps;
    so.precision = o.precision;
    so.limits = o.limits;
    bool ties = false; // unique-hard ties between values: left to enumeration
    auto holds = [&](std::size_t n, SymbolicReport &r) {
        r = analyse_symbolic(m, n, so);
        for (const auto &hg : r.gaps.heads)
            ties = ties || hg.tie.has_value();
        if (ties) return Tri::Unknown;
        // met when beta >= the bound's upper end, refuted when beta < its
        // lower end, each shown by an enclosure of beta (raised up to the
        // cap); anything else is undecided (docs/reliability.md, Undecided comparisons: an Unknown
        // once counted as met)
        const Prec start = o.precision.start, cap = o.precision.cap;
        if (beta.at_least(0, 1, r.profile.bound.hi, start, cap) == Tri::True) return Tri::True;
        if (beta.at_least(0, 1, r.profile.bound.lo, start, cap) == Tri::False) return Tri::False;
        return Tri::Unknown;
    };
    // certified at lo (0: nothing), not at hi; at_hi is hi's analysis, kept
    // for the counterexample so it is not computed again
    std::size_t lo = 0, hi = h.max_n;
    SymbolicReport at_hi, r;
    Tri verdict_hi = holds(hi, at_hi);
    if (verdict_hi == Tri::True && !ties) lo = hi;
    while (hi - lo > 1 && !ties) {
        std::size_t mid = lo + (hi - lo) / 2;
        Tri t = holds(mid, r);
        if (t == Tri::True) {
            lo = mid;
        } else {
            hi = mid;
            verdict_hi = t;
            at_hi = std::move(r);
        }
    }
    if (ties) return false;
    h.methods = {HorizonMethod::Symbolic};
    h.certified_up_to = lo;
    if (lo == h.max_n) return true;
    const HeadProfile *top = at_hi.profile.attaining();
    if (verdict_hi == Tri::False && top) {
        Violation v;
        Prec used = 0;
        if (certify_word(m, top->witness->word, beta, o, v, used) == Tri::False) {
            h.first_failure = v;
            return true;
        }
    }
    h.undecided = "at n = " + std::to_string(hi) + " the profile bound [" +
                  decimal_significant(at_hi.profile.bound.lo, 15, false) + ", " +
                  decimal_significant(at_hi.profile.bound.hi, 15, true) +
                  "] cannot be told apart from beta";
    return true;
}

// Whether the perturbation argument at length n certifies beta (every
// word of length 1..n: proofs/perturbation.md); its failure when it does
// not apply at n.
// `at_max`, the argument the method chooser analysed, serves its own n.
bool perturbation_certifies(const Model &m, const BetaSpec &beta, const CertifyOptions &o,
                            std::size_t n, std::string &failure,
                            const PerturbationArgument *at_max) {
    PerturbationArgument arg =
        at_max && at_max->n() == n ? *at_max : PerturbationArgument(m, n, o.limits);
    if (!arg.applies()) {
        failure = arg.failure();
        return false;
    }
    PerturbationRun run = arg.run(beta, o.eps, o.criterion, o.precision.start, o.limits);
    if (run.verdict != Verdict::Certified) failure = run.shortfall;
    return run.verdict == Verdict::Certified;
}

// When the layerwise method does not apply, the perturbation argument, as
// `tight` uses it: the largest n in (certified_up_to,
// N] it certifies, by bisection; each n reported was itself certified.
void beyond_by_perturbation(const Model &m, const BetaSpec &beta, const CertifyOptions &o,
                            HorizonResult &h, const std::string &why,
                            const PerturbationArgument *at_max) {
    std::size_t lo = h.certified_up_to, hi = h.max_n;
    std::string failure, at_hi;
    if (perturbation_certifies(m, beta, o, hi, failure, at_max)) {
        lo = hi;
    } else {
        at_hi = failure;
        while (hi - lo > 1) {
            std::size_t mid = lo + (hi - lo) / 2;
            if (perturbation_certifies(m, beta, o, mid, failure, nullptr)) {
                lo = mid;
            } else {
                hi = mid;
                at_hi = failure;
            }
        }
    }
    if (lo > h.certified_up_to) {
        h.certified_up_to = lo;
        h.methods.push_back(HorizonMethod::Perturbation);
    }
    if (h.certified_up_to < h.max_n)
        h.undecided = why + ", and the perturbation argument stops at n = " +
                      std::to_string(h.certified_up_to) + ": " + at_hi;
}

// `at_max`: the layerwise analysis at N, made before enumerating.
void beyond_enumeration(const Model &m, const BetaSpec &beta, const CertifyOptions &o,
                        HorizonResult &h, LayerwiseResult at_max) {
    std::string budget = "words longer than " + std::to_string(h.certified_up_to) +
                         " exceed --max-words (" + std::to_string(o.limits.max_words) + ")";
    LayersChoice choice = choose_layers_method(std::move(at_max), m, h.max_n, o.limits);
    const LayerwiseResult &lw = choice.layerwise;
    if (choice.method != LayersMethod::ExactRounding) {
        beyond_by_perturbation(
            m, beta, o, h, budget + ", the layerwise method does not apply (" + lw.failure + ")",
            choice.perturbation ? &*choice.perturbation : nullptr);
        return;
    }
    std::size_t best = layerwise_bisect(lw, beta, 0, h.max_n, o);
    if (best > h.certified_up_to) {
        h.certified_up_to = best;
        h.methods.push_back(HorizonMethod::Layerwise);
    }
    if (h.certified_up_to < h.max_n)
        h.undecided =
            budget + ", and the layerwise argument stops at n = " + std::to_string(best) + ": " +
            layerwise_verdict(lw, beta, best + 1, o.criterion, o.precision.start).shortfall;
}

} // namespace

const char *to_string(HorizonMethod m) {
    switch (m) {
    case HorizonMethod::Exhaustive:
        return "exhaustive";
    case HorizonMethod::Symbolic:
        return "symbolic";
    case HorizonMethod::Layerwise:
        return "layerwise";
    case HorizonMethod::Perturbation:
        return "perturbation";
    }
    return "?";
}

std::string HorizonResult::methods_text() const {
    std::string s;
    for (HorizonMethod m : methods)
        s += (s.empty() ? "" : "+") + std::string(to_string(m));
    return s;
}

HorizonResult horizon(const Model &m, const BetaSpec &beta, const CertifyOptions &o) {
    HorizonResult h;
    h.max_n = o.n;
    if (beyond_by_profile(m, beta, o, h)) return h; // tv, heads in layer 1: no enumeration
    std::size_t e = enumerable_length(m.alphabet.size(), o.n, o.limits.max_words);
    LayerwiseResult lw; // at N, when enumeration cannot reach it
    if (e < o.n) {      // the layerwise argument first
        lw = layers_analysis(m, o.n, o.eps, o.limits, LayersQuestion::GivenBeta);
        if (lw.applies &&
            layerwise_verdict(lw, beta, o.n, o.criterion, o.precision.start).verdict ==
                Verdict::Certified) {
            h.certified_up_to = o.n;
            h.methods = {HorizonMethod::Layerwise};
            return h;
        }
    }
    if (e > 0) {
        CertifyOptions oe = o;
        oe.n = e;
        CertifyResult r = certify_auto(m, beta, oe);
        h.words = r.words;
        h.methods = {HorizonMethod::Exhaustive};
        if (r.verdict == Verdict::Certified) {
            h.certified_up_to = e;
        } else {
            std::size_t fail = r.counterexample ? r.counterexample->word.size() : e + 1;
            std::size_t unknown = r.undecided ? r.undecided->word.size() : e + 1;
            h.certified_up_to = std::min(fail, unknown) - 1;
            if (fail <= unknown && r.counterexample) {
                h.first_failure = r.counterexample;
            } else {
                h.undecided = "undecided on a word of length " + std::to_string(unknown) + ": " +
                              r.undecided->detail;
            }
            return h;
        }
    }
    // reached only when e < N (enumeration certified 1..e), so lw is the analysis at N
    if (h.certified_up_to < h.max_n) beyond_enumeration(m, beta, o, h, std::move(lw));
    return h;
}

} // namespace tempcert
