// Prefix-sharing certification (docs/semantics.md): a depth-first walk over the tree
// of words where each node judges only its newest query (tv) or newest
// read-out (output, decision); the earlier ones are its ancestors' and were
// judged there.
//
// Each node is first judged by the double-interval filter
// (proofs/double-filter.md) or, with the filter off, by MPFI at the starting
// precision. What that cannot decide is re-judged whole by the plain path
// (certify_word, which raises precision): the filter only ever answers
// "certainly holds" or "certainly fails", so the verdict and the
// counterexample are the plain path's whether it ran or not.
//
// The counterexample is the plain path's: the first refuting word in
// (length, lexicographic) order refutes at its newest item (else a shorter
// prefix would refute), so it is a node; the walk keeps the least such node
// and does not descend below a refuting node or past its length.
//
// Threads: the words up to the split length (task_split_length) are walked
// first, in this thread; each surviving prefix of that length is then a task
// with its own evaluator. The split does not depend on the thread count and the merge is
// order-free (least counterexample, bindings by value then word order), so
// results, witnesses and counts are the same for any --threads.
#include "../distributed/ranks.hpp"
#include "../eval/prefix_eval.hpp"
#include "../eval/prefix_walk.hpp"
#include "../parallel/task_pool.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/error.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <thread>

namespace tempcert {

namespace {

// Bindings under the filter. The binding is the largest MPFI upper bound
// (the plain path's), which the filter's looser bounds cannot pick alone:
// each head keeps the nodes whose filtered upper end reaches a little below
// the best filtered lower end seen (binding_keep_threshold: the plain path
// compares values rounded up to 40 bits, so a node just below can tie with
// the maximum and, first in enumeration order, win); one of them is the
// plain path's binding, and they are re-evaluated in MPFI at the end, so
// the binding is the one the MPFI path finds (keeping only the nodes that
// reach the best lower end itself, a hunt found the filter binding a word
// one position longer, with the same query and rounded value). Many exact
// ties (common: every word with the same suffix) would make that costly,
// so a head keeps at most kMaxCandidates, those with the largest upper ends
// (ties: first word); when it had to drop some, the result says the
// binding is the largest among those kept (binding_exact = false). The
// verdict and counterexample never depend on it.
constexpr std::size_t kMaxCandidates = 64;
using Candidate = std::pair<double, Word>; // filtered upper end, node

// Keeps the kMaxCandidates largest upper ends (ties: the first word).
// Returns whether any was dropped.
bool keep_largest(std::vector<Candidate> &list) {
    if (list.size() <= kMaxCandidates) return false;
    std::sort(list.begin(), list.end(), [](const Candidate &a, const Candidate &b) {
        return a.first != b.first ? a.first > b.first : word_before(a.second, b.second);
    });
    list.resize(kMaxCandidates);
    return true;
}

struct Candidates {
    std::vector<double> best_lo;
    std::vector<std::vector<Candidate>> items;
    bool dropped = false;
    void add(std::size_t idx, DInterval v, const Word &w) {
        if (items.size() <= idx) {
            items.resize(idx + 1);
            best_lo.resize(idx + 1, 0.0);
        }
        if (v.hi < binding_keep_threshold(best_lo[idx])) return;
        best_lo[idx] = std::max(best_lo[idx], v.lo);
        auto &list = items[idx];
        list.emplace_back(v.hi, w);
        if (list.size() <= 4 * kMaxCandidates) return;
        const double keep = binding_keep_threshold(best_lo[idx]);
        std::erase_if(list, [&](const auto &c) { return c.first < keep; });
        dropped = keep_largest(list) || dropped;
    }
    // Drops the entries below their head's threshold: no other part's best
    // lower end can be lower than this part's, so binding_words would skip
    // them.
    void drop_below_best() {
        for (std::size_t idx = 0; idx < items.size(); ++idx) {
            const double keep = binding_keep_threshold(best_lo[idx]);
            std::erase_if(items[idx], [&](const auto &c) { return c.first < keep; });
        }
    }
};

struct Walk {
    const Model &m;
    const BetaSpec &beta;
    const CertifyOptions &o;
    const std::vector<Real> &betas; // per layer, at the starting precision
    DInterval eps_d;
    std::atomic<std::uint64_t> *progress = nullptr;

