// The checker's prefix walk; see check_prefix.hpp. A second implementation
// on purpose: it shares nothing with the certifier's prefix evaluator or its
// filter, only the kernel's linear algebra and exact hard queries.
#include "check_prefix.hpp"
#include "../eval/hard_ops.hpp"
#include "../eval/layer_ops.hpp"
#include "../eval/prefix_walk.hpp"
#include "check_judge.hpp"
#include "check_soft.hpp"
#include "tempcert/error.hpp"
#include "tempcert/mask.hpp"

namespace tempcert::check {

namespace {

// Per layer and head, one entry per position present (BOS first).
using PerHead = std::vector<std::vector<std::vector<RealVector>>>;

class Walk {
  public:
    // Without betas, the hard model only.
    // `outputs`: whether traces() carries the word's read-outs.
    // `fast_below`: soft queries may use the analytic TV bound up to it.
    Walk(const Model &m, const std::vector<Real> *betas, Prec prec, bool outputs,
         const Rational *fast_below)
        : m_(m), betas_(betas), prec_(prec), bos_(m.has_bos()), outputs_(outputs),
          fast_below_(fast_below) {
        auto shape = [&](PerHead &v) {
            v.assign(m.layers.size(), {});
            for (std::size_t l = 0; l < m.layers.size(); ++l)
                v[l].assign(m.layers[l].heads.size(), {});
        };
        for (PerHead *v : {&hk_, &hv_, &sk_, &sv_})
            shape(*v);
        if (bos_) push_embedding(m.embedding.at(*m.bos));
    }

    // Adds position |w| + 1 holding symbol s; its queries become newest().
    void push(int s) { push_embedding(m_.embedding.at(m_.alphabet[static_cast<std::size_t>(s)])); }

    void pop() {
        for (PerHead *v : {&hk_, &hv_, &sk_, &sv_})
            for (auto &layer : *v)
                for (auto &head : layer)
                    if (!head.empty() && head.size() == hard_.size()) head.pop_back();
        hx_.pop_back();
        sx_.pop_back();
        hard_.pop_back();
        soft_.pop_back();
    }

    // Traces holding the queries of the positions in [from, present) and the
    // read-outs of the word present, for judge_word.
    std::pair<Trace, Trace> traces(std::size_t from) const {
        Trace h, s;
        h.n = s.n = length();
        h.bos = s.bos = bos_;
        h.prec = s.prec = prec_;
        h.layers.assign(m_.layers.size(), {});
        s.layers.assign(m_.layers.size(), {});
        for (std::size_t l = 0; l < m_.layers.size(); ++l) {
            h.layers[l].heads.assign(m_.layers[l].heads.size(), {});
            s.layers[l].heads.assign(m_.layers[l].heads.size(), {});
            for (std::size_t t = from; t < hard_.size(); ++t)
                for (std::size_t k = 0; k < m_.layers[l].heads.size(); ++k) {
                    h.layers[l].heads[k].queries.push_back(hard_[t][l][k]);
                    s.layers[l].heads[k].queries.push_back(soft_[t][l][k]);
                }
        }
        if (!outputs_) return {h, s};
        h.outputs = detail::readouts(m_, hx_, length(), bos_, prec_);
        if (betas_) s.outputs = detail::readouts(m_, sx_, length(), bos_, prec_);
        return {h, s};
    }

    std::size_t positions() const { return hard_.size(); }
    std::size_t length() const { return bos_ ? hard_.size() - 1 : hard_.size(); }

  private:
    const Model &m_;
    const std::vector<Real> *betas_;
    Prec prec_;
    bool bos_, outputs_;
    const Rational *fast_below_;
    std::vector<RealVector> hx_, sx_; // the last layer's output at each position
    PerHead hk_, hv_, sk_, sv_;       // keys and values, hard and soft
    std::vector<std::vector<std::vector<QueryTrace>>> hard_, soft_; // [t][layer][head]

