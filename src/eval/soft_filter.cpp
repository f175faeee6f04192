// Softmax and TV in double intervals; see soft_filter.hpp and
// proofs/double-filter.md (the formulas are proofs/softmax-enclosure.md's).
#include "soft_filter.hpp"

namespace tempcert::detail {

DMatrix to_dmatrix(const Matrix &m) {
    DMatrix out;
    out.reserve(m.size());
    for (const auto &row : m)
        out.push_back(to_dvector(row));
    return out;
}

DVector to_dvector(const Vector &v) {
    DVector out;
    out.reserve(v.size());
    for (const auto &q : v)
        out.push_back(to_dinterval(q));
    return out;
}

DVector to_dvector(const RealVector &v, Prec prec) {
    DVector out;
    out.reserve(v.size());
    for (const auto &x : v)
        out.push_back(x.is_exact() ? to_dinterval(x.exact()) : to_dinterval(x.enclose(prec)));
    return out;
}

DInterval dot(const DVector &row, const DVector &x) {
    DInterval sum = DInterval::point(0);
    for (std::size_t k = 0; k < row.size(); ++k) {
        if (row[k].lo == 0 && row[k].hi == 0) continue;
        if (x[k].lo == 0 && x[k].hi == 0) continue;
        // a product by an exact +-1 entry is exact
        DInterval p = row[k].lo == row[k].hi && row[k].lo == 1    ? x[k]
                      : row[k].lo == row[k].hi && row[k].lo == -1 ? -x[k]
                                                                  : row[k] * x[k];
        sum = add_exact_zero(sum, p);
    }
    return sum;
}

DVector matvec(const DMatrix &m, const DVector &x) {
    DVector out;
    out.reserve(m.size());
    for (const auto &row : m)
        out.push_back(dot(row, x));
    return out;
}

DSoftmax softmax_filter(const DVector &scores, DInterval beta) {
    DSoftmax out{scores, {}, {}, beta};
    std::size_t m = scores.size();
    if (m == 1) {
        out.e.push_back(DInterval::point(1));
        out.weights.push_back(DInterval::point(1));
        return out;
    }
    std::size_t ref = 0;
    for (std::size_t k = 1; k < m; ++k)
        if (scores[ref].hi < scores[k].hi) ref = k;
    out.e.resize(m);
    for (std::size_t k = 0; k < m; ++k)
        out.e[k] = k == ref ? DInterval::point(1) : exp(beta * (scores[k] - scores[ref]));
    // rest_k = (sum of e before k) + (sum after k), each summed once
    DVector prefix(m + 1, DInterval::point(0)), suffix(m + 1, DInterval::point(0));
    for (std::size_t k = 0; k < m; ++k)
        prefix[k + 1] = add_exact_zero(prefix[k], out.e[k]);
    for (std::size_t k = m; k-- > 0;)
        suffix[k] = add_exact_zero(suffix[k + 1], out.e[k]);
    out.weights.resize(m);
    for (std::size_t k = 0; k < m; ++k)
        out.weights[k] = share(out.e[k], add_exact_zero(prefix[k], suffix[k + 1]));
    return out;
}

DInterval tv_filter(const std::vector<char> &on_support, const DSoftmax &sm) {
    DInterval on = DInterval::point(0), off = DInterval::point(0);
    std::size_t k = 0;
    for (std::size_t a = 0; a < on_support.size(); ++a) {
        if (on_support[a]) {
            on = add_exact_zero(on, sm.e[a]);
            ++k;
        } else {
            off = add_exact_zero(off, sm.e[a]);
        }
    }
    DInterval rest = share(off, on); // R / (T + R)
    if (k == 1) return rest;
    DInterval denom = DInterval::point(static_cast<double>(k)) * (on + off);
    DInterval sum = rest;
    for (std::size_t j = 0; j < on_support.size(); ++j) {
        if (!on_support[j]) continue;
        DInterval spread = DInterval::point(0);
        for (std::size_t i = 0; i < on_support.size(); ++i) {
            if (i == j || !on_support[i]) continue;
            DInterval ds = sm.s[i] - sm.s[j];
            if (sm.s[i].lo == sm.s[i].hi && sm.s[i].lo == sm.s[j].lo && sm.s[j].lo == sm.s[j].hi)
                continue; // an exact tie contributes exactly 0
            spread = add_exact_zero(spread, sm.e[j] * expm1(sm.beta * ds));
        }
        sum = sum + abs(add_exact_zero(off, spread)) / denom;
    }
    return sum * DInterval::point(0.5);
}

DVector apply_ffn(const DFfn &f, const DVector &x) {
    DVector hidden = matvec(f.w1, x);
    for (std::size_t k = 0; k < hidden.size(); ++k)
        hidden[k] = relu(add_exact_zero(hidden[k], f.b1[k]));
    DVector out = matvec(f.w2, hidden);
    for (std::size_t c = 0; c < out.size(); ++c)
        out[c] = add_exact_zero(add_exact_zero(x[c], out[c]), f.b2[c]);
    return out;
}

} // namespace tempcert::detail
