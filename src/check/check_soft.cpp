// The checker's soft model: see check_soft.hpp. Its enclosures are plain
// (no relative-accuracy tricks): the checker only decides TV <= eps or
// TV > eps for an eps in (0, 1), so an absolute error far below eps is all
// it needs, and the caller raises the precision when a word is too close.
#include "check_soft.hpp"
#include "../eval/layer_ops.hpp"

#include <algorithm>

namespace tempcert::check {

namespace {

// The weights the tv criterion compares softmax with (the criterion's
// definition, written here again): the hard weights, except that a
// leftmost or rightmost head whose maximising positions all carry one value
// vector is compared with the uniform weights on them.
std::vector<Rational> compared(AttnKind kind, const QueryTrace &hard) {
    std::vector<Rational> h(hard.allowed.size(), Rational(0));
    const std::size_t k = hard.argmax.size();
    const bool uniform = kind == AttnKind::Average || (k > 1 && hard.ties_share_value);
    for (std::size_t a = 0; a < hard.allowed.size(); ++a) {
        std::size_t j = hard.allowed[a];
        bool in_max = std::binary_search(hard.argmax.begin(), hard.argmax.end(), j);
        if (!in_max) continue;
        if (uniform)
            h[a] = Rational(1, static_cast<long>(k));
        else if ((kind == AttnKind::Leftmost && j == hard.argmax.front()) ||
                 (kind == AttnKind::Rightmost && j == hard.argmax.back()))
            h[a] = 1;
    }
    return h;
}

// p_j = e_j / Z as above.
std::vector<Interval> softmax_weights(const RealVector &scores, const Real &beta, Prec prec) {
    std::vector<Interval> s;
    for (const auto &x : scores)
        s.push_back(x.enclose(prec));
    Rational c = s.front().upper_exact();
    for (const auto &x : s)
        c = std::max(c, x.upper_exact());
    Interval b = beta.enclose(prec), z(prec);
    std::vector<Interval> e;
    for (const auto &x : s) {
        e.push_back(exp(mul(b, sub(x, Interval(c, prec), prec), prec), prec));
        z = add(z, e.back(), prec);
    }
    for (auto &x : e)
        x = div(x, z, prec);
    return e;
}

// ---- the analytic bound (proofs/certificate.md, "The checker's bound") ----

// MPFR endpoints: lower (round down) and upper (round up) ends of a Real.
class Ends {
  public:
    explicit Ends(Prec prec) {
        mpfr_init2(lo_, prec);
        mpfr_init2(hi_, prec);
    }
    ~Ends() {
        mpfr_clear(lo_);
        mpfr_clear(hi_);
    }
    Ends(const Ends &) = delete;
    Ends &operator=(const Ends &) = delete;
    void set(const Real &r) {
        if (auto q = r.small()) {
            mpfr_set_si(lo_, q->num, MPFR_RNDD); // exact: 64 bits fit every precision used
            mpfr_set_si(hi_, q->num, MPFR_RNDU);
            mpfr_div_si(lo_, lo_, q->den, MPFR_RNDD);
            mpfr_div_si(hi_, hi_, q->den, MPFR_RNDU);
        } else if (auto b = r.big()) {
            mpfr_set_q(lo_, b->backend().data(), MPFR_RNDD);
            mpfr_set_q(hi_, b->backend().data(), MPFR_RNDU);
        } else {
            mpfi_get_left(lo_, r.interval()->raw());
            mpfi_get_right(hi_, r.interval()->raw());
        }
    }
    mpfr_ptr lo() { return lo_; }
    mpfr_ptr hi() { return hi_; }

