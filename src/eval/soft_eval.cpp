// Evaluation of the soft model S_beta (SPEC 2.3, 5.1): every head is
// softmax at inverse temperature beta; weights, activations and read-outs
// are outward-rounded intervals, precision rising until each weight is
// narrower than requested.
//
// Weights are computed as shares e_j / (e_j + r_j) with e_j = exp(beta
// (s_j - s_ref)) and r_j the sum of the other terms (prefix and suffix
// sums), which encloses the weight tightly and never overflows since s_ref
// has the greatest upper endpoint. See proofs/softmax-enclosure.md.
#include "layer_ops.hpp"
#include "tempcert/error.hpp"
#include "tempcert/eval.hpp"

#include <mpfr.h>

namespace tempcert {

namespace {

using namespace detail;

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

struct Softmax {
    std::vector<Interval> s; // scores
    Interval beta;
    std::vector<Interval> e; // exp(beta (s_j - s_ref))
    RealVector weights;
};

Softmax softmax(const RealVector &scores, const Real &beta, Prec prec) {
    Softmax out{{}, beta.enclose(prec), {}, {}};
    std::size_t m = scores.size();
    for (const auto &x : scores) out.s.push_back(x.enclose(prec));
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
    for (std::size_t k = 0; k < m; ++k) prefix[k + 1] = add(prefix[k], out.e[k], prec);
    for (std::size_t k = m; k-- > 0;) suffix[k] = add(suffix[k + 1], out.e[k], prec);
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
        if (h[a].is_zero()) off = add(off, sm.e[a], prec);
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

bool narrow(const RealVector &w, const Rational &width) {
    for (const auto &x : w)
        if (!x.is_exact() && !x.interval()->narrower_than(width)) return false;
    return true;
}

} // namespace

Trace evaluate_soft_at(const Model &m, const Word &w, const BetaSpec &beta, const Trace &hard,
                       Prec prec, const Rational &width) {
    Trace tr;
    tr.n = w.size();
    tr.bos = m.has_bos();
    tr.prec = prec;
    std::vector<RealVector> x = initial_activations(m, w, prec);
    tr.initial = x;
    for (std::size_t l = 0; l < m.layers.size(); ++l) {
        const Layer &layer = m.layers[l];
        Real b = beta.at(l, tr.n, prec);
        LayerTrace lt;
        std::vector<RealVector> half = x;
        for (std::size_t h = 0; h < layer.heads.size(); ++h) {
            const Head &head = layer.heads[h];
            std::vector<RealVector> keys, values;
            for (const auto &xt : x) {
                keys.push_back(matvec(head.key, xt, prec));
                values.push_back(matvec(head.value, xt, prec));
            }
            HeadTrace ht;
            for (std::size_t t = 0; t < x.size(); ++t) {
                const QueryTrace &hq = hard.layers[l].heads[h].queries[t];
                QueryTrace q;
                q.query = position_of(t, tr.bos);
                q.allowed = hq.allowed;
                if (q.allowed.empty()) {
                    q.output.assign(m.width, Real(0L));
                    ht.queries.push_back(std::move(q));
                    continue;
                }
                q.scores = scores(matvec(head.query, x[t], prec), keys, q.allowed, tr.bos, prec);
                Softmax sm = softmax(q.scores, b, prec);
                q.weights = sm.weights;
                q.tv = total_variation(compared_weights(head.kind, hq), sm, prec);
                if (!narrow(q.weights, width)) tr.width_reached = false;
                q.output = head_output(head, q.weights, values, q.allowed, tr.bos, prec);
                half[t] = add_vectors(half[t], q.output, prec);
                ht.queries.push_back(std::move(q));
            }
            lt.heads.push_back(std::move(ht));
        }
        lt.after_attention = half;
        if (layer.ffn)
            for (auto &v : half) v = apply_ffn(*layer.ffn, v, prec);
        lt.after_ffn = half;
        x = std::move(half);
        tr.layers.push_back(std::move(lt));
    }
    tr.outputs = readouts(m, x, tr.n, tr.bos, prec);
    return tr;
}

Trace evaluate_soft(const Model &m, const Word &w, const BetaSpec &beta, const Trace &hard,
                    const SoftOptions &options) {
    const PrecisionPolicy &p = options.precision;
    for (Prec prec = p.start;; prec *= 2) {
        if (prec > p.cap) prec = p.cap;
        try {
            Trace tr = evaluate_soft_at(m, w, beta, hard, prec, options.target_width);
            if (tr.width_reached || prec >= p.cap) return tr;
        } catch (const Undecided &e) {
            if (prec >= p.cap)
                throw Undecided(std::string(e.what()) + " at " + std::to_string(prec) +
                                " bits (the precision cap, --prec-cap)");
        }
    }
}

} // namespace tempcert
