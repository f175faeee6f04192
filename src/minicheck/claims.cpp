// Re-deriving an exhaustive certificate's claims; see claims.hpp and
// docs/minicheck.md. The words are evaluated twice, by one loop each: the
// hard model for the gaps (exact), then the soft model at beta for the
// verdict, at rising precision per word.
#include "claims.hpp"
#include "claim_checks.hpp"

#include <algorithm>
#include <mpfr.h>

#include <atomic>
#include <exception>
#include <thread>

namespace minicheck {
namespace {
// Words are written with their symbols run together when every symbol is
// one character, and separated by commas otherwise.
bool compact(const Model &m) {
    return std::all_of(m.alphabet.begin(), m.alphabet.end(),
                       [](const std::string &s) { return s.size() == 1; });
}

std::string word_text(const Model &m, const Word &w) {
    const char *separator = compact(m) ? "" : ",";
    std::string out;
    for (std::size_t i = 0; i < w.size(); ++i)
        out += (i == 0 ? "" : separator) + m.alphabet[w[i]];
    return out;
}

// Every word of length 1..n: by length, then symbol by symbol (the order
// in which certificates name the first word with a property).
template <class Visit> void for_each_word(std::size_t k, std::size_t n, Visit &&visit) {
    for (std::size_t len = 1; len <= n; ++len) {
        Word w(len, 0);
        for (;;) {
            visit(w);
            std::size_t i = len;
            while (i > 0 && w[i - 1] + 1 == k)
                w[--i] = 0;
            if (i == 0) break;
            ++w[i - 1];
        }
    }
}

std::uint64_t word_count(std::size_t k, std::uint64_t n, std::uint64_t cap) {
    std::uint64_t total = 0, power = 1;
    for (std::uint64_t len = 1; len <= n; ++len) {
        if (power > (cap + 1) / k) return cap + 1;
        power *= k;
        total += power;
        if (total > cap) return cap + 1;
    }
    return total;
}

// ---- gaps ------------------------------------------------------------------------

struct Place { // a word and one of its queries
    Word word;
    std::size_t query = 0;
    std::vector<std::size_t> argmax;
    std::optional<std::size_t> runner_up;
};

// Words in the order certificates name them: by length, then symbol by symbol.
bool word_before(const Word &a, const Word &b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
}

struct HeadFacts {
    std::size_t N = 0;
    std::optional<SqrtSum> min_gap;
    std::optional<Place> witness, tie;

