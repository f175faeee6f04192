// Layerwise certification (docs/semantics.md; proofs/layerwise.md).
//
// Preconditions (checked): rational features; no value, feed-forward
// or output matrix touches a feature coordinate except queries and keys
// reading it (so x_j = d_j + P(j) with d_j from a finite set S_l); every
// head's ties carry one value. Then per layer:
//  1. each head's gap is analysed symbolically over the virtual alphabet
//     S_{l-1} projected on what the head reads (every position picks any
//     element: an over-approximation, so the gap is a lower bound). BOS
//     holds one element of its own set B_{l-1} in a word: one analysis per
//     element, the least gap over them;
//  2. its output lies in { W_O W_V d : d in S_{l-1} or B_{l-1} } (plus 0 for an empty
//     allowed set); the soft output differs from the hard one by at most
//     TV * span on each coordinate, TV <= eps at beta >= Lemma GT's bound;
//  3. the feed-forward sublayer is checked on every hard half-activation:
//     every ReLU keeps its phase within that radius, so it is affine there;
//     coordinates its Jacobian connects to perturbed ones are "tainted" and
//     must never be read by a later head, sublayer or the read-out.
// By induction the soft model's untainted coordinates equal the hard ones at
// every layer, so every layer's scores are the hard scores.
#include "tempcert/mask.hpp"
#include "tempcert/layerwise.hpp"
#include "tempcert/error.hpp"
#include "tempcert/symbolic.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace tempcert {

namespace {

Vector times(const Matrix &w, const Vector &x) {
    Vector out(w.size(), Rational(0));
    for (std::size_t r = 0; r < w.size(); ++r)
        for (std::size_t c = 0; c < x.size(); ++c)
            if (w[r][c] != 0 && x[c] != 0) out[r] += w[r][c] * x[c];
    return out;
}

bool reads(const Matrix &w, std::size_t coord) {
    for (const auto &row : w)
        if (row[coord] != 0) return true;
    return false;
}
bool writes(const Matrix &w, std::size_t coord) {
    for (const auto &x : w[coord])
        if (x != 0) return true;
    return false;
}

std::string vec_text(const Vector &v) {
    std::string s = "(";
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + to_string(v[i]);
    return s + ")";
}

struct Fail {
    std::string why;
};

} // namespace