    // An evaluator holding the word w.
    detail::PrefixEvaluator evaluator_at(const Word &w) const {
        detail::PrefixEvaluator ev(m, o.precision.start, betas, o.filter);
        for (int s : w)
            ev.push(s);
        return ev;
    }

    // Judges the node `w` (the evaluator holds w); folds into r. Returns
    // whether the walk may go below it.
    bool node(const detail::PrefixEvaluator &ev, const Word &w, CertifyResult &r,
              Candidates &cand) const {
        ++r.words;
        if (progress) progress->fetch_add(1, std::memory_order_relaxed);
        Tri t = o.filter ? filtered(ev, w, r, cand) : mpfi(ev, w, r);
        if (t == Tri::False) return false;
        return w.size() < o.n &&
               (!r.counterexample || w.size() + 1 < r.counterexample->word.size());
    }

    // Whether a refutation at w would be recorded (else its detail is moot).
    static bool least(const CertifyResult &r, const Word &w) {
        return !r.counterexample || word_before(w, r.counterexample->word);
    }

    void fold_failure(Tri t, const Violation &v, const Word &w, CertifyResult &r) const {
        if (t == Tri::False && least(r, w)) r.counterexample = v;
        if (t == Tri::Unknown && (!r.undecided || word_before(w, r.undecided->word)))
            r.undecided = v;
    }

    // MPFI bindings of a word the filter certified (see Candidates).
    void rebind(const Word &w, CertifyResult &r) const {
        Violation v;
        Prec used = 0;
        certify_word(m, w, beta, o, v, used, &r.bindings);
    }

    // The failure a node records at `w` on its own (the counterexample or the
    // undecided place a task found there, rebuilt on another MPI rank: the
    // judgement is a function of the word alone).
    Violation rejudge(const Word &w, bool refuted) const {
        detail::PrefixEvaluator ev = evaluator_at(w);
        CertifyResult scratch;
        Candidates cand;
        Tri t = o.filter ? filtered(ev, w, scratch, cand) : mpfi(ev, w, scratch);
        const auto &found = refuted ? scratch.counterexample : scratch.undecided;
        if (t == Tri::True || !found || found->word != w)
            throw std::logic_error("a task's failure at a word did not recur on this rank");
        return *found;
    }

    // The plain path on the whole word: raises precision until decided.
    Tri exact(const Word &w, CertifyResult &r) const {
        Violation v;
        Prec used = 0;
        Tri t = certify_word(m, w, beta, o, v, used, &r.bindings);
        r.max_prec = std::max(r.max_prec, used);
        fold_failure(t, v, w, r);
        return t;
    }

    // The filter's verdict on the node ev holds (False: certainly fails;
    // True: certainly holds; Unknown: the plain path must decide), and the
    // output criterion's |y_S - y_H| per read-out in `diffs`.
    Tri filter_verdict(const detail::PrefixEvaluator &ev, std::vector<DInterval> &diffs) const {
        Tri t = Tri::True;
        auto fold = [&t](Tri x) {
            if (x == Tri::False || (x == Tri::Unknown && t == Tri::True)) t = x;
        };
        if (o.criterion != Criterion::Tv && m.output.kind == ReadKind::Categorical)
            fold(Tri::Unknown); // no filter for categorical read-outs: the MPFI path decides
        else if (o.criterion == Criterion::Output)
            for (std::size_t k = 0; k < ev.filtered_outputs().size(); ++k)
                diffs.push_back(abs(ev.filtered_outputs()[k] -
                                    detail::enclose_d(ev.hard_outputs()[k].y, o.precision.start)));
        if (o.criterion == Criterion::Tv) {
            for (const auto &tv : ev.filtered_tv())
                if (tv) fold(less_equal(*tv, eps_d));
        } else if (o.criterion == Criterion::Output) {
            for (DInterval d : diffs)
                fold(less_equal(d, eps_d));
        } else {
            for (std::size_t k = 0; k < ev.filtered_outputs().size(); ++k) {
                const Real &yh = ev.hard_outputs()[k].y;
                DInterval ys = ev.filtered_outputs()[k];
                if (yh.is_exact() && yh.exact() == 0) {
                    fold(Tri::Unknown); // degenerate: the plain path reports it
                } else {
                    Tri pos = is_positive(ys);
                    fold(pos == Tri::Unknown
                             ? pos
                             : (pos == ev.hard_outputs()[k].accept ? Tri::True : Tri::False));
                }
            }
        }
        return t;
    }

