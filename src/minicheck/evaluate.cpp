// Hard and soft evaluation of one word; see evaluate.hpp.
#include "evaluate.hpp"

#include <algorithm>

namespace minicheck {
template <class Num> std::vector<Num> features(const Model &m, std::size_t p, std::size_t n) {
    std::vector<Num> x(m.width, 0);
    const Q j(static_cast<unsigned long>(p)), len(static_cast<unsigned long>(n));
    for (const auto &f : m.features) {
        try {
            if constexpr (std::is_same_v<Num, Q>)
                x[f.dim] += f.expr.exact(j, len, f.path);
            else
                x[f.dim] += f.expr.exact_sum(j, len, f.path);
        } catch (Failure &e) {
            e.file = m.source; // a feature undefined at this length: the model's fault
            throw;
        }
    }
    return x;
}

XVec exact_features_at(const Model &m, std::size_t p, std::size_t n) {
    return features<SqrtSum>(m, p, n);
}
Vec features_at(const Model &m, std::size_t p, std::size_t n) {
    return features<Q>(m, p, n);
}

std::vector<XVec> initial(const Model &m, const Word &word) {
    const std::size_t n = word.size();
    std::vector<XVec> x(n + 1);
    for (std::size_t p : positions(m, n)) {
        x[p] = exact_features_at(m, p, n);
        const Vec &e = m.embedding[p == 0 ? m.alphabet.size() : word[p - 1]];
        for (std::size_t c = 0; c < m.width; ++c)
            x[p][c] += e[c];
    }
    return x;
}

namespace {
// ---- the hard model -------------------------------------------------------------

class HardArith {
  public:
    HardArith(const Model &m, HardWord &out) : m_(m), out_(out) {}

    SqrtSum lift(const SqrtSum &q) const { return q; }

    XVec attend(std::size_t l, std::size_t h, std::size_t i,
                const std::vector<std::size_t> &allowed, const XVec &s,
                const std::vector<XVec> &values) {
        HardQuery q;
        q.allowed = allowed;
        SqrtSum top = *std::max_element(s.begin(), s.end());
        std::optional<std::size_t> second;
        for (std::size_t a = 0; a < s.size(); ++a) {
            if (s[a] == top)
                q.argmax.push_back(allowed[a]);
            else if (!second || s[*second] < s[a])
                second = a;
        }
        if (second) {
            q.gap = top - s[*second];
            q.runner_up = allowed[*second];
        }
        for (std::size_t j : q.argmax)
            q.shares_value = q.shares_value && values[j] == values[q.argmax.front()];
        const Kind kind = m_.layers[l].heads[h].kind;
        XVec weights(allowed.size(), 0);
        q.compare = Vec(allowed.size(), 0);
        const Q share(1, static_cast<unsigned long>(q.argmax.size()));
        for (std::size_t a = 0; a < allowed.size(); ++a) {
            if (s[a] != top) continue;
            bool chosen = kind == Kind::Average ||
                          (kind == Kind::Leftmost && allowed[a] == q.argmax.front()) ||
                          (kind == Kind::Rightmost && allowed[a] == q.argmax.back());
            const Q weight = kind == Kind::Average ? share : Q(chosen ? 1 : 0);
            weights[a] = weight;
            q.compare[a] = kind == Kind::Average || q.shares_value ? share : weight;
        }
        auto &slot = out_.queries[l][h];
        slot.resize(std::max(slot.size(), i + 1));
        slot[i] = std::move(q);
        return weights;
    }

    XVec ffn(const Ffn &f, const XVec &x) {
        XVec hidden = times(f.w1, x, *this), out = times(f.w2, relu(hidden, f.b1), *this);
        for (std::size_t c = 0; c < x.size(); ++c)
            out[c] += x[c] + f.b2[c];
        return out;
    }

  private:
    const Model &m_;
    HardWord &out_;

    static XVec relu(XVec v, const Vec &b) {
        for (std::size_t k = 0; k < v.size(); ++k)
            v[k] = std::max<SqrtSum>(0, v[k] + b[k]);
        return v;
    }
};
} // namespace

HardWord evaluate_hard(const Model &m, const Word &w) {
    HardWord out;
    out.queries.resize(m.layers.size());
    for (std::size_t l = 0; l < m.layers.size(); ++l)
        out.queries[l].resize(m.layers[l].heads.size());
    HardArith ar(m, out);
    std::vector<XVec> x = forward<SqrtSum>(m, w, ar);
    for (std::size_t p : readout_positions(m, w.size()))
        out.readouts.push_back(readout<SqrtSum>(m, x[p], ar));
    return out;
}

// ---- the soft model ----------------------------------------------------------------

namespace {
// Folds one place's answer: the first False wins, else the first Unknown.
void fold(Judgement &j, Tri t, const std::string &where) {
    if (t == Tri::True || j.verdict == Tri::False) return;
    if (t == Tri::False || j.verdict == Tri::True) {
        j.verdict = t;
        j.where = where;
    }
}

class SoftArith {
  public:
    SoftArith(const HardWord &hard, const std::vector<Iv> &betas, long prec, bool with_tv,
              SoftWord &out)
        : hard_(hard), betas_(betas), prec_(prec), with_tv_(with_tv), out_(out) {}

