// The horizon search; see tempcert/horizon.hpp.
#include "tempcert/horizon.hpp"
#include "tempcert/enumerate.hpp"
#include "tempcert/layerwise.hpp"

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

void beyond_enumeration(const Model &m, const BetaSpec &beta, const CertifyOptions &o,
                        HorizonResult &h) {
    std::string budget = "words longer than " + std::to_string(h.certified_up_to) +
                         " exceed --max-words (" + std::to_string(o.limits.max_words) + ")";
    LayerwiseResult lw = certify_layerwise(m, h.max_n, o.eps, o.limits, h.max_n <= 64);
    if (!lw.applies) {
        h.undecided = budget + ", and the layerwise method does not apply: " + lw.failure;
        return;
    }
    std::size_t best = layerwise_bisect(lw, beta, 0, h.max_n, o);
    if (best > h.certified_up_to) {
        h.certified_up_to = best;
        h.method = h.method.empty() ? "layerwise" : h.method + "+layerwise";
    }
    if (h.certified_up_to < h.max_n)
        h.undecided = budget + ", and the layerwise argument stops at n = " +
                      std::to_string(best) + ": " +
                      layerwise_verdict(lw, beta, best + 1, o.criterion, o.precision.start)
                          .shortfall;
}

} // namespace

HorizonResult horizon(const Model &m, const BetaSpec &beta, const CertifyOptions &o) {
    HorizonResult h;
    h.max_n = o.n;
    std::size_t e = enumerable_length(m.alphabet.size(), o.n, o.limits.max_words);
    if (e > 0) {
        CertifyOptions oe = o;
        oe.n = e;
        CertifyResult r = certify_auto(m, beta, oe);
        h.words = r.words;
        h.method = "exhaustive";
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
    if (h.certified_up_to < h.max_n) beyond_enumeration(m, beta, o, h);
    return h;
}

} // namespace tempcert