    void push_embedding(const Vector &e) {
        const std::size_t t = hard_.size(), p = bos_ ? t : t + 1;
        RealVector h = detail::initial_activation(m_, e, p, p, prec_), s = h;
        hard_.emplace_back(m_.layers.size());
        soft_.emplace_back(m_.layers.size());
        for (std::size_t l = 0; l < m_.layers.size(); ++l) {
            const Layer &layer = m_.layers[l];
            RealVector hh = h, sh = s;
            for (std::size_t k = 0; k < layer.heads.size(); ++k) {
                const Head &head = layer.heads[k];
                hk_[l][k].push_back(matvec(head.key, h, prec_));
                hv_[l][k].push_back(matvec(head.value, h, prec_));
                QueryTrace hq = detail::hard_query(head, p, h, hk_[l][k], hv_[l][k], p, bos_,
                                                   m_.width, l + 1, k + 1, prec_);
                QueryTrace sq;
                if (betas_) {
                    sk_[l][k].push_back(matvec(head.key, s, prec_));
                    sv_[l][k].push_back(matvec(head.value, s, prec_));
                    sq = soft_query(head, hq, s, sk_[l][k], sv_[l][k], bos_, m_.width, (*betas_)[l],
                                    prec_, fast_below_);
                    sh = detail::add_vectors(sh, sq.output, prec_);
                }
                hh = detail::add_vectors(hh, hq.output, prec_);
                // judging and the gap scan read neither scores nor weights:
                // not kept, so that traces() copies little
                for (QueryTrace *q : {&hq, &sq}) {
                    q->scores.clear();
                    q->weights.clear();
                }
                hard_.back()[l].push_back(std::move(hq));
                soft_.back()[l].push_back(std::move(sq));
            }
            if (layer.ffn) {
                hh = detail::apply_ffn(*layer.ffn, hh, prec_);
                if (betas_) sh = detail::apply_ffn(*layer.ffn, sh, prec_);
            }
            h = std::move(hh);
            s = std::move(sh);
        }
        hx_.push_back(std::move(h));
        sx_.push_back(std::move(s));
    }
};

} // namespace

bool prefix_walk_applies(const Model &m, const BetaSpec *beta) {
    if (m.features_use_n() || (beta && beta->uses_n())) return false;
    for (const auto &layer : m.layers)
        for (const auto &head : layer.heads)
            if (!looks_backward(head.mask)) return false;
    return true;
}

namespace {

// Depth-first below `w` (already pushed onto `walk`), words up to length
// `stop`; `below` collects the nodes at length `stop` that visit lets
// through. The traversal is the one prefix sharing uses everywhere
// (walk_depth_first): only the order of words, nothing the checker verifies.
void depth_first(Walk &walk, Word &w, std::size_t stop, std::size_t symbols, const Limits &limits,
                 const std::function<bool(const Word &, const Trace &, const Trace &)> &visit,
                 std::vector<Word> *below) {
    if (w.size() >= stop) return;
    detail::walk_depth_first(
        symbols, stop - w.size(),
        [&](std::size_t s) {
            check_budget(limits);
            walk.push(static_cast<int>(s));
            w.push_back(static_cast<int>(s));
        },
        [&] {
            // the new position's queries (with length 1, BOS's too)
            auto [hard, soft] = walk.traces(w.size() == 1 ? 0 : walk.positions() - 1);
            bool go_on = visit(w, hard, soft);
            if (go_on && below && w.size() == stop) below->push_back(w);
            return go_on;
        },
        [&] {
            walk.pop();
            w.pop_back();
        });
}

} // namespace

void walk_words(const Model &m, std::size_t n, const std::vector<Real> *betas, Prec prec,
                bool outputs, const Rational *fast_below, const Limits &limits,
                const std::function<void(std::size_t)> &ready, const WordVisit &visit,
                const TaskParts &parts) {
    const std::size_t k = m.alphabet.size(), split = detail::prefix_split_length(k, n);
    std::vector<Word> roots;
    {
        Walk walk(m, betas, prec, outputs, fast_below);
        Word w;
        depth_first(
            walk, w, split, k, limits,
            [&](const Word &x, const Trace &h, const Trace &s) { return visit(0, x, h, s); },
            split < n ? &roots : nullptr);
    }
    ready(roots.size() + 1);
    run_check_tasks(
        roots.size(), limits,
        [&](std::size_t r) {
            Walk walk(m, betas, prec, outputs, fast_below);
            Word w = roots[r];
            for (int s : w)
                walk.push(s);
            depth_first(
                walk, w, n, k, limits,
                [&](const Word &x, const Trace &h, const Trace &s) {
                    return visit(r + 1, x, h, s);
                },
                nullptr);
        },
        parts);
}

std::optional<std::string>
judge_words_by_prefix(const Model &m, std::size_t n, const Rational &eps,
                      const std::string &criterion, const BetaSpec &beta, const Limits &limits,
                      const PrecisionPolicy &policy, std::uint64_t &words,
                      const std::function<Tri(const Word &, std::string &)> &judge_whole) {
    if (!prefix_walk_applies(m, &beta)) return std::nullopt;
    const Prec prec = policy.start;
    // a TV bound a quarter of eps leaves room for the layers after it; a
    // node it leaves undecided goes to the whole-word definition path
    const Rational fast_below = eps / 4;
    std::vector<Real> betas;
    for (std::size_t l = 0; l < m.layers.size(); ++l)
        betas.push_back(beta.at(l, 1, prec));
    // the first failing word in (length, lexicographic) order, as the
    // certifier reports it: each task goes below no failure, nor as long as
    // the least it knows of (its own, or one found before the split)
    std::vector<JudgedPart> parts(1);
    try {
        walk_words(
            m, n, &betas, prec, criterion != "tv", &fast_below, limits,
            [&](std::size_t count) {
                parts.resize(count);
                for (std::size_t k = 1; k < count; ++k)
                    parts[k].failed = parts[0].failed;
            },
            [&](std::size_t task, const Word &w, const Trace &hard, const Trace &soft) {
                JudgedPart &part = parts[task];
                std::string where;
                Tri t = judge_word(hard, soft, eps, criterion, prec, where);
                if (t == Tri::Unknown) t = judge_whole(w, where);
                ++part.words;
                if (t != Tri::True && (part.failed.empty() || w.size() < part.failed.size())) {
                    part.failed = w;
                    part.failure =
                        "on word " + format_word(w, m.alphabet) + ", " + where +
                        (t == Tri::False ? " violates eps " : " cannot be shown within eps ") +
                        to_string(eps);
                }
                return t == Tri::True && (part.failed.empty() || w.size() + 1 < part.failed.size());
            },
            TaskParts{nullptr, &parts});
    } catch (const Undecided &) {
        return std::nullopt; // a hard tie needs more precision: the whole-word path
    }
    const JudgedPart *least = nullptr;
    for (const auto &part : parts) {
        words += part.words;
        if (!part.failure.empty() &&
            (!least || part.failed.size() < least->failed.size() ||
             (part.failed.size() == least->failed.size() && part.failed < least->failed)))
            least = &part;
    }
    return least ? least->failure : std::string();
}

} // namespace tempcert::check
