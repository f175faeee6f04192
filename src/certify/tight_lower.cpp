// Lower ends beyond enumeration (proofs/tight-bracket.md, "Beyond
// enumeration"): refuting words of the whole model, found without visiting
// every word up to n. Every end is a beta at which a named word, evaluated
// exactly as certify evaluates it, fails the criterion; nothing is
// extrapolated.
//
// Seed: every word up to the largest n0 <= n with at most kSeedWords words
// (short words are words up to n), searched word first (seed_end). Pumping:
// each maximal run of one symbol in the seed's word is lengthened, doubling
// the word's length up to min(n, --pump-length), and a longer word that
// refutes a larger beta raises the end (features that read n, or more keys
// at a head's least gap, make the need grow with the length). Single words
// are judged along the prefix path with the filter where prefix sharing
// applies (O(length^2) doubles, acting on certain refutations only); the
// end's word is then evaluated exactly at the end's beta, as certify does,
// without its traces (O(length) memory).
#include "tempcert/certify.hpp"
#include "tempcert/enumerate.hpp"
#include "tempcert/error.hpp"

#include <functional>

namespace tempcert {

namespace {

constexpr std::uint64_t kSeedWords = 4096;
// Enumerations after the first refuting word: each names a word refuting
// higher, or ends the seed's search (rarely more than a few).
constexpr int kSeedRounds = 6;
// One word's own bisection goes this much finer than rel (a few more
// single-word evaluations), so that the bracket closes to rel when the
// word's threshold is within rel of the upper end; the seed's enumeration
// probes kProbe finer than rel above the end.
constexpr long kFine = 64, kProbe = 8;
// Lengths before the last are bisected to this relative width only: the
// next length usually refutes more, and each evaluation costs O(length^2).
const Rational kCoarse(1, 1000);

// A refuted beta and the word that refutes it, before the exact check.
struct Found {
    Rational beta;
    Word word;
};

// refutes(word, beta): the prefix of word that certainly fails the
// criterion at beta, or nullopt (holds, or undecided).
using RefutesAt = std::function<std::optional<Word>(const Word &, const Rational &)>;

// The largest n0 <= n whose words 1..n0 number at most kSeedWords and the
// word limit (0: none).
std::size_t seed_length(std::size_t symbols, std::size_t n, std::uint64_t max_words) {
    const std::uint64_t most = std::min(kSeedWords, max_words);
    std::size_t n0 = 0;
    while (n0 < n && count_words(symbols, n0 + 1) <= most)
        ++n0;
    return n0;
}

// A pumped word is judged as certify judges a word where the filter does
// not decide it or does not apply, and the end's word always: about 2
// length^2 attention weights per head evaluated exactly (no longer kept:
// certify_word_streamed holds O(length)), with hard values whose
// denominators grow with the length where heads average. Bounded by
// --max-entries for one head, as the work that grows with the square of the
// length (eval bounds the weights its traces keep, summed over the heads;
// docs/reliability.md, Limits and what they bound): refused up front,
// before any word is pumped.
void check_pump_entries(std::size_t longest, const Limits &limits) {
    const double entries = 2.0 * static_cast<double>(longest) * static_cast<double>(longest);
    if (entries <= static_cast<double>(limits.max_entries)) return;
    throw LimitError(
        "the lower end's search would judge pumped words of length " + std::to_string(longest) +
        ", evaluating about " + std::to_string(static_cast<long long>(entries)) +
        " attention weights per head, more than the limit " + std::to_string(limits.max_entries) +
        " (--max-entries; or a smaller --pump-length)");
}

// w with its maximal run starting at `start` lengthened to make the word
// `length` long.
Word pumped(const Word &w, std::size_t start, std::size_t length) {
    Word out(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(start));
    out.insert(out.end(), length - w.size(), w[start]);
    out.insert(out.end(), w.begin() + static_cast<std::ptrdiff_t>(start), w.end());
    return out;
}

// Where each maximal run of one symbol starts.
std::vector<std::size_t> run_starts(const Word &w) {
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < w.size(); ++i)
        if (i == 0 || w[i] != w[i - 1]) starts.push_back(i);
    return starts;
}

// Raises `end` with one candidate word: kept only if it refutes above the
// current end by `gate` (0: the candidate is the end's own word, known to
// refute there), then bisected upward against hi with that word alone until
// the step is at most tol * top.
void raise_with(const Word &candidate, Found &end, const Rational &hi, const Rational &gate,
                const Rational &tol, const RefutesAt &refutes) {
    if (gate > 0) {
        Rational step = end.beta + gate;
        if (step >= hi) return;
        std::optional<Word> w = refutes(candidate, step);
        if (!w) return;
        end = {step, *w};
    }
    Rational top = hi;
    while (top - end.beta > tol * top) {
        Rational mid = (end.beta + top) / 2;
        if (std::optional<Word> w = refutes(candidate, mid))
            end = {mid, *w};
        else
            top = mid;
    }
}

// The seed's end: the largest refuted beta below hi over every word up to
// seed.n, to rel * hi. hi is certified for every word up to n, so for these.
// A refuting word is found by enumeration (halving from hi), then bisected
// upward on its own, one word per step; the enumeration is asked again just
// above (by rel * hi / kProbe), and either certifies there (the end is the
// seed's tight lower end to that) or names a word refuting higher, which is
// bisected in turn: one enumeration per round instead of one per step.
// `exact` receives the last end the enumeration itself refuted (its
// counterexample evaluated exactly).
std::optional<Found> seed_end(const Model &m, const CertifyOptions &seed, const Rational &hi,
                              const Rational &rel, const RefutesAt &refutes,
                              std::optional<WordLowerEnd> &exact) {
    auto run = [&](const Rational &beta) {
        CertifyResult c = certify_auto(m, BetaSpec::constant(beta), seed);
        if (c.verdict == Verdict::Refuted)
            exact = WordLowerEnd{beta, *c.counterexample, seed.n, seed.n};
        return c.verdict;
    };
    Rational x = hi;
    for (int i = 0; i < 60 && !exact; ++i) {
        x /= 2;
        if (run(x) == Verdict::Undecided) return std::nullopt;
    }
    if (!exact) return std::nullopt;
    Found end{x, exact->witness.word};
    for (int round = 0; round < kSeedRounds; ++round) {
        raise_with(end.word, end, hi, Rational(0), rel / kFine, refutes);
        Rational probe = end.beta + rel * hi / kProbe;
        if (probe >= hi || run(probe) != Verdict::Refuted) break;
        end = {probe, exact->witness.word};
    }
    return end;
}

} // namespace

