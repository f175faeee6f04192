// The forward pass of docs/model-format.md, written once for both models:
// Num = Q (the hard model H, exact) or Iv (the soft model S_beta, enclosed).
// What differs between them is how a head weighs its positions and, for
// enclosures, how the feed-forward sublayer is evaluated; `Arith` supplies
// both.
//
// x_p = E(w_p) + features(p, n); per layer, every head reads the layer's
// input x: x'_i = x_i + sum_h W_O (sum_j alpha_ij W_V x_j), then
// x''_i = x'_i + W2 ReLU(W1 x'_i + b1) + b2.
#pragma once

#include "model.hpp"

namespace minicheck {
template <class Num> using NVec = std::vector<Num>;

// Positions are numbered as in the format: BOS is 0, the word 1..n. Vectors
// indexed by position keep index 0 empty without BOS.
inline std::vector<std::size_t> positions(const Model &m, std::size_t n) {
    std::vector<std::size_t> out;
    for (std::size_t p = m.bos ? 0 : 1; p <= n; ++p)
        out.push_back(p);
    return out;
}

// Exact initial activations x_p (rational, or with sqrt of rationals), and
// their positional part P(p, n) alone: exactly, or (features_at) as
// rationals for the arguments that read features as such (exit 3 for sqrt).
std::vector<XVec> initial(const Model &m, const std::vector<std::size_t> &word);
XVec exact_features_at(const Model &m, std::size_t p, std::size_t n);
Vec features_at(const Model &m, std::size_t p, std::size_t n);

template <class Num, class Arith> NVec<Num> times(const Mat &w, const NVec<Num> &x, Arith &ar) {
    NVec<Num> out;
    out.reserve(w.size());
    for (const auto &row : w) {
        Num acc = ar.lift(0);
        for (std::size_t c = 0; c < row.size(); ++c)
            if (row[c] != 0) acc = acc + row[c] * x[c];
        out.push_back(std::move(acc));
    }
    return out;
}

template <class Num, class Arith> Num dot(const NVec<Num> &a, const NVec<Num> &b, Arith &ar) {
    Num acc = ar.lift(0);
    for (std::size_t c = 0; c < a.size(); ++c)
        acc = acc + a[c] * b[c];
    return acc;
}

// Adds one head's output at query i to `into`: W_O sum_j alpha_ij W_V x_j
// over the positions of `ps` the mask allows (nothing where it allows
// none: the zero vector), alpha weighed by `ar.attend`.
template <class Num, class Arith>
void add_head(const Model &m, std::size_t l, std::size_t h, std::size_t i,
              const std::vector<std::size_t> &ps, const NVec<Num> &xi,
              const std::vector<NVec<Num>> &keys, const std::vector<NVec<Num>> &values,
              NVec<Num> &into, Arith &ar) {
    const Head &head = m.layers[l].heads[h];
    std::vector<std::size_t> allowed;
    for (std::size_t j : ps)
        if (mask_allows(head.mask, i, j)) allowed.push_back(j);
    if (allowed.empty()) return;
    NVec<Num> q = times(head.query, xi, ar), scores;
    for (std::size_t j : allowed)
        scores.push_back(dot(q, keys[j], ar));
    NVec<Num> weights = ar.attend(l, h, i, allowed, scores, values);
    NVec<Num> mix(head.value.size(), ar.lift(0));
    for (std::size_t a = 0; a < allowed.size(); ++a)
        for (std::size_t c = 0; c < mix.size(); ++c)
            mix[c] = mix[c] + weights[a] * values[allowed[a]][c];
    NVec<Num> out = times(head.output, mix, ar);
    for (std::size_t c = 0; c < m.width; ++c)
        into[c] = into[c] + out[c];
}

// The activations after the last layer, indexed by position.
template <class Num, class Arith>
std::vector<NVec<Num>> forward(const Model &m, const std::vector<std::size_t> &word, Arith &ar) {
    const std::size_t n = word.size();
    const std::vector<std::size_t> ps = positions(m, n);
    std::vector<NVec<Num>> x(n + 1);
    std::vector<XVec> x0 = initial(m, word);
    for (std::size_t p : ps)
        for (const auto &v : x0[p])
            x[p].push_back(ar.lift(v));
    for (std::size_t l = 0; l < m.layers.size(); ++l) {
        const Layer &layer = m.layers[l];
        std::vector<NVec<Num>> next = x;
        for (std::size_t h = 0; h < layer.heads.size(); ++h) {
            const Head &head = layer.heads[h];
            std::vector<NVec<Num>> keys(n + 1), values(n + 1);
            for (std::size_t p : ps) {
                keys[p] = times(head.key, x[p], ar);
                values[p] = times(head.value, x[p], ar);
            }
            for (std::size_t i : ps)
                add_head(m, l, h, i, ps, x[i], keys, values, next[i], ar);
        }
        if (layer.ffn)
            for (std::size_t p : ps)
                next[p] = ar.ffn(*layer.ffn, next[p]);
        x = std::move(next);
    }
    return x;
}

// ---- one position at a time (a prefix walk) -----------------------------------
// Where every mask looks back only (causal, strict) and no feature reads n,
// position p's activations depend on positions <= p alone: a walk over the
// words, symbol by symbol, evaluates each word's last position only.
bool looks_back_only(const Model &m);

template <class Num> struct Prefix {
    std::vector<std::vector<NVec<Num>>> x;                 // [layer][position]: its input
    std::vector<std::vector<std::vector<NVec<Num>>>> keys; // [layer][head][position]
    std::vector<std::vector<std::vector<NVec<Num>>>> values;

    explicit Prefix(const Model &m)
        : x(m.layers.size() + 1), keys(m.layers.size()), values(m.layers.size()) {
        for (std::size_t l = 0; l < m.layers.size(); ++l) {
            keys[l].resize(m.layers[l].heads.size());
            values[l].resize(m.layers[l].heads.size());
        }
    }
};

// Position p after positions 0..p-1 of the same word (what s holds there
// is theirs): x0 its initial activation; returns its activation after the
// last layer, kept in s.x.back()[p].
template <class Num, class Arith>
const NVec<Num> &forward_one(const Model &m, Prefix<Num> &s, std::size_t p, const XVec &x0,
                             Arith &ar) {
    const std::vector<std::size_t> ps = positions(m, p);
    auto put = [p](std::vector<NVec<Num>> &at, NVec<Num> v) {
        at.resize(p + 1);
        at[p] = std::move(v);
    };
    NVec<Num> in;
    for (const auto &v : x0)
        in.push_back(ar.lift(v));
    put(s.x[0], std::move(in));
    for (std::size_t l = 0; l < m.layers.size(); ++l) {
        const Layer &layer = m.layers[l];
        const NVec<Num> &xp = s.x[l][p];
        NVec<Num> next = xp;
        for (std::size_t h = 0; h < layer.heads.size(); ++h) {
            put(s.keys[l][h], times(layer.heads[h].key, xp, ar));
            put(s.values[l][h], times(layer.heads[h].value, xp, ar));
            add_head(m, l, h, p, ps, xp, s.keys[l][h], s.values[l][h], next, ar);
        }
        if (layer.ffn) next = ar.ffn(*layer.ffn, next);
        put(s.x[l + 1], std::move(next));
    }
    return s.x.back()[p];
}

// The read-out positions of a word of length n.
inline std::vector<std::size_t> readout_positions(const Model &m, std::size_t n) {
    if (m.position == "first") return {1};
    if (m.position == "last") return {n};
    std::vector<std::size_t> all;
    for (std::size_t p = 1; p <= n; ++p)
        all.push_back(p);
    return all;
}

// Linear: {y}; categorical: the class coordinates in the model's order.
template <class Num, class Arith> NVec<Num> readout(const Model &m, const NVec<Num> &x, Arith &ar) {
    if (m.categorical) {
        NVec<Num> out;
        for (const auto &c : m.classes)
            out.push_back(x[c.first]);
        return out;
    }
    Num y = ar.lift(m.bias);
    for (std::size_t c = 0; c < m.width; ++c)
        if (m.weights[c] != 0) y = y + m.weights[c] * x[c];
    return {y};
}
} // namespace minicheck