    // Whether a gap found on w replaces the witness: the least gap, then
    // the first word; and whether a tie on w is the first.
    bool takes_gap(const SqrtSum &gap, const Word &w) const {
        return !min_gap || gap < *min_gap || (gap == *min_gap && word_before(w, witness->word));
    }
    bool takes_tie(const Word &w) const { return !tie || word_before(w, tie->word); }
};

// Folds w's queries at positions first..|w| into the facts: the least gap
// and the first word (then query) attaining it, the first word with a tie.
void fold_word(const Model &m, const Word &w, const HardWord &hw, std::size_t first,
               std::vector<HeadFacts> &facts) {
    std::size_t idx = 0;
    for (std::size_t l = 0; l < m.layers.size(); ++l)
        for (std::size_t h = 0; h < m.layers[l].heads.size(); ++h, ++idx) {
            HeadFacts &f = facts[idx];
            const auto &qs = hw.queries[l][h];
            for (std::size_t i = first; i < qs.size() && i <= w.size(); ++i) {
                const auto &q = qs[i];
                if (!q) continue;
                f.N = std::max(f.N, q->allowed.size());
                if (f.takes_tie(w) && m.layers[l].heads[h].kind != Kind::Average &&
                    q->argmax.size() > 1 && !q->shares_value)
                    f.tie = Place{w, i, q->argmax, q->runner_up};
                if (q->gap && f.takes_gap(*q->gap, w)) {
                    f.min_gap = q->gap;
                    f.witness = Place{w, i, q->argmax, q->runner_up};
                }
            }
        }
}

void compare_place(const Json &v, const std::string &p, const Model &m, std::size_t layer,
                   std::size_t head, const Place &want) {
    same(!v.is_null(), p, "none", "the word " + word_text(m, want.word));
    only_keys(v, p, {"word", "layer", "head", "query", "argmax", "runner_up"});
    same_at(v, p, "word", word_text(m, want.word));
    same_count(v, p, "layer", layer);
    same_count(v, p, "head", head);
    same_count(v, p, "query", want.query);
    same_at(v, p, "argmax", want.argmax);
    same_at(v, p, "runner_up", want.runner_up ? Json(*want.runner_up) : Json(nullptr));
}

// The binding head: the largest bound, the first of equal ones (or of ones
// the cap cannot tell apart).
std::optional<LemmaGt> largest(const std::vector<LemmaGt> &bounds, const Limits &limits) {
    std::optional<LemmaGt> best;
    for (const auto &b : bounds) {
        if (!b.needed()) continue;
        if (!best) {
            best = b;
            continue;
        }
        for (long prec = kPrecStart;; prec = std::min(2 * prec, limits.prec_cap)) {
            Iv x = best->enclose(prec), y = b.enclose(prec);
            if (x.below(y)) best = b;
            if (x.below(y) || y.below(x) || prec >= limits.prec_cap) break;
        }
    }
    return best;
}

// One head's claims (layer, head, kind, mask, gap, N, witness, tie, Lemma GT's
// bounds) against its facts; returns its Lemma GT bound.
LemmaGt compare_head(const Json &v, const std::string &p, const Model &m, std::size_t l,
                     std::size_t h, const HeadFacts &f, const Q &eps, const Limits &limits) {
    only_keys(v, p,
              {"layer", "head", "kind", "mask", "min_gap", "min_gap_enclosure", "N", "witness",
               "ties", "beta_gap_up", "beta_gap_decimal_up"});
    same_count(v, p, "layer", l + 1);
    same_count(v, p, "head", h + 1);
    const Head &head = m.layers[l].heads[h];
    same_at(v, p, "kind", head.kind_text);
    same_at(v, p, "mask", head.mask_text);
    compare_gap(v, p, f.min_gap);
    same_count(v, p, "N", f.N);
    if (f.witness)
        compare_place(at(v, p, "witness"), p + ".witness", m, l + 1, h + 1, *f.witness);
    else
        same(at(v, p, "witness").is_null(), p + ".witness", "a witness", "null");
    if (f.tie)
        compare_place(at(v, p, "ties"), p + ".ties", m, l + 1, h + 1, *f.tie);
    else
        same(at(v, p, "ties").is_null(), p + ".ties", "a tie", "null");
    LemmaGt gt{f.N, f.min_gap, eps};
    rounded_up(v, p, "beta_gap_up", gt, limits.prec_cap);
    rounded_up(v, p, "beta_gap_decimal_up", gt, limits.prec_cap);
    return gt;
}

// The gaps' claims against the scan's facts; returns each head's Lemma GT
// bound, in order.
std::vector<LemmaGt> check_gaps(const Json &cert, const Model &m,
                                const std::vector<HeadFacts> &facts, const Q &eps,
                                const Limits &limits) {
    const Json &gaps = at(cert, "$", "gaps");
    only_keys(gaps, "$.gaps", {"min_gap", "min_gap_enclosure", "heads"});
    const Json &heads = at(gaps, "$.gaps", "heads");
    require_array(heads, "$.gaps.heads");
    same(heads.size() == facts.size(), "$.gaps.heads", std::to_string(heads.size()) + " heads",
         std::to_string(facts.size()));
    std::vector<LemmaGt> bounds;
    std::optional<SqrtSum> least;
    std::size_t idx = 0;
    for (std::size_t l = 0; l < m.layers.size(); ++l)
        for (std::size_t h = 0; h < m.layers[l].heads.size(); ++h, ++idx) {
            const HeadFacts &f = facts[idx];
            bounds.push_back(compare_head(heads[idx], "$.gaps.heads[" + std::to_string(idx) + "]",
                                          m, l, h, f, eps, limits));
            if (f.min_gap && (!least || *f.min_gap < *least)) least = f.min_gap;
        }
    compare_gap(gaps, "$.gaps", least);
    return bounds;
}

void check_beta_fields(const Json &cert, const std::vector<LemmaGt> &bounds, const Limits &limits) {
    const Json &beta = at(cert, "$", "beta");
    std::string source = text_at(beta, "$.beta", "source");
    if (source == "user") {
        only_keys(beta, "$.beta", {"spec", "source"});
        return;
    }
    same(source == "beta_gap", "$.beta.source", source, "\"user\" or \"beta_gap\"");
    only_keys(beta, "$.beta", {"spec", "source", "exact", "decimal_up", "tau_decimal_down"});
    std::optional<LemmaGt> top = largest(bounds, limits);
    if (!top) { // no head needs a beta: the certifier states beta = 1
        same_at(beta, "$.beta", "spec", "1");
        same_at(beta, "$.beta", "exact", "0");
        same_at(beta, "$.beta", "decimal_up", "0");
        same_at(beta, "$.beta", "tau_decimal_down", "inf");
        return;
    }
    same_at(beta, "$.beta", "exact", top->text());
    rounded_up(beta, "$.beta", "spec", *top, limits.prec_cap);
    rounded_up(beta, "$.beta", "decimal_up", *top, limits.prec_cap);
    reciprocal_rounded_down(beta, "$.beta", "tau_decimal_down", *top, limits.prec_cap);
}

// ---- the verdict -------------------------------------------------------------------

// Each layer's beta at length n, enclosed; nullopt if one is not shown positive.
std::optional<std::vector<Iv>> betas_at(const std::vector<Expr> &spec, const Model &m,
                                        std::size_t n, long prec) {
    std::vector<Iv> out;
    for (std::size_t l = 0; l < m.layers.size(); ++l) {
        const Expr &e = spec[spec.size() == 1 ? 0 : l];
        Q len(static_cast<unsigned long>(n));
        if (e.rational() && e.exact(0, len, "$.beta.spec") <= 0)
            rejected("$.beta.spec", "beta is not positive at n = " + std::to_string(n));
        out.push_back(e.enclose(len, prec, "$.beta.spec"));
        if (!out.back().above(0)) return std::nullopt;
    }
    return out;
}

// What a certified verdict asserts of every word.
struct VerdictClaim {
    std::vector<Expr> spec;
    Q eps;
    std::string criterion;
};

// Rejects unless the criterion holds on the whole word at rising precision.
void judge_word(const Model &m, const Word &w, const HardWord &hard, const VerdictClaim &v,
                const Limits &limits) {
    Judgement j;
    for (long prec = kPrecStart;; prec = std::min(2 * prec, limits.prec_cap)) {
        auto betas = betas_at(v.spec, m, w.size(), prec);
        j = betas ? judge_soft(m, w, hard, *betas, v.eps, v.criterion, prec)
                  : Judgement{Tri::Unknown, "beta is not shown positive"};
        if (j.verdict != Tri::Unknown || prec >= limits.prec_cap) break;
    }
    if (j.verdict != Tri::True)
        rejected("$.verdict",
                 "claims certified, but on word " + word_text(m, w) + ", " + j.where +
                     (j.verdict == Tri::False ? " violates eps " : " cannot be shown within eps ") +
                     to_text(v.eps));
}

// One scan of every word of length 1..n: each head's facts and, with a
// verdict to judge, the refusal of the first word (in the order
// certificates name words) not meeting it, thrown after the gaps' claims
// are compared.
struct Scan {
    std::vector<HeadFacts> facts;
    std::uint64_t words = 0;
    std::optional<Word> refused; // the word of `refusal`
    std::exception_ptr refusal;