    Iv lift(const SqrtSum &x) const { return x.enclose(prec_); }

    std::vector<Iv> attend(std::size_t l, std::size_t h, std::size_t i,
                           const std::vector<std::size_t> &allowed, const std::vector<Iv> &s,
                           const std::vector<std::vector<Iv>> &) {
        memo_.resize(betas_.size());
        std::vector<Iv> p = softmax(s, betas_[l], &memo_[l]);
        const HardQuery &q = *hard_.queries[l][h][i];
        if (q.allowed != allowed) throw Failure{70, "", "hard and soft masks differ"};
        if (!with_tv_) return p;
        // TV = 1/2 sum_j |p_j - h_j|, from its definition
        Iv twice = lift(0);
        for (std::size_t a = 0; a < p.size(); ++a)
            twice = twice + abs(p[a] - lift(q.compare[a]));
        auto &slot = out_.tv[l][h];
        slot.resize(std::max(slot.size(), i + 1));
        slot[i] = Q(1, 2) * twice;
        return p;
    }

    std::vector<Iv> ffn(const Ffn &f, const std::vector<Iv> &x) { return soft_ffn(f, x, prec_); }

  private:
    const HardWord &hard_;
    const std::vector<Iv> &betas_;
    std::vector<ExpMemo> memo_; // per layer: its beta's
    long prec_;
    bool with_tv_;
    SoftWord &out_;
};

// On a box where every unit keeps one phase the sublayer is the affine
// map x -> (I + W2 D W1) x + W2 D b1 + b2 (D: the active units), evaluated
// through its exact matrix so that what the sublayer cancels stays cancelled.
std::vector<Iv> affine(const Ffn &f, const std::vector<Iv> &x, const std::vector<bool> &on,
                       long prec) {
    std::vector<Iv> out;
    for (std::size_t c = 0; c < x.size(); ++c) {
        Vec row(x.size(), 0);
        row[c] = 1;
        Q offset = f.b2[c];
        for (std::size_t k = 0; k < on.size(); ++k) {
            if (!on[k] || f.w2[c][k] == 0) continue;
            offset += f.w2[c][k] * f.b1[k];
            for (std::size_t i = 0; i < x.size(); ++i)
                row[i] += f.w2[c][k] * f.w1[k][i];
        }
        Iv y = Iv(offset, prec);
        for (std::size_t i = 0; i < x.size(); ++i)
            if (row[i] != 0) y = y + row[i] * x[i];
        out.push_back(std::move(y));
    }
    return out;
}

std::vector<Iv> unit_by_unit(const Ffn &f, const std::vector<Iv> &x, std::vector<Iv> pre,
                             long prec) {
    for (auto &v : pre)
        v = relu(v);
    std::vector<Iv> out;
    for (const auto &row : f.w2) {
        Iv acc(0, prec);
        for (std::size_t k = 0; k < row.size(); ++k)
            if (row[k] != 0) acc = acc + row[k] * pre[k];
        out.push_back(std::move(acc));
    }
    for (std::size_t c = 0; c < x.size(); ++c)
        out[c] = out[c] + x[c] + Iv(f.b2[c], prec);
    return out;
}
} // namespace

std::vector<Iv> softmax(const std::vector<Iv> &s, const Iv &beta, ExpMemo *memo) {
    // p_j = e_j / Z, e_j = exp(beta (s_j - c)) with c the largest upper end:
    // the factor exp(-beta c) cancels, and no exponent is above 0
    // (an unbounded score is left out of c; its weight comes out unbounded
    // or NaN, which no comparison decides)
    Q c = s[0].finite() ? s[0].upper() : Q(0);
    for (const auto &x : s)
        if (x.finite()) c = std::max(c, x.upper());
    // a score whose enclosure equals one of the first 16 distinct ones takes
    // its weight: the same operations on the same operands (tied scores)
    std::vector<Iv> e;
    std::vector<std::size_t> firsts;
    Iv z(0, beta.prec());
    for (std::size_t a = 0; a < s.size(); ++a) {
        auto b = std::find_if(firsts.begin(), firsts.end(),
                              [&](std::size_t f) { return s[f].same_as(s[a]); });
        if (b != firsts.end()) {
            Iv w = e[*b];
            e.push_back(std::move(w));
        } else if (memo && s[a].point()) {
            Q d = s[a].lower() - c;
            auto hit = memo->find(d);
            if (hit == memo->end() && memo->size() < (1u << 16))
                hit = memo->emplace(d, exp(beta * Iv(d, beta.prec()))).first;
            e.push_back(hit != memo->end() ? hit->second : exp(beta * Iv(d, beta.prec())));
        } else {
            if (firsts.size() < 16) firsts.push_back(a);
            e.push_back(exp(beta * (s[a] - Iv(c, beta.prec()))));
        }
        z = z + e.back();
    }
    for (auto &x : e)
        x = x / z;
    return e;
}

std::vector<Iv> soft_ffn(const Ffn &f, const std::vector<Iv> &x, long prec) {
    std::vector<Iv> pre;
    std::vector<bool> active;
    bool stable = true;
    for (std::size_t k = 0; k < f.w1.size(); ++k) {
        Iv acc(f.b1[k], prec);
        for (std::size_t i = 0; i < x.size(); ++i)
            if (f.w1[k][i] != 0) acc = acc + f.w1[k][i] * x[i];
        active.push_back(acc.at_least(0));
        stable = stable && (active.back() || acc.at_most(0));
        pre.push_back(std::move(acc));
    }
    return stable ? affine(f, x, active, prec) : unit_by_unit(f, x, pre, prec);
}

// The read-out criteria at one position.
Tri judge_readout(const Model &m, const XVec &yh, const std::vector<Iv> &ys, const Q &eps,
                  const std::string &criterion, long prec) {
    if (criterion == "output") {
        Tri t = Tri::True;
        for (std::size_t k = 0; k < yh.size(); ++k) {
            Tri one = within(abs(ys[k] - yh[k].enclose(prec)), eps);
            if (one == Tri::False) return one;
            if (one == Tri::Unknown) t = one;
        }
        return t;
    }
    if (!m.categorical) {
        if (yh[0] == 0) return Tri::Unknown; // degenerate: no decision to keep
        bool soft_accepts = ys[0].above(0), soft_rejects = ys[0].at_most(0);
        if (!soft_accepts && !soft_rejects) return Tri::Unknown;
        return soft_accepts == (yh[0].sign() > 0) ? Tri::True : Tri::False;
    }
    auto label = [&](auto &&above) -> std::optional<std::size_t> {
        for (std::size_t k = 0; k < yh.size(); ++k) {
            bool top = true;
            for (std::size_t i = 0; i < yh.size() && top; ++i)
                top = i == k || above(k, i);
            if (top) return k;
        }
        return std::nullopt;
    };
    auto hard = label([&](std::size_t k, std::size_t i) { return yh[i] < yh[k]; });
    if (!hard) return Tri::True; // a tie: the hard model has no output here
    auto soft = label([&](std::size_t k, std::size_t i) { return ys[i].below(ys[k]); });
    if (!soft) return Tri::Unknown;
    return *soft == *hard ? Tri::True : Tri::False;
}

SoftWord evaluate_soft(const Model &m, const Word &w, const HardWord &hard,
                       const std::vector<Iv> &betas, long prec, bool with_tv) {
    SoftWord out;
    out.tv.resize(m.layers.size());
    for (std::size_t l = 0; l < m.layers.size(); ++l)
        out.tv[l].resize(m.layers[l].heads.size());
    SoftArith ar(hard, betas, prec, with_tv, out);
    std::vector<std::vector<Iv>> x = forward<Iv>(m, w, ar);
    for (std::size_t p : readout_positions(m, w.size()))
        out.readouts.push_back(readout<Iv>(m, x[p], ar));
    return out;
}

// ---- the prefix walk ---------------------------------------------------------------

bool looks_back_only(const Model &m) {
    for (const auto &f : m.features)
        if (f.expr.uses(Expr::Op::N)) return false;
    for (const auto &layer : m.layers)
        for (const auto &head : layer.heads)
            if (head.mask != Mask::Causal && head.mask != Mask::Strict) return false;
    return true;
}

struct PrefixWalk::State {
    const Model &m;
    std::optional<std::vector<Iv>> betas;
    long prec;
    HardWord hard;
    SoftWord soft;
    Prefix<SqrtSum> hard_state;
    Prefix<Iv> soft_state;
    HardArith hard_ar;
    std::optional<SoftArith> soft_ar;
    XVec hard_readout; // at the last position
    std::optional<std::vector<Iv>> soft_readout;