    Tri filtered(const detail::PrefixEvaluator &ev, const Word &w, CertifyResult &r,
                 Candidates &cand) const {
        std::vector<DInterval> diffs;
        Tri t = filter_verdict(ev, diffs);
        if (t == Tri::False && !least(r, w)) { // certain, and not the first
            ++r.filter_decided;
            return t;
        }
        if (t != Tri::True) {
            ++r.filter_fallbacks;
            return exact(w, r);
        }
        ++r.filter_decided;
        // certified here: the newest items are binding candidates
        auto candidate = [&](std::size_t idx, DInterval v) { cand.add(idx, v, w); };
        if (o.criterion == Criterion::Tv) {
            for (std::size_t idx = 0; idx < ev.filtered_tv().size(); ++idx)
                if (const auto &tv = ev.filtered_tv()[idx]) candidate(idx, *tv);
        } else {
            for (DInterval d : diffs)
                candidate(0, d);
        }
        return t;
    }

    Tri mpfi(const detail::PrefixEvaluator &ev, const Word &w, CertifyResult &r) const {
        const Prec prec = o.precision.start;
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
                    fold(judge_query(ev.soft_queries()[idx], l + 1, h + 1, o.eps, prec, w, cand),
                         cand);
                }
        } else {
            for (std::size_t k = 0; k < ev.soft_outputs().size(); ++k) {
                Violation cand;
                fold(judge_output(ev.soft_outputs()[k], ev.hard_outputs()[k], o.eps, o.criterion,
                                  prec, w, cand),
                     cand);
            }
        }
        if (t == Tri::Unknown) return exact(w, r); // fixed precision could not decide
        if (t == Tri::False) {
            fold_failure(t, v, w, r);
            return t;
        }
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
        return t;
    }

    // Depth-first below `w` (held by ev), down to length `depth`; the nodes
    // at `depth` that survive are the frontier when one is asked for.
    void below(detail::PrefixEvaluator &ev, Word &w, std::size_t depth, CertifyResult &r,
               Candidates &cand, std::vector<Word> *frontier) const {
        if (w.size() >= depth) return;
        detail::walk_depth_first(
            m.alphabet.size(), depth - w.size(),
            [&](std::size_t s) {
                check_budget(o.limits);
                ev.push(static_cast<int>(s));
                w.push_back(static_cast<int>(s));
            },
            [&] {
                if (!node(ev, w, r, cand)) return false;
                if (w.size() == depth && frontier) frontier->push_back(w);
                return true;
            },
            [&] {
                w.pop_back();
                ev.pop();
            });
    }
};

void merge(CertifyResult &into, const CertifyResult &part) {
    into.words += part.words;
    into.filter_decided += part.filter_decided;
    into.filter_fallbacks += part.filter_fallbacks;
    into.max_prec = std::max(into.max_prec, part.max_prec);
    if (part.counterexample &&
        (!into.counterexample || word_before(part.counterexample->word, into.counterexample->word)))
        into.counterexample = part.counterexample;
    if (part.undecided &&
        (!into.undecided || word_before(part.undecided->word, into.undecided->word)))
        into.undecided = part.undecided;
    for (std::size_t i = 0; i < part.bindings.size(); ++i)
        if (!part.bindings[i].word.empty())
            record_binding_value(into.bindings, i, part.bindings[i]);
}

// A task's part as bytes for the other MPI ranks (distributed.hpp): counts,
// the words of its failures (judged again where read), its bindings, its
// binding candidates.
std::string pack_part(const CertifyResult &part, const Candidates &cand) {
    detail::ByteWriter out;
    for (std::uint64_t v : {part.words, part.filter_decided, part.filter_fallbacks,
                            static_cast<std::uint64_t>(part.max_prec)})
        out.number(v);
    for (const auto &v : {part.counterexample, part.undecided}) {
        out.number(v ? 1 : 0);
        if (v) out.word(v->word);
    }
    out.number(part.bindings.size());
    for (const Binding &b : part.bindings) {
        for (std::uint64_t v : {b.layer, b.head, b.query})
            out.number(v);
        out.rational(b.value);
        out.word(b.word);
    }
    out.number(cand.dropped ? 1 : 0);
    out.number(cand.best_lo.size());
    for (std::size_t idx = 0; idx < cand.best_lo.size(); ++idx) {
        out.real64(cand.best_lo[idx]);
        out.number(cand.items[idx].size());
        for (const auto &[hi, w] : cand.items[idx]) {
            out.real64(hi);
            out.word(w);
        }
    }
    return out.take();
}

