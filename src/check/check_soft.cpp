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
        bool in_max = std::find(hard.argmax.begin(), hard.argmax.end(), j) != hard.argmax.end();
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

} // namespace

QueryTrace soft_query(const Head &head, const QueryTrace &hard, const RealVector &x_query,
                      const std::vector<RealVector> &keys, const std::vector<RealVector> &values,
                      bool bos, std::size_t width, const Real &beta, Prec prec) {
    QueryTrace q;
    q.query = hard.query;
    q.allowed = hard.allowed;
    if (q.allowed.empty()) {
        q.output.assign(width, Real(0L));
        return q;
    }
    q.scores = detail::scores(matvec(head.query, x_query, prec), keys, q.allowed, bos, prec);
    std::vector<Interval> p = softmax_weights(q.scores, beta, prec);
    std::vector<Rational> h = compared(head.kind, hard);
    Interval sum(prec);
    for (std::size_t a = 0; a < p.size(); ++a) {
        sum = add(sum, abs(sub(p[a], Interval(h[a], prec), prec)), prec);
        q.weights.push_back(Real(p[a]));
    }
    q.tv = Real(mul(sum, Rational(1, 2), prec));
    q.output = detail::head_output(head, q.weights, values, q.allowed, bos, prec);
    return q;
}

Trace soft_trace(const Model &m, const Word &w, const std::vector<Real> &betas,
                 const Trace &hard, Prec prec, const Limits *budget) {
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
                              values, tr.bos, m.width, betas[l], prec);
        });
    return tr;
}

} // namespace tempcert::check