    // Whether w is to be judged: no word before it is refused yet.
    bool judges(const VerdictClaim *verdict, const Word &w) const {
        return verdict && (!refused || word_before(w, *refused));
    }
    void judge(const Model &m, const Word &w, const HardWord &hard, const VerdictClaim &v,
               const Limits &limits) {
        try {
            judge_word(m, w, hard, v, limits);
        } catch (const Failure &) {
            refused = w;
            refusal = std::current_exception();
        }
    }
};

// Every word as a whole (masks that look forward, features that read n).
void scan_whole(const Model &m, std::size_t n, const VerdictClaim *verdict, const Limits &limits,
                Scan &out) {
    for_each_word(m.alphabet.size(), n, [&](const Word &w) {
        HardWord hard = evaluate_hard(m, w);
        fold_word(m, w, hard, 0, out.facts);
        ++out.words;
        if (out.judges(verdict, w)) out.judge(m, w, hard, *verdict, limits);
    });
}

// The betas of a walk: free of n and shown positive at the first precision.
std::optional<std::vector<Iv>> walk_betas(const Model &m, const VerdictClaim *verdict) {
    if (!verdict) return std::nullopt;
    for (const Expr &e : verdict->spec)
        if (e.uses(Expr::Op::N)) return std::nullopt;
    try {
        return betas_at(verdict->spec, m, 1, kPrecStart);
    } catch (const Failure &) { // judge_word meets it again, word by word
        return std::nullopt;
    }
}

// The prefix walk (looks_back_only) over the words that start with the
// symbol c: each word's last position only, the whole word at rising
// precision where one precision does not decide it.
void walk_from(const Model &m, std::size_t c, std::size_t n, const VerdictClaim *verdict,
               const Limits &limits, Scan &out) {
    PrefixWalk walk(m, walk_betas(m, verdict), kPrecStart);
    Word w{c};
    auto visit = [&](auto &&self) -> void {
        walk.extend(w);
        fold_word(m, w, walk.hard(), w.size() == 1 ? 0 : w.size(), out.facts);
        ++out.words;
        if (out.judges(verdict, w) &&
            walk.judge_last(w, verdict->eps, verdict->criterion).verdict != Tri::True)
            out.judge(m, w, evaluate_hard(m, w), *verdict, limits);
        if (w.size() == n) return;
        for (std::size_t d = 0; d < m.alphabet.size(); ++d) {
            w.push_back(d);
            self(self);
            w.pop_back();
        }
    };
    visit(visit);
}

// Folds another part's scan into `out`, as one scan of both would have.
void merge(const Scan &part, Scan &out) {
    out.words += part.words;
    for (std::size_t i = 0; i < out.facts.size(); ++i) {
        const HeadFacts &p = part.facts[i];
        HeadFacts &f = out.facts[i];
        f.N = std::max(f.N, p.N);
        if (p.tie && f.takes_tie(p.tie->word)) f.tie = p.tie;
        if (p.min_gap && f.takes_gap(*p.min_gap, p.witness->word)) {
            f.min_gap = p.min_gap;
            f.witness = p.witness;
        }
    }
    if (part.refused && (!out.refused || word_before(*part.refused, *out.refused))) {
        out.refused = part.refused;
        out.refusal = part.refusal;
    }
}

// The walk on up to `threads` threads, one task per first symbol, taken
// by whichever thread is free; the parts merged in any order give the same
// scan.
void scan_walk(const Model &m, std::size_t n, const VerdictClaim *verdict, const Limits &limits,
               unsigned threads, Scan &out) {
    const std::size_t k = m.alphabet.size();
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, k));
    std::vector<Scan> parts(threads, Scan{std::vector<HeadFacts>(out.facts.size()), 0, {}, {}});
    std::vector<std::exception_ptr> errors(threads);
    std::atomic<std::size_t> next{0};
    auto work = [&](unsigned t) {
        try {
            for (std::size_t c; (c = next++) < k;)
                walk_from(m, c, n, verdict, limits, parts[t]);
        } catch (...) {
            errors[t] = std::current_exception();
            next = k; // the others stop at their next task
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back([&work, t] {
            work(t);
            mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); // the thread's constants, not leaked
        });
    work(0);
    for (auto &th : pool)
        th.join();
    for (unsigned t = 0; t < threads; ++t) {
        if (errors[t]) std::rethrow_exception(errors[t]);
        merge(parts[t], out);
    }
}

Scan scan_words(const Model &m, std::size_t n, const VerdictClaim *verdict, const Limits &limits) {
    Scan out;
    for (const auto &layer : m.layers)
        out.facts.resize(out.facts.size() + layer.heads.size());
    if (looks_back_only(m))
        scan_walk(m, n, verdict, limits, limits.threads, out);
    else
        scan_whole(m, n, verdict, limits, out);
    return out;
}

// ---- a refuted certificate: its counterexample, replayed ----------------------------

// The word as certificates write it (word_text's spelling, nothing else).
Word read_word(const Model &m, const std::string &text, std::size_t n, const std::string &path) {
    Word w;
    const bool one_char = compact(m);
    for (std::size_t start = 0; start < text.size();) {
        std::size_t end = one_char ? start + 1 : std::min(text.find(',', start), text.size());
        auto it = std::find(m.alphabet.begin(), m.alphabet.end(), text.substr(start, end - start));
        if (it == m.alphabet.end()) rejected(path, "not a word over the alphabet");
        w.push_back(static_cast<std::size_t>(it - m.alphabet.begin()));
        start = one_char ? end : end + 1;
    }
    if (w.empty() || word_text(m, w) != text) rejected(path, "not a word over the alphabet");
    if (w.size() > n) rejected(path, "longer than n");
    return w;
}

// Where a counterexample says the criterion fails, and the quantity there.
struct Violation {
    std::optional<std::size_t> layer, head, query, position; // tv: the first three
    XVec hard;                                               // read-outs: H's values there
};

Violation read_place(const Json &cx, const std::string &p, const Model &m, const Word &w,
                     const HardWord &hard, const std::string &criterion) {
    Violation v;
    same_at(cx, p, "quantity", criterion);
    if (criterion == "tv") {
        only_keys(cx, p, {"word", "quantity", "layer", "head", "query", "value"});
        v.layer = count_at(cx, p, "layer");
        v.head = count_at(cx, p, "head");
        v.query = count_at(cx, p, "query");
        if (*v.layer < 1 || *v.layer > m.layers.size()) rejected(p + ".layer", "no such layer");
        if (*v.head < 1 || *v.head > m.layers[*v.layer - 1].heads.size())
            rejected(p + ".head", "no such head");
        const auto &qs = hard.queries[*v.layer - 1][*v.head - 1];
        if (*v.query >= qs.size() || !qs[*v.query])
            rejected(p + ".query", "no query attends at that position on this word");
        return v;
    }
    only_keys(cx, p, {"word", "quantity", "position", "hard_y", "value"});
    v.position = count_at(cx, p, "position");
    std::vector<std::size_t> ps = readout_positions(m, w.size());
    auto k = std::find(ps.begin(), ps.end(), *v.position);
    if (k == ps.end()) rejected(p + ".position", "no read-out at that position on this word");
    v.hard = hard.readouts[static_cast<std::size_t>(k - ps.begin())];
    SqrtSum y = *std::max_element(v.hard.begin(), v.hard.end()); // categorical: the largest
    same(exact_form_at(cx, p, "hard_y") == y, p + ".hard_y", text_at(cx, p, "hard_y"), y.text());
    return v;
}

// The violated quantity's enclosure: TV, |y_S - y_H| (the largest over the
// classes), or y_S (categorical: the largest class value).
Iv quantity(const Violation &v, const std::string &criterion, const SoftWord &soft, std::size_t k,
            long prec) {
    if (criterion == "tv") return *soft.tv[*v.layer - 1][*v.head - 1][*v.query];
    const std::vector<Iv> &ys = soft.readouts[k];
    auto one = [&](std::size_t c) {
        return criterion == "output" ? abs(ys[c] - v.hard[c].enclose(prec)) : ys[c];
    };
    Iv out = one(0);
    for (std::size_t c = 1; c < ys.size(); ++c)
        out = max(out, one(c));
    return out;
}

// The claimed enclosure must show the violation by itself (a claim widened
// until it shows nothing asserts nothing): above eps, or a soft read-out
// wholly on the other side of 0 from the hard one.
void check_claim_shows_violation(const Model &m, const Violation &v, const std::string &criterion,
                                 const std::pair<Q, Q> &claim, const Q &eps, const std::string &p) {
    if (criterion != "decision" && claim.first <= eps)
        rejected(p + ".value", "its lower end is not above eps: it shows no violation");
    if (criterion == "decision" && !m.categorical &&
        ((v.hard[0].sign() > 0 && claim.second > 0) || (v.hard[0].sign() < 0 && claim.first <= 0)))
        rejected(p + ".value", "claims a soft read-out on the hard one's side: no violation shown");
}

// Whether the quantity lies in the claimed [lo, hi]: True when the whole
// enclosure does, False when none of it does, Unknown otherwise.
Tri claim_contains(const std::pair<Q, Q> &claim, const Iv &value) {
    if (value.above(claim.second) || value.below(claim.first)) return Tri::False;
    return value.at_least(claim.first) && value.at_most(claim.second) ? Tri::True : Tri::Unknown;
}

void check_refuted(const Json &cert, const Model &m, std::size_t n, const Q &eps,
                   const std::string &criterion, const Limits &limits) {
    if (cert.contains("words_checked"))
        rejected("$.words_checked",
                 "not a claim of a refuted certificate (it depends on the search)");
    const std::string p = "$.counterexample";
    const Json &cx = at(cert, "$", "counterexample");
    if (!cx.is_object()) rejected(p, "missing in a refuted certificate");
    Word w = read_word(m, text_at(cx, p, "word"), n, p + ".word");
    HardWord hard = evaluate_hard(m, w);
    Violation v = read_place(cx, p, m, w, hard, criterion);
    std::pair<Q, Q> claim = enclosure_at(cx, p, "value");
    check_claim_shows_violation(m, v, criterion, claim, eps, p);
    std::vector<Expr> spec = read_betas(cert, m);
    std::vector<std::size_t> ps = readout_positions(m, w.size());
    std::size_t k =
        v.position
            ? static_cast<std::size_t>(std::find(ps.begin(), ps.end(), *v.position) - ps.begin())
            : 0;
    for (long prec = kPrecStart;; prec = std::min(2 * prec, limits.prec_cap)) {
        auto betas = betas_at(spec, m, w.size(), prec);
        Tri holds = Tri::Unknown, contained = Tri::Unknown;
        std::string value_text;
        if (betas) {
            SoftWord soft = evaluate_soft(m, w, hard, *betas, prec, criterion == "tv");
            Iv value = quantity(v, criterion, soft, k, prec);
            value_text = value.text();
            contained = claim_contains(claim, value);
            holds = criterion == "tv"
                        ? within(value, eps)
                        : judge_readout(m, v.hard, soft.readouts[k], eps, criterion, prec);
        }
        if (contained == Tri::False)
            rejected(p + ".value", "claims [" + to_text(claim.first) + ", " +
                                       to_text(claim.second) + "], but the value lies in " +
                                       value_text);
        if (holds == Tri::True)
            rejected(p, "the word " + word_text(m, w) + " does not violate the criterion there");
        if (holds == Tri::False && contained == Tri::True) return; // the refutation holds
        // at the cap a claim that still meets the enclosure stands: closer to
        // the quantity than 2^-cap relative, a false one cannot be told apart
        // (and a point claim, where certify's soft value is exact, never is
        // contained in an enclosure that is not)
        if (prec >= limits.prec_cap && holds == Tri::False) return;
        if (prec >= limits.prec_cap)
            rejected(p, "the violation cannot be decided at the precision cap");
    }
}
} // namespace