void unpack_part(detail::ByteReader &in, const Walk &walk, CertifyResult &part, Candidates &cand) {
    part.words = in.number();
    part.filter_decided = in.number();
    part.filter_fallbacks = in.number();
    part.max_prec = static_cast<Prec>(in.number());
    part.counterexample.reset();
    if (in.number()) part.counterexample = walk.rejudge(in.word(), true);
    if (in.number()) part.undecided = walk.rejudge(in.word(), false);
    part.bindings.resize(in.number());
    for (Binding &b : part.bindings) {
        b.layer = in.number();
        b.head = in.number();
        b.query = in.number();
        b.value = in.rational();
        b.word = in.word();
    }
    cand.dropped = in.number() != 0;
    cand.best_lo.resize(in.number());
    cand.items.resize(cand.best_lo.size());
    for (std::size_t idx = 0; idx < cand.best_lo.size(); ++idx) {
        cand.best_lo[idx] = in.real64();
        cand.items[idx].resize(in.number());
        for (auto &[hi, w] : cand.items[idx]) {
            hi = in.real64();
            w = in.word();
        }
    }
}

// Calls the progress callback every 50 ms while tasks run (the only caller
// then), from its own thread; stops when destroyed.
class ProgressReporter {
  public:
    ProgressReporter(const Limits &limits, const std::atomic<std::uint64_t> &visited,
                     std::uint64_t total) {
        if (!limits.run || !limits.run->progress) return;
        thread_ = std::thread([this, &limits, &visited, total] {
            while (!done_.load()) {
                limits.progress(visited.load(), total);
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
        });
    }
    ~ProgressReporter() { stop(); }
    void stop() {
        done_ = true;
        if (thread_.joinable()) thread_.join();
    }

  private:
    std::atomic<bool> done_{false};
    std::thread thread_;
};

// The words of the surviving binding candidates of every part (the largest
// near-maximal places the filter kept), sorted and distinct; clears
// r.binding_exact when a part dropped candidates.
std::vector<Word> binding_words(std::vector<Candidates> &cands, CertifyResult &r) {
    std::vector<double> best;
    for (const auto &c : cands)
        for (std::size_t idx = 0; idx < c.best_lo.size(); ++idx) {
            if (best.size() <= idx) best.resize(idx + 1, 0.0);
            best[idx] = std::max(best[idx], c.best_lo[idx]);
        }
    std::vector<Word> words;
    for (const auto &c : cands)
        r.binding_exact = r.binding_exact && !c.dropped;
    for (std::size_t idx = 0; idx < best.size(); ++idx) {
        std::vector<Candidate> all;
        const double keep = binding_keep_threshold(best[idx]);
        for (const auto &c : cands)
            if (idx < c.items.size())
                for (const auto &item : c.items[idx])
                    if (item.first >= keep) all.push_back(item);
        if (keep_largest(all)) r.binding_exact = false;
        for (auto &item : all)
            words.push_back(std::move(item.second));
    }
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    return words;
}

} // namespace

namespace {

// The per-layer betas of a prefix walk, or nullopt when prefix sharing does
// not apply to the model or to beta.
std::optional<std::vector<Real>> prefix_betas(const Model &m, const BetaSpec &beta, Prec prec) {
    if (!detail::PrefixEvaluator::applies(m)) return std::nullopt;
    // Shared prefixes need one beta for every length: no layer's beta may
    // read n (a value test at a few lengths would not do: 3 + (n-1)(n-2)).
    if (beta.uses_n()) return std::nullopt;
    std::vector<Real> betas;
    for (std::size_t l = 0; l < m.layers.size(); ++l)
        betas.push_back(beta.at(l, 1, prec));
    return betas;
}

} // namespace

