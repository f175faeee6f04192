// Count coordinates and counting heads in the layerwise method
// (layerwise_counts.hpp; proofs/layerwise.md, "Counting heads").
#include "layerwise_counts.hpp"

#include "tempcert/mask.hpp"

#include <algorithm>

namespace tempcert::layerwise_detail {

namespace {

std::string where(std::size_t l, std::size_t h) {
    return "layer " + std::to_string(l + 1) + " head " + std::to_string(h + 1);
}

bool all_zero(const Matrix &w) {
    for (const auto &row : w)
        for (const auto &x : row)
            if (x != 0) return false;
    return true;
}

Rational abs_of(const Rational &q) {
    return q < 0 ? Rational(-q) : q;
}

// gcd of two non-negative rationals (0 is the neutral element)
Rational rational_gcd(const Rational &a, const Rational &b) {
    if (a == 0) return b;
    if (b == 0) return a;
    Integer num =
        gcd(Integer(numerator(a) * denominator(b)), Integer(numerator(b) * denominator(a)));
    return Rational(num) / Rational(Integer(denominator(a) * denominator(b)));
}

Integer floor_of(const Rational &q) {
    Integer num = numerator(q), den = denominator(q); // den > 0
    Integer t = num / den;                            // toward zero
    if (t * den != num && num < 0) t -= 1;
    return t;
}

Integer ceil_of(const Rational &q) {
    Integer f = floor_of(q);
    return Rational(f) == q ? f : Integer(f + 1);
}

// One key value of a counting head: the values positions with it carry,
// and whether a real position or BOS can hold it.
struct KeyInfo {
    std::set<Vector> values;
    bool real = false;
};

// The least |x0 + G t| over the integers t in [tmin, tmax] that is not 0,
// and whether 0 is attained. G = 0: t = 0 only.
struct Nearest {
    std::optional<Rational> nonzero;
    bool zero = false;
};
Nearest nearest(const Rational &x0, const Rational &G, const Integer &tmin, const Integer &tmax) {
    Nearest r;
    auto consider = [&](const Rational &v) {
        if (v == 0) {
            r.zero = true;
            return;
        }
        Rational a = abs_of(v);
        if (!r.nonzero || a < *r.nonzero) r.nonzero = a;
    };
    if (G == 0) {
        consider(x0);
        return r;
    }
    if (tmin > tmax) return r;
    Integer tf = floor_of(-x0 / G);
    for (Integer t : {Integer(tf - 1), tf, Integer(tf + 1), Integer(tf + 2)}) {
        // the neighbours of the real minimiser, clamped into the range
        Integer u = std::clamp(t, tmin, tmax);
        consider(x0 + G * Rational(u));
    }
    return r;
}

} // namespace

bool reads(const Matrix &w, std::size_t c) {
    for (const auto &row : w)
        if (row[c] != 0) return true;
    return false;
}

bool writes(const Matrix &w, std::size_t c) {
    for (const auto &x : w[c])
        if (x != 0) return true;
    return false;
}

bool zero_scores(const Head &head) {
    return all_zero(head.query) || all_zero(head.key);
}

bool uniform_head(const Head &head) {
    return zero_scores(head) && head.kind == AttnKind::Average && head.mask == Mask::Causal;
}

bool reads_any(const Matrix &w, const CountCoords &counts) {
    for (const auto &[c, info] : counts)
        if (reads(w, c)) return true;
    return false;
}

void check_count_use(const Layer &layer, std::size_t l, const CountCoords &counts,
                     const std::set<std::size_t> &features) {
    if (counts.empty()) return;
    for (std::size_t h = 0; h < layer.heads.size(); ++h) {
        const Head &head = layer.heads[h];
        for (const auto &[c, info] : counts) {
            std::string what = "count coordinate " + std::to_string(c) + " (written by layer " +
                               std::to_string(info.layer) + " head " + std::to_string(info.head) +
                               ")";
            if (reads(head.value, c) || reads(head.key, c))
                throw Fail{where(l, h) + ": its value or key reads " + what +
                           "; only counting heads' queries may"};
            if (writes(head.output, c)) throw Fail{where(l, h) + ": its output writes " + what};
        }
        if (!reads_any(head.query, counts)) continue;
        if (head.kind != AttnKind::Average ||
            (head.mask != Mask::Causal && head.mask != Mask::Strict))
            throw Fail{where(l, h) +
                       ": its query reads a count coordinate, so it must be average-hard with a "
                       "causal or strict mask"};
        for (std::size_t f : features)
            if (reads(head.query, f) || reads(head.key, f))
                throw Fail{where(l, h) +
                           ": its query reads a count coordinate and its query or key reads "
                           "feature coordinate " +
                           std::to_string(f)};
    }
    if (!layer.ffn) return;
    for (const auto &[c, info] : counts)
        if (reads(layer.ffn->w1, c) || writes(layer.ffn->w2, c) || layer.ffn->b2[c] != 0)
            throw Fail{"layer " + std::to_string(l + 1) +
                       ": the feed-forward sublayer touches count coordinate " + std::to_string(c)};
}

void add_count_coords(const Layer &lay, std::size_t layer, std::size_t index,
                      const std::vector<Vector> &S, const std::vector<Vector> &B,
                      CountCoords &counts) {
    const Head &head = lay.heads[index];
    for (std::size_t c = 0; c < head.output.size(); ++c) {
        if (!writes(head.output, c)) continue;
        for (std::size_t h = 0; h < lay.heads.size(); ++h)
            if (h != index && writes(lay.heads[h].output, c))
                throw Fail{where(layer, h) + " writes coordinate " + std::to_string(c) +
                           ", which the uniform head " + std::to_string(index + 1) +
                           " of its layer writes (a count has one writer)"};
        if (lay.ffn && (reads(lay.ffn->w1, c) || writes(lay.ffn->w2, c) || lay.ffn->b2[c] != 0))
            throw Fail{"layer " + std::to_string(layer + 1) +
                       ": the feed-forward sublayer touches count coordinate " + std::to_string(c)};
        for (const auto *set : {&S, &B})
            for (const auto &d : *set)
                if (d[c] != 0)
                    throw Fail{where(layer, index) + ": a uniform head writes coordinate " +
                               std::to_string(c) +
                               ", which is not 0 before it (a count must start from 0)"};
        CountCoord cc;
        cc.layer = layer + 1;
        cc.head = index + 1;
        bool first = true;
        for (const auto &d : S) {
            Rational v = matvec(head.output, matvec(head.value, d))[c];
            if (first) cc.vmin = cc.vmax = v;
            cc.vmin = std::min(cc.vmin, v);
            cc.vmax = std::max(cc.vmax, v);
            first = false;
        }
        for (std::size_t k = 0; k < B.size(); ++k) {
            Rational b = matvec(head.output, matvec(head.value, B[k]))[c];
            if (k == 0) cc.bmin = cc.bmax = cc.b0 = b;
            cc.bmin = std::min(cc.bmin, b);
            cc.bmax = std::max(cc.bmax, b);
        }
        cc.step = 0;
        for (const auto &d : S)
            cc.step =
                rational_gcd(cc.step, matvec(head.output, matvec(head.value, d))[c] - cc.vmin);
        for (const auto &b : B)
            cc.step = rational_gcd(cc.step,
                                   abs_of(matvec(head.output, matvec(head.value, b))[c] - cc.b0));
        counts[c] = cc;
    }
}

HeadGap counting_head_gap(const Head &head, std::size_t l, std::size_t h,
                          const std::vector<Vector> &S, const std::vector<Vector> &B,
                          const CountCoords &counts, std::size_t n, bool bos,
                          const Limits &limits) {
    std::map<Vector, KeyInfo> keys;
    for (const auto *set : {&S, &B})
        for (const auto &d : *set) {
            KeyInfo &k = keys[matvec(head.key, d)];
            k.values.insert(matvec(head.value, d));
            k.real = k.real || set == &S;
        }
    for (const auto &[k, info] : keys)
        if (info.values.size() > 1)
            throw Fail{where(l, h) + ": positions with equal keys can carry different values, so "
                                     "a tie could leave the finite value set"};
    HeadGap g;
    g.layer = l + 1;
    g.head = h + 1;
    g.kind = head.kind;
    g.mask = head.mask;
    g.max_allowed = max_allowed(head.mask, n, bos);
    std::optional<Rational> least;
    for (auto k1 = keys.begin(); k1 != keys.end(); ++k1)
        for (auto k2 = std::next(k1); k2 != keys.end(); ++k2) {
            if (!k1->second.real && !k2->second.real) continue; // one BOS per word
            Vector delta = k1->first;
            for (std::size_t r = 0; r < delta.size(); ++r)
                delta[r] -= k2->first[r];
            // q . delta = a + (1/N) sum_c gamma_c z_c, z_c the numerators
            std::vector<std::pair<Rational, const CountCoord *>> terms;
            Rational G = 0;
            for (const auto &[c, info] : counts) {
                Rational gamma = 0;
                for (std::size_t r = 0; r < head.query.size(); ++r)
                    gamma += head.query[r][c] * delta[r];
                if (gamma == 0) continue;
                terms.push_back({gamma, &info});
                G = rational_gcd(G, abs_of(gamma) * info.step);
            }
            std::set<Rational> as;
            for (const auto &d : S)
                as.insert(dot(matvec(head.query, d), delta));
            bool same_value = k1->second.values == k2->second.values;
            for (std::size_t i = 1; i <= n; ++i) {
                if (i % 256 == 0) check_budget(limits);
                Rational N(static_cast<long>(i + (bos ? 1 : 0)));
                Rational O = 0, L = 0, U = 0, iq(static_cast<long>(i));
                for (const auto &[gamma, cc] : terms) {
                    Rational lo = gamma * (cc->bmin + iq * cc->vmin);
                    Rational hi = gamma * (cc->bmax + iq * cc->vmax);
                    O += gamma * (cc->b0 + iq * cc->vmin);
                    L += std::min(lo, hi);
                    U += std::max(lo, hi);
                }
                Integer tmin = G == 0 ? Integer(0) : ceil_of((L - O) / G);
                Integer tmax = G == 0 ? Integer(0) : floor_of((U - O) / G);
                for (const auto &a : as) {
                    Nearest r = nearest(N * a + O, G, tmin, tmax);
                    if (r.zero && !same_value)
                        throw Fail{where(l, h) + ": at query position " + std::to_string(i) +
                                   " two positions with different values can tie (the count "
                                   "lattice reaches a zero score difference)"};
                    if (r.nonzero && (!least || *r.nonzero / N < *least)) least = *r.nonzero / N;
                }
            }
        }
    if (least) g.min_gap = Real(*least);
    return g;
}

} // namespace tempcert::layerwise_detail