  private:
    mpfr_t lo_, hi_;
};

// A running minimum of lower ends and maximum of upper ends.
struct Range {
    explicit Range(Prec prec) : ends(prec) {
        mpfr_init2(min, prec);
        mpfr_init2(max, prec);
        mpfr_set_inf(min, 1);
        mpfr_set_inf(max, -1);
    }
    ~Range() {
        mpfr_clear(min);
        mpfr_clear(max);
    }
    Range(const Range &) = delete;
    Range &operator=(const Range &) = delete;
    void add(const Real &r) {
        ends.set(r);
        mpfr_min(min, min, ends.lo(), MPFR_RNDD);
        mpfr_max(max, max, ends.hi(), MPFR_RNDU);
    }
    Ends ends;
    mpfr_t min, max;
};

Interval point(mpfr_srcptr x, Prec prec) {
    Interval r(prec);
    mpfi_set_fr(r.raw(), x);
    return r;
}

// An upper bound on TV when the compared weights are uniform on the k
// maximising positions: with L, U the least lower and largest upper end of
// their scores, H the largest upper end of the others' (N in all),
//   TV <= 1 - k e^{-beta (U - L)} / (k + (N - k) e^{-beta (L - H)}).
Rational tv_upper_bound(const RealVector &scores, const std::vector<Rational> &h, const Real &beta,
                        Prec prec) {
    Range in(prec), out(prec);
    std::size_t k = 0;
    for (std::size_t a = 0; a < scores.size(); ++a) {
        (h[a] != 0 ? in : out).add(scores[a]);
        k += h[a] != 0;
    }
    const std::size_t rest = scores.size() - k;
    Interval b = beta.enclose(prec), kk(static_cast<long>(k), prec);
    Interval spread = sub(point(in.max, prec), point(in.min, prec), prec);
    Interval y = exp(neg(mul(b, spread, prec)), prec), denominator = kk;
    if (rest > 0) {
        Interval gap = sub(point(in.min, prec), point(out.max, prec), prec);
        Interval x = exp(neg(mul(b, gap, prec)), prec);
        denominator = add(kk, mul(x, Rational(static_cast<long>(rest)), prec), prec);
    }
    Interval bound = sub(Interval(1L, prec), div(mul(kk, y, prec), denominator, prec), prec);
    Rational up = bound.is_finite() ? bound.upper_exact() : Rational(1);
    return up > 0 ? up : Rational(0);
}

// Sum_j p_j v_j enclosed from the TV bound t alone: it lies within
// t (vmax - vmin) of sum_j h_j v_j in each coordinate.
RealVector mixture_from_bound(const std::vector<Rational> &h, const Rational &t,
                              const std::vector<RealVector> &values,
                              const std::vector<std::size_t> &allowed, bool bos, std::size_t width,
                              Prec prec) {
    RealVector mix(width, Real(0L));
    for (std::size_t c = 0; c < width; ++c) {
        Range range(prec);
        for (std::size_t a = 0; a < allowed.size(); ++a) {
            const Real &v = values[detail::index_of(allowed[a], bos)][c];
            range.add(v);
            if (h[a] != 0) mix[c] = add(mix[c], mul(v, h[a], prec), prec);
        }
        Interval radius = mul(sub(point(range.max, prec), point(range.min, prec), prec), t, prec);
        mix[c] = add(mix[c], Real(hull(neg(radius), radius, prec)), prec); // [-r, r]
    }
    return mix;
}

} // namespace

QueryTrace soft_query(const Head &head, const QueryTrace &hard, const RealVector &x_query,
                      const std::vector<RealVector> &keys, const std::vector<RealVector> &values,
                      bool bos, std::size_t width, const Real &beta, Prec prec,
                      const Rational *fast_below) {
    QueryTrace q;
    q.query = hard.query;
    q.allowed = hard.allowed;
    if (q.allowed.empty()) {
        q.output.assign(width, Real(0L));
        return q;
    }
    q.scores = detail::scores(matvec(head.query, x_query, prec), keys, q.allowed, bos, prec);
    std::vector<Rational> h = compared(head.kind, hard);
    // the bound needs h uniform on the whole maximising set (not a point
    // mass on one of several tied positions)
    const bool uniform =
        static_cast<std::size_t>(std::count_if(
            h.begin(), h.end(), [](const Rational &x) { return x != 0; })) == hard.argmax.size();
    if (fast_below && uniform) {
        Rational t = tv_upper_bound(q.scores, h, beta, prec);
        if (t <= *fast_below) {
            q.tv = Real(Interval::hull(Rational(0), t, prec));
            q.output = matvec(
                head.output,
                mixture_from_bound(h, t, values, q.allowed, bos, head.value.size(), prec), prec);
            return q;
        }
    }
    std::vector<Interval> p = softmax_weights(q.scores, beta, prec);
    Interval sum(prec);
    for (std::size_t a = 0; a < p.size(); ++a) {
        sum = add(sum, abs(sub(p[a], Interval(h[a], prec), prec)), prec);
        q.weights.push_back(Real(p[a]));
    }
    q.tv = Real(mul(sum, Rational(1, 2), prec));
    q.output = detail::head_output(head, q.weights, values, q.allowed, bos, prec);
    return q;
}

Trace soft_trace(const Model &m, const Word &w, const std::vector<Real> &betas, const Trace &hard,
                 Prec prec, const Limits *budget, const Rational *fast_below) {
    Trace tr;
    tr.n = w.size();
    tr.bos = m.has_bos();
    tr.prec = prec;
    detail::run_layers(
        m, tr, detail::initial_activations(m, w, prec), prec,
        [&](std::size_t l, std::size_t h, std::size_t t, const RealVector &xq,
            const std::vector<RealVector> &keys, const std::vector<RealVector> &values) {
            if (budget) check_budget(*budget);
            return soft_query(m.layers[l].heads[h], hard.layers[l].heads[h].queries[t], xq, keys,
                              values, tr.bos, m.width, betas[l], prec, fast_below);
        });
    return tr;
}

} // namespace tempcert::check
