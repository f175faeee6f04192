// The baseline a user would write instead of tempcert: a
// plain double-precision sweep over the same words, sharing prefixes as
// tempcert does, with float softmax, float argmax and no guarantee of any
// kind (ties and rounding are whatever doubles give). Side by side with
// certified enumeration (filter on, one thread) on has-ab-two-layer at n = 16
// and the four-symbol last-cd-is-d at n = 9: the ratio of the two is the
// price of the certificate per core.
#include "../src/eval/layer_ops.hpp"
#include "../src/eval/soft_filter.hpp"
#include "run_with_threads.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/mask.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <map>

using namespace tempcert;

namespace {

using Vec = std::vector<double>;
using Mat = std::vector<Vec>;

Mat to_doubles(const Matrix &m) {
    Mat out;
    for (const auto &row : detail::to_dmatrix(m)) {
        out.emplace_back();
        for (auto x : row)
            out.back().push_back(x.lo);
    }
    return out;
}
Vec to_doubles(const Vector &v) {
    Vec out;
    for (auto x : detail::to_dvector(v))
        out.push_back(x.lo);
    return out;
}
Vec times(const Mat &m, const Vec &x) {
    Vec y(m.size(), 0.0);
    for (std::size_t r = 0; r < m.size(); ++r)
        for (std::size_t c = 0; c < x.size(); ++c)
            y[r] += m[r][c] * x[c];
    return y;
}

struct FloatHead {
    AttnKind kind;
    Mask mask;
    Mat q, k, v, o;
};
struct FloatLayer {
    std::vector<FloatHead> heads;
    bool ffn = false;
    Mat w1, w2;
    Vec b1, b2;
};

// One pass (hard or soft) over the current word: per depth, each layer's
// input activation and each head's key and value at that position.
struct Pass {
    std::vector<std::vector<Vec>> x;          // [layer][index]: input of layer
    std::vector<std::vector<Vec>> keys, vals; // [flat head][index]
    std::vector<std::vector<double>> weights; // [flat head]: the newest query's weights
};

class FloatSweep {
  public:
    FloatSweep(const Model &m, std::size_t n, double beta) : m_(m), n_(n), beta_(beta) {
        for (const auto &layer : m.layers) {
            FloatLayer fl;
            for (const auto &h : layer.heads)
                fl.heads.push_back({h.kind, h.mask, to_doubles(h.query), to_doubles(h.key),
                                    to_doubles(h.value), to_doubles(h.output)});
            if (layer.ffn) {
                fl.ffn = true;
                fl.w1 = to_doubles(layer.ffn->w1);
                fl.w2 = to_doubles(layer.ffn->w2);
                fl.b1 = to_doubles(layer.ffn->b1);
                fl.b2 = to_doubles(layer.ffn->b2);
            }
            layers_.push_back(std::move(fl));
            heads_ += layer.heads.size();
        }
        // x^(0) per symbol and position (features do not read n here)
        for (std::size_t s = 0; s <= m.alphabet.size(); ++s) {
            const std::string &name = s < m.alphabet.size() ? m.alphabet[s] : *m.bos;
            if (s == m.alphabet.size() && !m.has_bos()) break;
            x0_.emplace_back();
            for (std::size_t j = 0; j <= n; ++j) {
                Vec v;
                for (const Real &r : detail::initial_activation(m, m.embedding.at(name), j, n, 64))
                    v.push_back(detail::enclose_d(r, 64).lo);
                x0_.back().push_back(std::move(v));
            }
        }
        for (Pass *p : {&hard_, &soft_}) {
            p->x.resize(layers_.size() + 1);
            p->keys.resize(heads_);
            p->vals.resize(heads_);
            p->weights.resize(heads_);
        }
    }

    // Every word up to n: the words seen and the largest TV.
    std::pair<std::uint64_t, double> sweep() {
        words_ = 0;
        max_tv_ = 0;
        length_ = 0;
        if (m_.has_bos()) {
            push(m_.alphabet.size(), 0, hard_, true);
            push(m_.alphabet.size(), 0, soft_, false);
        }
        descend();
        return {words_, max_tv_};
    }

  private:
    void descend() {
        for (std::size_t s = 0; s < m_.alphabet.size(); ++s) {
            ++length_;
            push(s, length_, hard_, true);
            push(s, length_, soft_, false);
            ++words_;
            for (std::size_t h = 0; h < heads_; ++h) {
                const Vec &a = soft_.weights[h], &b = hard_.weights[h];
                double tv = 0;
                for (std::size_t j = 0; j < a.size(); ++j)
                    tv += std::fabs(a[j] - b[j]);
                max_tv_ = std::max(max_tv_, tv / 2);
            }
            if (length_ < n_) descend();
            pop(hard_);
            pop(soft_);
            --length_;
        }
    }