std::optional<WordLowerEnd> lower_end_by_words(const Model &m, const CertifyOptions &o,
                                               const Rational &hi, const Rational &rel) {
    std::size_t n0 = seed_length(m.alphabet.size(), o.n, o.limits.max_words);
    if (n0 == 0) return std::nullopt;
    const std::size_t cap = std::min(o.n, std::max(o.pump_length, n0));
    check_pump_entries(cap, o.limits);
    CertifyOptions seed = o;
    seed.n = n0;
    CertifyOptions start_precision = o;
    start_precision.precision.cap = o.precision.start;
    // one word along the prefix path's filter where it applies (a failing
    // prefix is a refuting word of length <= n as well), else, or where the
    // filter is undecided on a word no longer than n0, the plain path at the
    // starting precision
    auto refutes = [&](const Word &w, const Rational &beta) -> std::optional<Word> {
        BetaSpec b = BetaSpec::constant(beta);
        std::size_t failing = 0;
        std::optional<Tri> t = filter_prefixes_of(m, w, b, o, failing);
        if (t == Tri::False)
            return Word(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(failing));
        // what the filter cannot decide, the plain path does for words as
        // short as the seed's (long ones cost O(length^2) in MPFI)
        if (t == Tri::True || (t && w.size() > n0)) return std::nullopt;
        Violation v;
        Prec used = 0;
        if (certify_word_streamed(m, w, b, start_precision, v, used) != Tri::False)
            return std::nullopt;
        return v.word;
    };
    std::optional<WordLowerEnd> exact;
    std::optional<Found> found = seed_end(m, seed, hi, rel, refutes, exact);
    if (!found) return exact;
    Found end = *found;
    const Word seed_word = end.word;
    std::size_t longest = n0;
    const Rational gate = rel * hi / kProbe; // the least raise worth a bisection
    for (std::size_t length = 2 * seed_word.size(); length / 2 < cap && hi - end.beta > rel * hi;
         length *= 2) {
        std::size_t len = std::min(length, cap);
        const Rational tol = len == cap ? rel / kFine : std::max(rel, kCoarse);
        for (std::size_t start : run_starts(seed_word))
            raise_with(pumped(seed_word, start, len), end, hi, gate, tol, refutes);
        longest = len;
    }
    // the end's word, evaluated exactly as certify evaluates a word (the
    // filter's refutation is certain, but the witness reported is this one),
    // without its traces: O(length) memory where they hold 2 length^2
    // weights per head
    Violation v;
    Prec used = 0;
    if (certify_word_streamed(m, end.word, BetaSpec::constant(end.beta), o, v, used) == Tri::False)
        return WordLowerEnd{end.beta, v, n0, longest};
    return exact; // not decided at the precision cap: the enumeration's own end
}

} // namespace tempcert
