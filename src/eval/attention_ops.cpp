// Per-query attention primitives shared by the whole-word evaluators and the
// prefix-sharing evaluator: deciding the maximum (hard) and enclosing the
// softmax and its total variation (soft; proofs/softmax-enclosure.md).
#include "attention_ops.hpp"
#include "layer_ops.hpp"
#include "tempcert/error.hpp"

#include <mpfr.h>

#include <algorithm>

namespace tempcert::detail {

namespace {

[[noreturn]] void undecided_tie(std::size_t layer, std::size_t head, std::size_t query,
                                std::size_t a, std::size_t b) {
    throw Undecided("layer " + std::to_string(layer) + " head " + std::to_string(head) + " query " +
                    std::to_string(query) + ": cannot decide whether the scores of " +
                    "positions " + std::to_string(a) + " and " + std::to_string(b) +
                    " tie (irrational features)");
}

// Fills argmax, gap and runner-up of `q` from its scores.
} // namespace

void decide_maximum(QueryTrace &q, std::size_t layer, std::size_t head, Prec prec) {
    const auto &s = q.scores;
    std::size_t best = 0;
    for (std::size_t a = 1; a < s.size(); ++a) {
        Tri lt = less(s[best], s[a], prec);
        if (lt == Tri::True)
            best = a;
        else if (lt == Tri::Unknown && equal(s[best], s[a], prec) != Tri::True)
            undecided_tie(layer, head, q.query, q.allowed[best], q.allowed[a]);
    }
    std::optional<std::size_t> second;
    for (std::size_t a = 0; a < s.size(); ++a) {
        Tri eq = equal(s[a], s[best], prec);
        if (eq == Tri::Unknown) undecided_tie(layer, head, q.query, q.allowed[best], q.allowed[a]);
        if (eq == Tri::True) {
            q.argmax.push_back(q.allowed[a]);
            continue;
        }
        if (!second) {
            second = a;
            continue;
        }
        Tri lt = less(s[*second], s[a], prec);
        if (lt == Tri::True)
            second = a;
        else if (lt == Tri::Unknown && equal(s[*second], s[a], prec) != Tri::True)
            undecided_tie(layer, head, q.query, q.allowed[*second], q.allowed[a]);
    }
    if (second) {
        q.gap = sub(s[best], s[*second], prec);
        q.runner_up = q.allowed[*second];
    }
}

RealVector hard_weights(AttnKind kind, const QueryTrace &q) {
    RealVector w(q.allowed.size(), Real(0L));
    std::size_t count = q.argmax.size();
    for (std::size_t a = 0; a < q.allowed.size(); ++a) {
        std::size_t j = q.allowed[a];
        bool in_m = std::find(q.argmax.begin(), q.argmax.end(), j) != q.argmax.end();
        if (!in_m) continue;
        if (kind == AttnKind::Average)
            w[a] = Rational(1, static_cast<long>(count));
        else if (kind == AttnKind::Leftmost && j == q.argmax.front())
            w[a] = 1L;
        else if (kind == AttnKind::Rightmost && j == q.argmax.back())
            w[a] = 1L;
    }
    return w;
}

bool same_values(const QueryTrace &q, const std::vector<RealVector> &values, bool bos,
                 std::size_t layer, std::size_t head, Prec prec) {
    const RealVector &first = values[index_of(q.argmax.front(), bos)];
    for (std::size_t j : q.argmax) {
        const RealVector &v = values[index_of(j, bos)];
        for (std::size_t c = 0; c < v.size(); ++c) {
            Tri eq = equal(v[c], first[c], prec);
            if (eq == Tri::Unknown)
                throw Undecided("layer " + std::to_string(layer) + " head " + std::to_string(head) +
                                " query " + std::to_string(q.query) +
                                ": cannot decide whether tied positions carry equal values");
            if (eq == Tri::False) return false;
        }
    }
    return true;
}

namespace {

std::size_t reference_index(const std::vector<Interval> &s) {
    std::size_t ref = 0;
    mpfr_t a, b;
    mpfr_init2(a, s[0].prec());
    mpfr_init2(b, s[0].prec());
    for (std::size_t k = 1; k < s.size(); ++k) {
        mpfr_set_prec(a, s[ref].prec());
        mpfr_set_prec(b, s[k].prec());
        mpfi_get_right(a, s[ref].raw());
        mpfi_get_right(b, s[k].raw());
        if (mpfr_less_p(a, b)) ref = k;
    }
    mpfr_clear(a);
    mpfr_clear(b);
    return ref;
}

} // namespace

Softmax softmax(const RealVector &scores, const Real &beta, Prec prec) {
    Softmax out{{}, beta.enclose(prec), {}, {}};
    std::size_t m = scores.size();
    for (const auto &x : scores)
        out.s.push_back(x.enclose(prec));
    if (m == 1) {
        out.e.emplace_back(1L, prec);
        out.weights.push_back(Real(1L));
        return out;
    }
    std::size_t ref = reference_index(out.s);
    for (std::size_t k = 0; k < m; ++k)
        out.e.push_back(k == ref ? Interval(1L, prec)
                                 : exp(mul(out.beta, sub(out.s[k], out.s[ref], prec), prec), prec));
    std::vector<Interval> prefix(m + 1, Interval(prec)), suffix(m + 1, Interval(prec));
    for (std::size_t k = 0; k < m; ++k)
        prefix[k + 1] = add(prefix[k], out.e[k], prec);
    for (std::size_t k = m; k-- > 0;)
        suffix[k] = add(suffix[k + 1], out.e[k], prec);
    for (std::size_t k = 0; k < m; ++k)
        out.weights.push_back(share(out.e[k], add(prefix[k], suffix[k + 1], prec), prec));
    return out;
}

// The hard weights the tv criterion compares with (SPEC 5.3): a unique-hard
// head whose tied positions carry one value vector is compared with the
// average over its maximising set. Either way the result is uniform on its
// support S.
RealVector compared_weights(AttnKind kind, const QueryTrace &hard) {
    if (kind == AttnKind::Average || hard.argmax.size() <= 1 || !hard.ties_share_value)
        return hard.weights;
    RealVector w(hard.allowed.size(), Real(0L));
    for (std::size_t a = 0; a < hard.allowed.size(); ++a)
        if (std::find(hard.argmax.begin(), hard.argmax.end(), hard.allowed[a]) != hard.argmax.end())
            w[a] = Rational(1, static_cast<long>(hard.argmax.size()));
    return w;
}

// TV(p, h) for h uniform on its support S (size k), with T and R the
// exp-masses on and off S:
//   TV = 1/2 (sum_{j in S} |1/k - p_j| + R/(T+R)),
//   1/k - p_j = (R + sum_{i in S} (e_i - e_j)) / (k (T+R)),
// and e_i - e_j = e_j expm1(beta (s_i - s_j)), exactly 0 for exact ties. So
// the enclosure keeps relative accuracy when TV is tiny (the common case),
// instead of an absolute error of 2^-prec. See proofs/softmax-enclosure.md.
Real total_variation(const RealVector &h, const Softmax &sm, Prec prec) {
    std::vector<std::size_t> support;
    Interval on(prec), off(prec);
    for (std::size_t a = 0; a < h.size(); ++a) {
        if (h[a].is_zero())
            off = add(off, sm.e[a], prec);
        else {
            on = add(on, sm.e[a], prec);
            support.push_back(a);
        }
    }
    Interval rest = share(off, on, prec); // R/(T+R)
    if (support.size() == 1) return rest;
    Interval total = add(on, off, prec);
    Interval k(static_cast<long>(support.size()), prec);
    Interval sum = rest;
    for (std::size_t j : support) {
        Interval spread(prec);
        for (std::size_t i : support) {
            if (i == j) continue;
            Interval ds = sub(sm.s[i], sm.s[j], prec);
            if (mpfi_is_zero(ds.raw())) continue;
            spread = add(spread, mul(sm.e[j], expm1(mul(sm.beta, ds, prec), prec), prec), prec);
        }
        Interval gap = div(abs(add(off, spread, prec)), mul(k, total, prec), prec);
        sum = add(sum, gap, prec);
    }
    return mul(sum, Rational(1, 2), prec);
}

QueryTrace hard_query(const Head &head, std::size_t query, const RealVector &x_query,
                      const std::vector<RealVector> &keys, const std::vector<RealVector> &values,
                      std::size_t n, bool bos, std::size_t width, std::size_t layer,
                      std::size_t head_no, Prec prec) {
    QueryTrace q;
    q.query = query;
    q.allowed = allowed_positions(head.mask, query, n, bos);
    if (q.allowed.empty()) {
        q.output.assign(width, Real(0L));
        return q;
    }
    q.scores = scores(matvec(head.query, x_query, prec), keys, q.allowed, bos, prec);
    decide_maximum(q, layer, head_no, prec);
    q.weights = hard_weights(head.kind, q);
    q.ties_share_value = same_values(q, values, bos, layer, head_no, prec);
    q.output = head_output(head, q.weights, values, q.allowed, bos, prec);
    return q;
}

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
    q.scores = scores(matvec(head.query, x_query, prec), keys, q.allowed, bos, prec);
    Softmax sm = softmax(q.scores, beta, prec);
    q.weights = sm.weights;
    q.tv = total_variation(compared_weights(head.kind, hard), sm, prec);
    q.output = head_output(head, q.weights, values, q.allowed, bos, prec);
    return q;
}

} // namespace tempcert::detail