    State(const Model &model, std::optional<std::vector<Iv>> b, long p)
        : m(model), betas(std::move(b)), prec(p), hard_state(model), soft_state(model),
          hard_ar(model, hard) {
        hard.queries.resize(m.layers.size());
        soft.tv.resize(m.layers.size());
        for (std::size_t l = 0; l < m.layers.size(); ++l) {
            hard.queries[l].resize(m.layers[l].heads.size());
            soft.tv[l].resize(m.layers[l].heads.size());
        }
        if (betas) soft_ar.emplace(hard, *betas, prec, true, soft);
    }

    void at(std::size_t p, const XVec &x0) {
        for (std::size_t l = 0; l < m.layers.size(); ++l)
            for (std::size_t h = 0; h < m.layers[l].heads.size(); ++h) {
                hard.queries[l][h].resize(p + 1);
                hard.queries[l][h][p].reset();
                soft.tv[l][h].resize(p + 1);
                soft.tv[l][h][p].reset();
            }
        const XVec &xh = forward_one(m, hard_state, p, x0, hard_ar);
        hard_readout = readout<SqrtSum>(m, xh, hard_ar);
        soft_readout.reset();
        if (!soft_ar) return;
        const std::vector<Iv> &xs = forward_one(m, soft_state, p, x0, *soft_ar);
        soft_readout = readout<Iv>(m, xs, *soft_ar);
    }
};

PrefixWalk::PrefixWalk(const Model &m, std::optional<std::vector<Iv>> betas, long prec)
    : s_(std::make_unique<State>(m, std::move(betas), prec)) {
    if (m.bos) s_->at(0, initial(m, {})[0]);
}

PrefixWalk::~PrefixWalk() = default;

void PrefixWalk::extend(const Word &w) {
    const std::size_t p = w.size();
    XVec x0 = exact_features_at(s_->m, p, p);
    const Vec &e = s_->m.embedding[w[p - 1]];
    for (std::size_t c = 0; c < x0.size(); ++c)
        x0[c] += e[c];
    s_->at(p, x0);
}

const HardWord &PrefixWalk::hard() const {
    return s_->hard;
}

Judgement PrefixWalk::judge_last(const Word &w, const Q &eps, const std::string &criterion) const {
    const State &s = *s_;
    const std::size_t p = w.size();
    if (!s.soft_readout) return Judgement{Tri::Unknown, "no soft model"};
    Judgement j;
    if (criterion == "tv") { // BOS's query is new with the first symbol's
        for (std::size_t l = 0; l < s.m.layers.size(); ++l)
            for (std::size_t h = 0; h < s.m.layers[l].heads.size(); ++h)
                for (std::size_t i = p == 1 ? 0 : p; i <= p; ++i)
                    if (const auto &tv = s.soft.tv[l][h][i]; tv && within(*tv, eps) != Tri::True)
                        fold(j, within(*tv, eps),
                             "tv at layer " + std::to_string(l + 1) + " head " +
                                 std::to_string(h + 1) + " query " + std::to_string(i) + " = " +
                                 tv->text());
        return j;
    }
    const std::vector<std::size_t> ps = readout_positions(s.m, p);
    if (std::find(ps.begin(), ps.end(), p) == ps.end()) return j;
    fold(j, judge_readout(s.m, s.hard_readout, *s.soft_readout, eps, criterion, s.prec),
         "the read-out at position " + std::to_string(p));
    return j;
}

Tri within(const Iv &value, const Q &eps) {
    if (value.at_most(eps)) return Tri::True;
    return value.above(eps) ? Tri::False : Tri::Unknown;
}

Judgement judge_soft(const Model &m, const Word &w, const HardWord &hard,
                     const std::vector<Iv> &betas, const Q &eps, const std::string &criterion,
                     long prec) {
    Judgement j;
    SoftWord soft = evaluate_soft(m, w, hard, betas, prec, criterion == "tv");
    if (criterion == "tv") {
        for (std::size_t l = 0; l < soft.tv.size(); ++l)
            for (std::size_t h = 0; h < soft.tv[l].size(); ++h)
                for (std::size_t i = 0; i < soft.tv[l][h].size(); ++i) {
                    if (!soft.tv[l][h][i]) continue;
                    const Iv &tv = *soft.tv[l][h][i];
                    if (Tri t = within(tv, eps); t != Tri::True)
                        fold(j, t,
                             "tv at layer " + std::to_string(l + 1) + " head " +
                                 std::to_string(h + 1) + " query " + std::to_string(i) + " = " +
                                 tv.text());
                }
        return j;
    }
    std::vector<std::size_t> ps = readout_positions(m, w.size());
    for (std::size_t k = 0; k < ps.size(); ++k) {
        Tri t = judge_readout(m, hard.readouts[k], soft.readouts[k], eps, criterion, prec);
        if (t != Tri::True) fold(j, t, "the read-out at position " + std::to_string(ps[k]));
    }
    return j;
}
} // namespace minicheck
