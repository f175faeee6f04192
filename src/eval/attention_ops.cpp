// Softmax per query: enclosing the weights and their total variation from
// the hard weights (proofs/softmax-enclosure.md), and one soft query.
#include "attention_ops.hpp"
#include "layer_ops.hpp"
#include "tempcert/error.hpp"

#include <mpfr.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <unordered_map>

namespace tempcert::detail {
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

// For each position, its class: equal exact scores share one (and an
// inexact score is a class of its own). Classes are numbered in order of
// first appearance, so all-distinct scores get classes 0, 1, 2, ...
// Machine-integer scores (reduced, so equal values have equal pairs) are
// looked up by hash; equal values held one small and one big would only
// make two classes of one value, which is never wrong, only less shared.
std::vector<std::size_t> score_classes(const RealVector &scores) {
    struct PairHash {
        std::size_t operator()(const std::pair<std::int64_t, std::int64_t> &p) const {
            return std::hash<std::int64_t>()(p.first) * 1000003u ^
                   std::hash<std::int64_t>()(p.second);
        }
    };
    std::vector<std::size_t> cls(scores.size());
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, std::size_t, PairHash> small;
    std::map<Rational, std::size_t> big;
    std::size_t next = 0;
    for (std::size_t a = 0; a < scores.size(); ++a) {
        const Real &x = scores[a];
        std::size_t *found = nullptr;
        bool fresh = true;
        if (const SmallRational *q = x.small()) {
            auto [it, inserted] = small.emplace(std::pair(q->num, q->den), next);
            found = &it->second, fresh = inserted;
        } else if (const Rational *q = x.big()) {
            auto [it, inserted] = big.emplace(*q, next);
            found = &it->second, fresh = inserted;
        }
        cls[a] = found ? *found : next;
        if (fresh) ++next;
    }
    return cls;
}

// The classes of the support's positions among themselves: softmax's
// classes, renumbered in order of first appearance on the support.
std::vector<std::size_t> support_classes(const std::vector<std::size_t> &classes,
                                         const std::vector<std::size_t> &support) {
    constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    std::vector<std::size_t> renumbered(classes.size(), kNone), out(support.size());
    std::size_t next = 0;
    for (std::size_t a = 0; a < support.size(); ++a) {
        std::size_t &c = renumbered[classes[support[a]]];
        if (c == kNone) c = next++;
        out[a] = c;
    }
    return out;
}

// The number of classes, the first member of each and their sizes.
struct ClassSizes {
    std::vector<std::size_t> first, count;
};
ClassSizes class_sizes(const std::vector<std::size_t> &cls) {
    std::size_t classes = cls.empty() ? 0 : *std::max_element(cls.begin(), cls.end()) + 1;
    ClassSizes out{std::vector<std::size_t>(classes, cls.size()),
                   std::vector<std::size_t>(classes, 0)};
    for (std::size_t a = 0; a < cls.size(); ++a) {
        if (out.first[cls[a]] == cls.size()) out.first[cls[a]] = a;
        ++out.count[cls[a]];
    }
    return out;
}

} // namespace

Softmax softmax(const RealVector &scores, const Real &beta, Prec prec) {
    Softmax out{scores, {}, beta.enclose(prec), {}, {}, {}};
    std::size_t m = scores.size();
    for (const auto &x : scores)
        out.s.push_back(x.enclose(prec));
    if (m == 1) {
        out.e.emplace_back(1L, prec);
        out.weights.push_back(Real(1L));
        out.classes = {0};
        return out;
    }
    // Positions whose scores are equal exact rationals have equal true
    // e_k and weights: one exp and one share per class of such positions
    // (proofs/softmax-enclosure.md, Claim 1), which on a long word with few
    // distinct scores (every first layer scoring by symbol) saves nearly
    // every exp. With all scores distinct the classes are the positions in
    // order and the sums below are the per-position ones.
    const std::size_t ref = reference_index(out.s);
    out.classes = score_classes(scores);
    const std::vector<std::size_t> &cls = out.classes;
    const ClassSizes sizes = class_sizes(cls);
    const std::size_t classes = sizes.first.size();
    std::vector<Interval> e;
    e.reserve(classes);
    for (std::size_t c = 0; c < classes; ++c) // the reference's class: s_k - s_ref is 0
        e.push_back(
            c == cls[ref]
                ? Interval(1L, prec)
                : exp(mul(out.beta, sub(out.s[sizes.first[c]], out.s[ref], prec), prec), prec));
    // sum + e_c times `count` (no product for the usual count of 1)
    auto plus = [&](const Interval &sum, std::size_t c, std::size_t count) {
        if (count == 1) return add(sum, e[c], prec);
        return add(sum, mul(e[c], Interval(static_cast<long>(count), prec), prec), prec);
    };
    std::vector<Interval> prefix(classes + 1, Interval(prec)), suffix(classes + 1, Interval(prec));
    for (std::size_t c = 0; c < classes; ++c)
        prefix[c + 1] = plus(prefix[c], c, sizes.count[c]);
    for (std::size_t c = classes; c-- > 0;)
        suffix[c] = plus(suffix[c + 1], c, sizes.count[c]);
    RealVector weight;
    weight.reserve(classes);
    for (std::size_t c = 0; c < classes; ++c) {
        Interval rest = add(prefix[c], suffix[c + 1], prec);              // the other classes
        if (sizes.count[c] > 1) rest = plus(rest, c, sizes.count[c] - 1); // and its own
        weight.emplace_back(share(e[c], rest, prec));
    }
    if (classes == m) { // each position its own class, in order
        out.e = std::move(e);
        out.weights = std::move(weight);
        return out;
    }
    out.e.reserve(m);
    out.weights.reserve(m);
    for (std::size_t k = 0; k < m; ++k) {
        out.e.push_back(e[cls[k]]);
        out.weights.push_back(weight[cls[k]]);
    }
    return out;
}