namespace {
// The keys and proofs of an exhaustive certificate.
void check_exhaustive_fields(const Json &cert) {
    only_keys(cert, "$",
              {"format", "tool", "model", "n", "eps", "criterion", "method", "beta", "gaps",
               "verdict", "counterexample", "words_checked", "proofs"});
    Json proofs = {"proofs/certificate.md", "proofs/lemma-gt.md", "proofs/softmax-enclosure.md"};
    same_at(cert, "$", "proofs", proofs);
}

// Words are evaluated whole: n and the number of words are bounded.
void check_word_limits(const Model &m, std::size_t n, const Limits &limits) {
    if (n > limits.max_n) unsupported("$.n", "above --max-n " + std::to_string(limits.max_n));
    if (word_count(m.alphabet.size(), n, limits.max_words) > limits.max_words)
        unsupported("$.n", "more than --max-words " + std::to_string(limits.max_words) + " words");
}
} // namespace

std::string verify(const Json &cert, const Model &m, const Limits &limits) {
    const std::string method = check_binding(cert, m);
    if (method == "layerwise") return verify_layerwise(cert, m, limits);
    if (method == "layerwise-perturbation") return verify_perturbation(cert, m, limits);
    if (method == "every-n") return verify_every_n(cert, m, limits);
    same(method == "exhaustive" || method == "exhaustive-prefix", "$.method", "\"" + method + "\"",
         "an exhaustive, layerwise, perturbation or every-n method");
    check_exhaustive_fields(cert);
    const std::string verdict = text_at(cert, "$", "verdict");
    same(verdict == "certified" || verdict == "refuted", "$.verdict", verdict,
         "certified or refuted (an undecided certificate claims nothing)");
    const Claim c = read_claim(cert, m);
    check_word_limits(m, c.n, limits);
    std::optional<VerdictClaim> claim;
    if (verdict == "certified") try { // a bad beta.spec is refused where it was before
            claim = VerdictClaim{read_betas(cert, m), c.eps, c.criterion};
        } catch (const Failure &) {
        }
    const Scan scan = scan_words(m, c.n, claim ? &*claim : nullptr, limits);
    check_beta_fields(cert, check_gaps(cert, m, scan.facts, c.eps, limits), limits);
    if (verdict == "refuted") {
        check_refuted(cert, m, c.n, c.eps, c.criterion, limits);
        return "the counterexample re-evaluated";
    }
    same(at(cert, "$", "counterexample").is_null(), "$.counterexample", "one", "null (certified)");
    read_betas(cert, m);
    if (scan.refusal) std::rethrow_exception(scan.refusal);
    same_count(cert, "$", "words_checked", scan.words);
    return std::to_string(scan.words) + " words re-evaluated";
}
} // namespace minicheck