std::optional<Tri> filter_prefixes_of(const Model &m, const Word &w, const BetaSpec &beta,
                                      const CertifyOptions &o, std::size_t &failing_length) {
    std::optional<std::vector<Real>> betas = prefix_betas(m, beta, o.precision.start);
    if (!betas) return std::nullopt;
    // only filter_verdict is asked of it, which reads no o.filter
    Walk walk{m, beta, o, *betas, to_dinterval(o.eps), nullptr};
    detail::PrefixEvaluator ev(m, o.precision.start, *betas, true);
    Tri all = Tri::True;
    for (std::size_t k = 0; k < w.size(); ++k) {
        check_budget(o.limits);
        ev.push(w[k]);
        std::vector<DInterval> diffs;
        Tri t = walk.filter_verdict(ev, diffs);
        if (t == Tri::False) {
            failing_length = k + 1;
            return Tri::False;
        }
        if (t == Tri::Unknown) all = Tri::Unknown;
    }
    return all;
}

std::optional<CertifyResult> certify_prefix(const Model &m, const BetaSpec &beta,
                                            const CertifyOptions &o) {
    const Prec prec = o.precision.start;
    std::optional<std::vector<Real>> prefix_beta = prefix_betas(m, beta, prec);
    if (!prefix_beta) return std::nullopt;
    const std::vector<Real> &betas = *prefix_beta;
    check_word_budget(m.alphabet.size(), o.n, o.limits.max_words);
    const std::uint64_t total = count_words(m.alphabet.size(), o.n);

    std::atomic<std::uint64_t> visited{0};
    Walk walk{m, beta, o, betas, to_dinterval(o.eps), &visited};
    CertifyResult r;
    std::vector<Candidates> cands(1);
    r.method = "exhaustive-prefix";
    r.max_prec = prec;

    // Lengths below the split, here; the prefixes at the split are tasks.
    const std::size_t split = detail::prefix_split_length(m.alphabet.size(), o.n);
    std::vector<Word> tasks;
    {
        Word w;
        detail::PrefixEvaluator ev = walk.evaluator_at(w);
        walk.below(ev, w, split, r, cands.front(), split < o.n ? &tasks : nullptr);
    }
    // A task is one subtree: its root node, then everything below it. The
    // counterexample found above the split prunes each the same way.
    const CertifyResult top = r;
    std::vector<CertifyResult> parts(tasks.size());
    cands.resize(tasks.size() + 1);
    ProgressReporter reporter(o.limits, visited, total);
    auto run_task = [&](std::size_t i) {
        const Word &prefix = tasks[i];
        detail::PrefixEvaluator ev = walk.evaluator_at(prefix);
        CertifyResult &part = parts[i];
        part.counterexample = top.counterexample; // prunes as the serial walk would
        Word w = prefix;
        // the root was judged above the split (as a frontier node)
        if (w.size() < o.n &&
            (!part.counterexample || w.size() + 1 < part.counterexample->word.size()))
            walk.below(ev, w, o.n, part, cands[i + 1], nullptr);
        if (part.counterexample && top.counterexample &&
            part.counterexample->word == top.counterexample->word)
            part.counterexample.reset(); // the top's, merged once
        cands[i + 1].drop_below_best();  // binding_words would skip them anyway
    };
    detail::run_tasks_everywhere(
        tasks.size(), o.limits, run_task,
        [&](std::size_t i) { return pack_part(parts[i], cands[i + 1]); },
        [&](std::size_t i, detail::ByteReader &in) {
            unpack_part(in, walk, parts[i], cands[i + 1]);
        },
        &visited);
    reporter.stop();
    for (const auto &part : parts)
        merge(r, part);
    r.verdict = r.counterexample ? Verdict::Refuted
                                 : (r.undecided ? Verdict::Undecided : Verdict::Certified);
    if (r.verdict != Verdict::Certified) return r;
    std::vector<Word> words = binding_words(cands, r);
    // re-evaluated in parallel, one result per word, merged order-free as the parts are
    std::vector<CertifyResult> rebound(words.size());
    std::vector<Candidates> none(words.size());
    detail::run_tasks_everywhere(
        words.size(), o.limits,
        [&](std::size_t i) {
            check_budget(o.limits);
            walk.rebind(words[i], rebound[i]);
        },
        [&](std::size_t i) { return pack_part(rebound[i], none[i]); },
        [&](std::size_t i, detail::ByteReader &in) { unpack_part(in, walk, rebound[i], none[i]); });
    for (const auto &part : rebound) // bindings only: rebind counts no words
        merge(r, part);
    return r;
}

} // namespace tempcert