// The hard weights the tv criterion compares with (docs/semantics.md): a unique-hard
// head whose tied positions carry one value vector is compared with the
// average over its maximising set. Either way the result is uniform on its
// support S.
RealVector compared_weights(AttnKind kind, const QueryTrace &hard) {
    if (kind == AttnKind::Average || hard.argmax.size() <= 1 || !hard.ties_share_value)
        return hard.weights;
    RealVector w(hard.allowed.size(), Real(0L));
    for (std::size_t a = 0; a < hard.allowed.size(); ++a)
        if (std::binary_search(hard.argmax.begin(), hard.argmax.end(), hard.allowed[a]))
            w[a] = Rational(1, static_cast<long>(hard.argmax.size()));
    return w;
}

namespace {

// The width of an enclosure, rounded up (only compared, to pick a reference).
double width_of(const Interval &x) {
    mpfr_t d;
    mpfr_init2(d, 53);
    mpfi_diam_abs(d, x.raw());
    double w = mpfr_get_d(d, MPFR_RNDU);
    mpfr_clear(d);
    return w;
}

} // namespace

// TV(p, h) for h uniform on its support S (size k), with T and R the
// exp-masses on and off S:
//   TV = 1/2 (sum_{j in S} |1/k - p_j| + R/(T+R)),
//   1/k - p_j = (R + sum_{i in S} (e_i - e_j)) / (k (T+R)),
// and e_i - e_j = e_r (expm1(beta (s_i - s_r)) - expm1(beta (s_j - s_r))), exactly 0
// for exact ties. So the enclosure keeps relative accuracy when TV is tiny
// (the common case), instead of an absolute error of 2^-prec. See
// proofs/softmax-enclosure.md.
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
    // Positions whose scores are exactly equal have e_i - e_j = 0: the
    // support is grouped into classes of equal exact scores (an inexact
    // score is a class of its own), which share one delta below, so an
    // all-tied support, the usual case, needs no expm1 call at all.
    std::vector<std::size_t> cls = support_classes(sm.classes, support);
    const ClassSizes sizes = class_sizes(cls);
    const std::size_t classes = sizes.first.size();
    const std::vector<std::size_t> &first = sizes.first, &count = sizes.count;
    // Per class c, delta_c = expm1(beta (s_c - s_r)) against a reference
    // position r of the support: e_i = e_r (1 + delta_i) for the true
    // scores, so sum_{i in S} (e_i - e_j) = e_r (D - k delta_j) with
    // D = sum_c count_c delta_c: one expm1 per class instead of one per pair
    // of classes (a support of k distinct inexact scores cost k^2, which
    // made a long word's exact check of an average head cubic). r is the
    // narrowest score, and its own class has delta exactly 0, so an
    // all-tied support still gives a spread of exactly 0.
    std::size_t r = 0;
    double narrowest = 0;
    for (std::size_t a = 0; a < support.size(); ++a) {
        double w = width_of(sm.s[support[a]]);
        if (a == 0 || w < narrowest) r = a, narrowest = w;
    }
    std::vector<Interval> delta(classes, Interval(prec));
    Interval D(prec);
    const Interval &sr = sm.s[support[r]];
    for (std::size_t c = 0; c < classes; ++c) {
        if (c == cls[r]) continue; // exactly 0
        Interval ds = sub(sm.s[support[first[c]]], sr, prec);
        if (mpfi_is_zero(ds.raw())) continue;
        delta[c] = expm1(mul(sm.beta, ds, prec), prec);
        D = add(D, mul(delta[c], Interval(static_cast<long>(count[c]), prec), prec), prec);
    }
    const Interval &er = sm.e[support[r]];
    for (std::size_t a = 0; a < support.size(); ++a) {
        Interval spread = mul(er, sub(D, mul(k, delta[cls[a]], prec), prec), prec);
        Interval gap = div(abs(add(off, spread, prec)), mul(k, total, prec), prec);
        sum = add(sum, gap, prec);
    }
    return mul(sum, Rational(1, 2), prec);
}

bool weights_narrower_than(const RealVector &weights, const Rational &width) {
    for (const auto &x : weights)
        if (!x.is_exact() && !x.interval()->narrower_than(width)) return false;
    return true;
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