LayerwiseResult certify_layerwise(const Model &m, std::size_t n, const Rational &eps,
                                  const Limits &limits, bool with_profile) {
    LayerwiseResult res;
    const std::size_t cap = limits.max_values; // most hard vectors tracked per layer
    try {
        if (!m.is_rational()) throw Fail{"the model has irrational features"};
        std::set<std::size_t> features;
        for (const auto &f : m.positions)
            features.insert(f.dim);
        for (std::size_t l = 0; l < m.layers.size(); ++l) {
            const Layer &layer = m.layers[l];
            for (std::size_t h = 0; h < layer.heads.size(); ++h)
                for (std::size_t c : features) {
                    if (reads(layer.heads[h].value, c))
                        throw Fail{"layer " + std::to_string(l + 1) + " head " +
                                   std::to_string(h + 1) + ": its value reads feature coordinate " +
                                   std::to_string(c)};
                    if (writes(layer.heads[h].output, c))
                        throw Fail{"layer " + std::to_string(l + 1) + " head " +
                                   std::to_string(h + 1) +
                                   ": its output writes feature coordinate " + std::to_string(c)};
                }
            if (layer.ffn)
                for (std::size_t c : features)
                    if (reads(layer.ffn->w1, c) || writes(layer.ffn->w2, c) ||
                        layer.ffn->b2[c] != 0)
                        throw Fail{"layer " + std::to_string(l + 1) +
                                   ": the feed-forward sublayer touches feature coordinate " +
                                   std::to_string(c)};
        }
        // S_0: the embeddings (feature parts are added per position).
        std::vector<Vector> S, B; // free positions' hard values; BOS's (empty: no BOS)
        for (const auto &sym : m.alphabet)
            S.push_back(m.embedding.at(sym));
        if (m.has_bos()) B.push_back(m.embedding.at(*m.bos));
        std::set<std::size_t> tainted; // coordinates the soft model may perturb
        Rational best = 0;
        bool any = false;
        for (std::size_t l = 0; l < m.layers.size(); ++l) {
            check_budget(limits);
            const Layer &layer = m.layers[l];
            LayerwiseLayer info;
            info.values = S.size();
            info.bos_values = B.size();
            info.beta = lemma_gt(0, std::nullopt, eps, kPrecStart);
            // nothing in this layer may read what earlier layers perturbed
            for (std::size_t c : tainted) {
                for (std::size_t h = 0; h < layer.heads.size(); ++h)
                    if (reads(layer.heads[h].query, c) || reads(layer.heads[h].key, c) ||
                        reads(layer.heads[h].value, c))
                        throw Fail{"layer " + std::to_string(l + 1) + " head " +
                                   std::to_string(h + 1) + " reads coordinate " +
                                   std::to_string(c) + ", which the soft model perturbs"};
                if (layer.ffn && reads(layer.ffn->w1, c))
                    throw Fail{"layer " + std::to_string(l + 1) +
                               ": the feed-forward sublayer reads coordinate " + std::to_string(c) +
                               ", which the soft model perturbs"};
            }
            std::vector<std::vector<Vector>> outputs; // per head: possible hard outputs
            Vector span(m.width, Rational(0));
            for (std::size_t h = 0; h < layer.heads.size(); ++h) {
                const Head &head = layer.heads[h];
                // the virtual alphabet: S projected on what the head reads
                std::map<std::tuple<Vector, Vector, Vector>, Vector> reps;
                for (const auto &d : S)
                    reps.emplace(std::make_tuple(times(head.query, d), times(head.key, d),
                                                 times(head.value, d)),
                                 d);
                Model v;
                v.source = m.source; // feature errors name the model file
                v.name = m.name + ", layer " + std::to_string(l + 1) + " head " +
                         std::to_string(h + 1) + " over its value set";
                v.width = m.width;
                v.positions = m.positions;
                std::size_t k = 0;
                for (const auto &[key, d] : reps) {
                    std::string sym = "s" + std::to_string(k++);
                    v.alphabet.push_back(sym);
                    v.embedding[sym] = d;
                }
                Layer vl;
                Head vh = head;
                if (vh.kind == AttnKind::Average)
                    vh.kind = AttnKind::Leftmost; // so ties are checked
                vl.heads.push_back(vh);
                v.layers.push_back(vl);
                v.output.weights.assign(m.width, Rational(0));
                SymbolicOptions so;
                so.limits = limits;
                if (with_profile) {
                    so.eps = eps;
                    so.rel = Rational(1, 1000000);
                }
                // BOS holds one of B in a given word: the least gap over each
                // choice (one analysis per BOS value) bounds every word's.
                std::optional<HeadGap> worst;
                for (std::size_t b = 0; b < std::max<std::size_t>(B.size(), 1); ++b) {
                    if (!B.empty()) {
                        v.bos = "<bos>";
                        v.embedding["<bos>"] = B[b];
                    }
                    SymbolicReport sr = analyse_symbolic(v, n, so);
                    if (with_profile) {
                        info.has_profile = true;
                        info.profile.lo = std::max(info.profile.lo, sr.profile.bound.lo);
                        info.profile.hi = std::max(info.profile.hi, sr.profile.bound.hi);
                    }
                    const HeadGap &one = sr.gaps.heads[0];
                    if (!worst) {
                        worst = one;
                        continue;
                    }
                    if (one.min_gap &&
                        (!worst->min_gap || one.min_gap->exact() < worst->min_gap->exact())) {
                        worst->min_gap = one.min_gap;
                        worst->witness.reset(); // a witness of the virtual model, not of m
                    }
                    if (one.tie && !worst->tie) worst->tie = one.tie;
                }
                HeadGap g = *worst;
                g.witness.reset();
                g.layer = l + 1;
                g.head = h + 1;
                g.kind = head.kind;
                if (g.tie)
                    throw Fail{
                        "layer " + std::to_string(l + 1) + " head " + std::to_string(h + 1) +
                        ": some input can tie positions with different values, so its output "
                        "leaves the finite value set"};
                GapBound b = lemma_gt(g.max_allowed, g.min_gap, eps, kPrecStart);
                if (!b.trivial && (info.beta.trivial || b.beta_up > info.beta.beta_up))
                    info.beta = b;
                info.heads.push_back(g);
                std::vector<Vector> out;
                std::set<Vector> seen;
                for (const auto *set : {&S, &B})
                    for (const auto &d : *set) {
                        Vector o = times(head.output, times(head.value, d));
                        if (seen.insert(o).second) out.push_back(o);
                    }
                Vector zero(m.width, Rational(0));
                bool empty_possible = can_be_empty(head.mask);
                if (empty_possible && seen.insert(zero).second) out.push_back(zero);
                // heads writing one coordinate add their deviations: sum the spans
                for (std::size_t c = 0; c < m.width; ++c) {
                    Rational head_span = 0;
                    for (const auto &a : out)
                        for (const auto &b2 : out) {
                            Rational dlt = a[c] - b2[c];
                            if (dlt < 0) dlt = -dlt;
                            head_span = std::max(head_span, dlt);
                        }
                    span[c] += head_span;
                }
                outputs.push_back(std::move(out));
            }
            // soft radius: eps * span on the heads' output coordinates; earlier
            // tainted coordinates stay perturbed (no unit reads them, checked
            // above, so they pass through the identity part of the Jacobian)
            std::set<std::size_t> perturbed = tainted;
            Vector radius(m.width, Rational(0));
            for (std::size_t c = 0; c < m.width; ++c)
                if (span[c] != 0) {
                    radius[c] = eps * span[c];
                    perturbed.insert(c);
                }
            // after the sublayer: tainted iff some box's Jacobian I + W2 D W1
            // connects the coordinate to a perturbed one
            std::set<std::size_t> next_tainted;
            if (!layer.ffn) next_tainted = perturbed;
            // One position's values through the layer: d + one output per
            // head (half-activations), then the sublayer, phase-stable.
            auto advance = [&](const std::vector<Vector> &start) {
                std::vector<Vector> half = start;
                for (const auto &out : outputs) {
                    std::vector<Vector> next;
                    std::set<Vector> seen;
                    for (const auto &d : half)
                        for (const auto &o : out) {
                            Vector s = d;
                            for (std::size_t c = 0; c < s.size(); ++c)
                                s[c] += o[c];
                            if (seen.insert(s).second) next.push_back(std::move(s));
                        }
                    if (next.size() > cap)
                        throw Fail{"layer " + std::to_string(l + 1) + ": more than " +
                                   std::to_string(cap) + " hard values per position (--max-values)"};
                    half = std::move(next);
                }
                if (!layer.ffn) return half;
                const Ffn &f = *layer.ffn;
                std::vector<Vector> after;
                std::set<Vector> seen;
                for (const auto &d : half) {
                    Vector pre = times(f.w1, d);
                    std::vector<char> active(pre.size());
                    for (std::size_t k = 0; k < pre.size(); ++k) {
                        pre[k] += f.b1[k];
                        Rational R = 0;
                        for (std::size_t c : perturbed) {
                            Rational w = f.w1[k][c] < 0 ? Rational(-f.w1[k][c]) : f.w1[k][c];
                            R += w * radius[c];
                        }
                        if (pre[k] >= R)
                            active[k] = 1;
                        else if (pre[k] <= -R)
                            active[k] = 0;
                        else
                            throw Fail{"layer " + std::to_string(l + 1) + ": ReLU unit " +
                                       std::to_string(k + 1) +
                                       " changes phase within the soft radius (pre-activation " +
                                       to_string(pre[k]) + ", radius " + to_string(R) +
                                       ") at the hard value " + vec_text(d)};
                    }
                    // Jacobian I + W2 D W1: which outputs depend on perturbed coordinates
                    for (std::size_t c = 0; c < m.width; ++c)
                        for (std::size_t p : perturbed) {
                            Rational j = c == p ? Rational(1) : Rational(0);
                            for (std::size_t k = 0; k < pre.size(); ++k)
                                if (active[k]) j += f.w2[c][k] * f.w1[k][p];
                            if (j != 0) next_tainted.insert(c);
                        }
                    Vector out = d;
                    for (std::size_t k = 0; k < pre.size(); ++k)
                        if (active[k])
                            for (std::size_t c = 0; c < m.width; ++c)
                                out[c] += f.w2[c][k] * pre[k];
                    for (std::size_t c = 0; c < m.width; ++c)
                        out[c] += f.b2[c];
                    if (seen.insert(out).second) after.push_back(std::move(out));
                }
                return after;
            };
            S = advance(S);
            B = advance(B);
            tainted = next_tainted;
            info.perturbed.assign(tainted.begin(), tainted.end());
            if (!info.beta.trivial) {
                any = true;
                best = std::max(best, info.beta.beta_up);
            }
            res.layers.push_back(std::move(info));
        }
        res.readout_exact = true;
        const std::vector<std::size_t> read = m.output.coordinates();
        for (std::size_t c : tainted)
            if (std::binary_search(read.begin(), read.end(), c)) {
                res.readout_exact = false;
                res.readout_note =
                    "the read-out reads coordinate " + std::to_string(c) +
                    ", which the soft model perturbs: tv holds, read-outs are not exact";
            }
        res.applies = true;
        res.beta_up = any ? best : Rational(1);
        res.profile_up = 0;
        for (const auto &layer : res.layers)
            if (!layer.beta.trivial) res.profile_up = std::max(res.profile_up, layer.need());
    } catch (const Fail &f) {
        res.applies = false;
        res.failure = f.why;
    }
    return res;
}

} // namespace tempcert