    // The position `pos` holding symbol s (or BOS) through every layer.
    void push(std::size_t s, std::size_t pos, Pass &p, bool hard) {
        Vec x = x0_[s][pos];
        std::size_t flat = 0;
        for (std::size_t l = 0; l < layers_.size(); ++l) {
            p.x[l].push_back(x);
            Vec next = x;
            for (const FloatHead &h : layers_[l].heads) {
                p.keys[flat].push_back(times(h.k, x));
                p.vals[flat].push_back(times(h.v, x));
                Vec q = times(h.q, x);
                auto allowed = allowed_positions(h.mask, pos, length_, m_.has_bos());
                Vec sc;
                for (std::size_t j : allowed) {
                    const Vec &k = p.keys[flat][detail::index_of(j, m_.has_bos())];
                    double d = 0;
                    for (std::size_t c = 0; c < q.size(); ++c)
                        d += q[c] * k[c];
                    sc.push_back(d);
                }
                Vec &a = p.weights[flat];
                a.assign(sc.size(), 0.0);
                if (!sc.empty()) {
                    double top = *std::max_element(sc.begin(), sc.end());
                    if (hard) {
                        std::size_t first = sc.size(), last = 0, ties = 0;
                        for (std::size_t j = 0; j < sc.size(); ++j)
                            if (sc[j] == top) {
                                first = std::min(first, j);
                                last = j;
                                ++ties;
                            }
                        if (h.kind == AttnKind::Leftmost)
                            a[first] = 1;
                        else if (h.kind == AttnKind::Rightmost)
                            a[last] = 1;
                        else
                            for (std::size_t j = 0; j < sc.size(); ++j)
                                if (sc[j] == top) a[j] = 1.0 / static_cast<double>(ties);
                    } else {
                        double z = 0;
                        for (std::size_t j = 0; j < sc.size(); ++j)
                            z += a[j] = std::exp(beta_ * (sc[j] - top));
                        for (double &w : a)
                            w /= z;
                    }
                    Vec mix(h.v.size(), 0.0);
                    for (std::size_t j = 0; j < sc.size(); ++j) {
                        const Vec &v = p.vals[flat][detail::index_of(allowed[j], m_.has_bos())];
                        for (std::size_t c = 0; c < mix.size(); ++c)
                            mix[c] += a[j] * v[c];
                    }
                    Vec out = times(h.o, mix);
                    for (std::size_t c = 0; c < next.size(); ++c)
                        next[c] += out[c];
                }
                ++flat;
            }
            if (layers_[l].ffn) {
                Vec hidden = times(layers_[l].w1, next);
                for (std::size_t c = 0; c < hidden.size(); ++c)
                    hidden[c] = std::max(0.0, hidden[c] + layers_[l].b1[c]);
                Vec up = times(layers_[l].w2, hidden);
                for (std::size_t c = 0; c < next.size(); ++c)
                    next[c] += up[c] + layers_[l].b2[c];
            }
            x = std::move(next);
        }
        p.x[layers_.size()].push_back(x);
    }

    void pop(Pass &p) {
        for (auto &xs : p.x)
            xs.pop_back();
        for (std::size_t h = 0; h < heads_; ++h) {
            p.keys[h].pop_back();
            p.vals[h].pop_back();
        }
    }

    const Model &m_;
    std::size_t n_, heads_ = 0, length_ = 0;
    double beta_;
    std::vector<FloatLayer> layers_;
    std::vector<std::vector<Vec>> x0_; // [symbol, then BOS][position]
    Pass hard_, soft_;
    std::uint64_t words_ = 0;
    double max_tv_ = 0;
};

const Model &model(const std::string &name) {
    static std::map<std::string, Model> models;
    auto it = models.find(name);
    if (it == models.end())
        it = models
                 .emplace(name, load_model_file(std::string(TEMPCERT_SOURCE_DIR) +
                                                    "/cases/models/" + name + ".json",
                                                Limits{}))
                 .first;
    return it->second;
}

// range(0): 0 has-ab-two-layer (n 16, beta 20), 1 last-cd-is-d (n 9, beta 30)
struct Job {
    const char *name;
    std::size_t n;
    long beta;
};
const Job kJobs[] = {{"has-ab-two-layer", 16, 20}, {"last-cd-is-d", 9, 30}};

void BM_sweep_float_unsound(benchmark::State &state) {
    const Job &job = kJobs[state.range(0)];
    FloatSweep sweep(model(job.name), job.n, static_cast<double>(job.beta));
    for (auto _ : state) {
        auto [words, tv] = sweep.sweep();
        state.counters["words"] = static_cast<double>(words);
        state.counters["max_tv"] = tv;
        if (tv > 0.01) state.SkipWithError("the float sweep finds a TV above eps");
    }
    state.SetLabel(job.name);
}

void BM_sweep_certified(benchmark::State &state) {
    const Job &job = kJobs[state.range(0)];
    CertifyOptions o;
    o.n = job.n;
    o.eps = Rational(1, 100);
    o.limits.run = run_with_threads(1);
    BetaSpec beta = BetaSpec::constant(Rational(job.beta));
    for (auto _ : state) {
        CertifyResult r = certify_auto(model(job.name), beta, o);
        if (r.verdict != Verdict::Certified) state.SkipWithError("not certified");
        state.counters["words"] = static_cast<double>(r.words);
    }
    state.SetLabel(job.name);
}

} // namespace

BENCHMARK(BM_sweep_float_unsound)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_sweep_certified)->Arg(0)->Arg(1)->Iterations(3)->Unit(benchmark::kMillisecond);
