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
#include "tempcert/layerwise.hpp"
#include "layerwise_counts.hpp"
#include "tempcert/error.hpp"
#include "tempcert/mask.hpp"
#include "tempcert/symbolic.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace tempcert {

namespace layerwise_detail {

std::string head_name(std::size_t l, std::size_t h) {
    return "layer " + std::to_string(l + 1) + " head " + std::to_string(h + 1);
}

// Values, outputs and feed-forward sublayers never touch a feature
// coordinate (queries and keys may read them).
void check_feature_use(const Model &m, const std::set<std::size_t> &features) {
    for (std::size_t l = 0; l < m.layers.size(); ++l) {
        const Layer &layer = m.layers[l];
        for (std::size_t h = 0; h < layer.heads.size(); ++h)
            for (std::size_t c : features) {
                if (reads(layer.heads[h].value, c))
                    throw Fail{head_name(l, h) + ": its value reads feature coordinate " +
                               std::to_string(c)};
                if (writes(layer.heads[h].output, c))
                    throw Fail{head_name(l, h) + ": its output writes feature coordinate " +
                               std::to_string(c)};
            }
        if (layer.ffn)
            for (std::size_t c : features)
                if (reads(layer.ffn->w1, c) || writes(layer.ffn->w2, c) || layer.ffn->b2[c] != 0)
                    throw Fail{"layer " + std::to_string(l + 1) +
                               ": the feed-forward sublayer touches feature coordinate " +
                               std::to_string(c)};
    }
}

namespace {

// At the first layer with heads the value set is each symbol's input there
// (its embedding through the feed-forward sublayers before, `inputs`): the
// word attaining the value-set model's profile bound, read back in m's
// alphabet (a symbol with that input), is a word of m attaining head h's
// profile bound.
void keep_first_layer_witness(const std::vector<Vector> &inputs, const ProfileReport &profile,
                              const std::vector<const Vector *> &symbol_values, std::size_t l,
                              std::size_t h, LayerwiseLayer &info) {
    const HeadProfile *top = profile.attaining();
    if (!top || profile.bound.lo <= 0 ||
        (info.profile_witness && info.profile_witness_lo >= profile.bound.lo))
        return;
    Witness w = *top->witness;
    for (int &symbol : w.word) {
        const Vector &d = *symbol_values.at(static_cast<std::size_t>(symbol));
        auto same = std::find(inputs.begin(), inputs.end(), d);
        if (same == inputs.end()) return;
        symbol = static_cast<int>(same - inputs.begin());
    }
    w.layer = l + 1;
    w.head = h + 1;
    info.profile_witness = std::move(w);
    info.profile_witness_lo = profile.bound.lo;
}

} // namespace

// The head's gap by the symbolic method over the virtual alphabet S
// projected on what the head reads (every position picks any element: an
// over-approximation, so the gap is a lower bound). BOS holds one element
// of B in a word: one analysis per element, the least gap over them. With
// profiles, widens `info.profile` by the head's.
HeadGap symbolic_head_gap(const Model &m, const Head &head, std::size_t l, std::size_t h,
                          const std::vector<Vector> &S, const std::vector<Vector> &B, std::size_t n,
                          const Rational &eps, const Limits &limits, bool with_profile,
                          const std::vector<Vector> *symbol_inputs, LayerwiseLayer &info,
                          const VirtualHeadSup *every_n) {
    std::map<std::tuple<Vector, Vector, Vector>, Vector> reps;
    for (const auto &d : S)
        reps.emplace(
            std::make_tuple(matvec(head.query, d), matvec(head.key, d), matvec(head.value, d)), d);
    Model v;
    v.source = m.source; // feature errors name the model file
    v.name = m.name + ", " + head_name(l, h) + " over its value set";
    v.width = m.width;
    v.positions = m.positions;
    std::size_t k = 0;
    std::vector<const Vector *> symbol_values; // the value set's vector of each symbol
    for (const auto &[key, d] : reps) {
        std::string sym = "s" + std::to_string(k++);
        v.alphabet.push_back(sym);
        v.embedding[sym] = d;
        symbol_values.push_back(&d);
    }
    Layer vl;
    Head vh = head;
    if (vh.kind == AttnKind::Average) vh.kind = AttnKind::Leftmost; // so ties are checked
    vl.heads.push_back(vh);
    v.layers.push_back(vl);
    v.output.weights.assign(m.width, Rational(0));
    SymbolicOptions so;
    so.limits = limits;
    if (with_profile && !every_n) {
        so.eps = eps;
        so.rel = Rational(1, 1000000);
    }
    std::optional<HeadGap> worst;
    for (std::size_t b = 0; b < std::max<std::size_t>(B.size(), 1); ++b) {
        if (!B.empty()) {
            v.bos = "<bos>";
            v.embedding["<bos>"] = B[b];
        }
        SymbolicReport sr = analyse_symbolic(v, n, so);
        if (every_n) {
            const Bracket sup = (*every_n)(v);
            info.has_profile = true;
            info.profile.lo = std::max(info.profile.lo, sup.lo);
            info.profile.hi = std::max(info.profile.hi, sup.hi);
        } else if (with_profile) {
            info.has_profile = true;
            if (symbol_inputs && head.kind != AttnKind::Average && B.size() <= 1)
                keep_first_layer_witness(*symbol_inputs, sr.profile, symbol_values, l, h, info);
            info.profile.lo = std::max(info.profile.lo, sr.profile.bound.lo);
            info.profile.hi = std::max(info.profile.hi, sr.profile.bound.hi);
        }
        const HeadGap &one = sr.gaps.heads[0];
        if (!worst) {
            worst = one;
            continue;
        }
        if (one.min_gap && (!worst->min_gap || one.min_gap->exact() < worst->min_gap->exact()))
            worst->min_gap = one.min_gap;
        if (one.tie && !worst->tie) worst->tie = one.tie;
    }
    HeadGap g = *worst;
    g.witness.reset(); // a witness of the virtual model, not of m
    g.layer = l + 1;
    g.head = h + 1;
    g.kind = head.kind;
    if (g.tie)
        throw Fail{head_name(l, h) +
                   ": some input can tie positions with different values, so its output "
                   "leaves the finite value set"};
    return g;
}

// Every start vector plus one output of each head, in turn; fails beyond
// `cap` distinct vectors (--max-values).
std::vector<Vector> add_outputs(std::vector<Vector> start,
                                const std::vector<std::vector<Vector>> &outputs,
                                const Limits &limits, std::size_t l) {
    const std::size_t cap = limits.max_values;
    std::size_t made = 0;
    for (const auto &out : outputs) {
        std::vector<Vector> next;
        std::set<Vector> seen;
        for (const auto &d : start)
            for (const auto &o : out) {
                // --time-limit and Ctrl-C: 2^16 values of 19 rationals take
                // seconds (tests/cli/time_limits.sh)
                if (++made % 1024 == 0) check_budget(limits);
                Vector s = d;
                for (std::size_t c = 0; c < s.size(); ++c)
                    s[c] += o[c];
                if (seen.insert(s).second) next.push_back(std::move(s));
            }
        if (next.size() > cap)
            throw Fail{"layer " + std::to_string(l + 1) + ": more than " + std::to_string(cap) +
                       " hard values per position (--max-values)"};
        start = std::move(next);
    }
    return start;
}

} // namespace layerwise_detail

namespace {

// shared with the count analysis (layerwise_counts.hpp)
using layerwise_detail::reads;
using layerwise_detail::writes;

std::string vec_text(const Vector &v) {
    std::string s = "(";
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + to_string(v[i]);
    return s + ")";
}

using layerwise_detail::CountCoords;
using layerwise_detail::Fail;

using layerwise_detail::check_feature_use;
using layerwise_detail::head_name;
using layerwise_detail::symbolic_head_gap;

// Nothing in the layer may read what earlier layers perturbed.
void check_tainted_reads(const Layer &layer, std::size_t l, const std::set<std::size_t> &tainted) {
    for (std::size_t c : tainted) {
        for (std::size_t h = 0; h < layer.heads.size(); ++h)
            if (reads(layer.heads[h].query, c) || reads(layer.heads[h].key, c) ||
                reads(layer.heads[h].value, c))
                throw Fail{head_name(l, h) + " reads coordinate " + std::to_string(c) +
                           ", which the soft model perturbs"};
        if (layer.ffn && reads(layer.ffn->w1, c))
            throw Fail{"layer " + std::to_string(l + 1) +
                       ": the feed-forward sublayer reads coordinate " + std::to_string(c) +
                       ", which the soft model perturbs"};
    }
}

// The head's possible hard outputs W_O W_V d over the given value sets
// (plus 0 when a query can have no allowed position).
std::vector<Vector> head_outputs(const Head &head,
                                 const std::vector<const std::vector<Vector> *> &sets,
                                 bool with_zero, std::size_t width) {
    std::vector<Vector> out;
    std::set<Vector> seen;
    for (const auto *set : sets)
        for (const auto &d : *set) {
            Vector o = matvec(head.output, matvec(head.value, d));
            if (seen.insert(o).second) out.push_back(o);
        }
    Vector zero(width, Rational(0));
    if (with_zero && seen.insert(zero).second) out.push_back(zero);
    return out;
}

// Heads writing one coordinate add their deviations: the spans (largest
// minus least output on the coordinate) are summed. One pass over the
// outputs (the pairwise form was quadratic in the value set, which may
// reach --max-values).
void add_span(Vector &span, const std::vector<Vector> &out) {
    if (out.empty()) return;
    for (std::size_t c = 0; c < span.size(); ++c) {
        const Rational *least = &out.front()[c], *largest = least;
        for (const auto &a : out) {
            if (a[c] < *least) least = &a[c];
            if (a[c] > *largest) largest = &a[c];
        }
        span[c] += *largest - *least;
    }
}

// One layer's step for one set of positions: d + one output per head
// (half-activations), then the feed-forward sublayer, each ReLU checked to
// keep its phase within the soft radius; `next_tainted` collects the
// coordinates the affine map's Jacobian I + W2 D W1 connects to perturbed ones.
struct LayerStep {
    const Layer &layer;
    std::size_t l;
    const std::set<std::size_t> &perturbed;
    const Vector &radius;
    const Limits &limits;
    std::set<std::size_t> &next_tainted;

    std::vector<Vector> half(std::vector<Vector> start,
                             const std::vector<std::vector<Vector>> &outputs) const {
        return layerwise_detail::add_outputs(std::move(start), outputs, limits, l);
    }

    std::vector<char> phases(const Ffn &f, const Vector &d, Vector &pre) const {
        pre = matvec(f.w1, d);
        std::vector<char> active(pre.size());
        for (std::size_t k = 0; k < pre.size(); ++k) {
            pre[k] += f.b1[k];
            Rational R = 0;
            for (std::size_t c : perturbed)
                R += (f.w1[k][c] < 0 ? Rational(-f.w1[k][c]) : f.w1[k][c]) * radius[c];
            if (pre[k] >= R)
                active[k] = 1;
            else if (pre[k] > -R)
                throw Fail{
                    "layer " + std::to_string(l + 1) + ": ReLU unit " + std::to_string(k + 1) +
                    " changes phase within the soft radius (pre-activation " + to_string(pre[k]) +
                    ", radius " + to_string(R) + ") at the hard value " + vec_text(d)};
        }
        return active;
    }

    std::vector<Vector> operator()(const std::vector<Vector> &start,
                                   const std::vector<std::vector<Vector>> &outputs) const {
        std::vector<Vector> halves = half(start, outputs);
        if (!layer.ffn) return halves;
        const Ffn &f = *layer.ffn;
        std::vector<Vector> after;
        std::set<Vector> seen;
        for (const auto &d : halves) {
            Vector pre;
            std::vector<char> active = phases(f, d, pre);
            for (std::size_t c = 0; c < d.size(); ++c)
                for (std::size_t p : perturbed) {
                    Rational j = c == p ? Rational(1) : Rational(0);
                    for (std::size_t k = 0; k < pre.size(); ++k)
                        if (active[k]) j += f.w2[c][k] * f.w1[k][p];
                    if (j != 0) next_tainted.insert(c);
                }
            Vector out = d;
            for (std::size_t k = 0; k < pre.size(); ++k)
                if (active[k])
                    for (std::size_t c = 0; c < out.size(); ++c)
                        out[c] += f.w2[c][k] * pre[k];
            for (std::size_t c = 0; c < out.size(); ++c)
                out[c] += f.b2[c];
            if (seen.insert(out).second) after.push_back(std::move(out));
        }
        return after;
    }
};

// The argument's state between layers: the finite value sets of real
// positions (S) and BOS (B), the perturbed coordinates, the count
// coordinates (layerwise_counts.hpp).
struct State {
    std::vector<Vector> S, B;
    std::set<std::size_t> tainted;
    CountCoords counts;
    // each symbol's input to this layer, while no layer before had heads
    // (alphabet order; their set is S)
    std::optional<std::vector<Vector>> symbol_inputs;
};

// What one layer's heads may add: per head, the hard outputs at real
// positions and at BOS, and their spans.
struct LayerOutputs {
    std::vector<std::vector<Vector>> S, B;
    Vector span, span_B;
    bool counting = false; // a counting head: no profile bound for this layer
    CountCoords fresh;
};

// A uniform head with more than one output: exact at every beta (weights
// 1/N(i) in both models); its real-position outputs live in count
// coordinates, not in S.
void uniform_head_entry(const Model &m, std::size_t l, std::size_t h, std::size_t n,
                        const State &st, LayerwiseLayer &info, LayerOutputs &out) {
    const Head &head = m.layers[l].heads[h];
    layerwise_detail::add_count_coords(m.layers[l], l, h, st.S, st.B, out.fresh);
    HeadGap g;
    g.layer = l + 1;
    g.head = h + 1;
    g.kind = head.kind;
    g.mask = head.mask;
    g.max_allowed = max_allowed(head.mask, n, m.has_bos());
    info.heads.push_back(g);
    out.S.push_back({Vector(m.width, Rational(0))});
    out.B.push_back(head_outputs(head, {&st.B}, false, m.width));
}

// Any other head: its least gap (counting or symbolic), Lemma GT's bound,
// and the outputs it may add.
void gap_head_entry(const Model &m, std::size_t l, std::size_t h, std::size_t n,
                    const Rational &eps, const Limits &limits, bool with_profile, const State &st,
                    LayerwiseLayer &info, LayerOutputs &out, const VirtualHeadSup *every_n) {
    const Head &head = m.layers[l].heads[h];
    HeadGap g;
    if (layerwise_detail::reads_any(head.query, st.counts)) {
        if (every_n)
            throw Fail{head_name(l, h) +
                       " counts: its gaps fall with the length (every-n by layers leaves "
                       "counting heads out, proofs/every-n.md, Theorem L)"};
        out.counting = true;
        g = layerwise_detail::counting_head_gap(head, l, h, st.S, st.B, st.counts, n, m.has_bos(),
                                                limits);
    } else {
        g = symbolic_head_gap(m, head, l, h, st.S, st.B, n, eps, limits, with_profile,
                              st.symbol_inputs ? &*st.symbol_inputs : nullptr, info, every_n);
    }
    GapBound b = lemma_gt(g.max_allowed, g.min_gap, eps, kPrecStart);
    if (!b.trivial && (info.beta.trivial || b.beta_up > info.beta.beta_up)) info.beta = b;
    info.heads.push_back(g);
    std::vector<Vector> all = head_outputs(head, {&st.S, &st.B}, can_be_empty(head.mask), m.width);
    add_span(out.span, all);
    out.S.push_back(all);
    if (looks_backward(head.mask)) {
        // BOS's query sees BOS alone (causal) or nothing (strict): the soft
        // output there is the hard one exactly
        bool self = mask_allows(head.mask, 0, 0);
        out.B.push_back(self ? head_outputs(head, {&st.B}, false, m.width)
                             : std::vector<Vector>{Vector(m.width, Rational(0))});
    } else {
        add_span(out.span_B, all);
        out.B.push_back(all);
    }
}

// Soft radius: eps * span on the heads' output coordinates; earlier tainted
// coordinates stay perturbed (no unit reads them, checked before, so they
// pass through the identity part of the Jacobian).
std::set<std::size_t> perturbation(const Vector &span, const Rational &eps,
                                   const std::set<std::size_t> &tainted, Vector &radius) {
    std::set<std::size_t> perturbed = tainted;
    radius.assign(span.size(), Rational(0));
    for (std::size_t c = 0; c < span.size(); ++c)
        if (span[c] != 0) {
            radius[c] = eps * span[c];
            perturbed.insert(c);
        }
    return perturbed;
}

// One layer of the argument (proofs/layerwise.md, "Per layer").
LayerwiseLayer certify_one_layer(const Model &m, std::size_t l, std::size_t n, const Rational &eps,
                                 const Limits &limits, bool with_profile,
                                 const std::set<std::size_t> &features, State &st,
                                 const VirtualHeadSup *every_n) {
    const Layer &layer = m.layers[l];
    LayerwiseLayer info;
    info.values = st.S.size();
    info.bos_values = st.B.size();
    info.beta = lemma_gt(0, std::nullopt, eps, kPrecStart);
    check_tainted_reads(layer, l, st.tainted);
    layerwise_detail::check_count_use(layer, l, st.counts, features);
    LayerOutputs out;
    out.span = out.span_B = Vector(m.width, Rational(0));
    for (std::size_t h = 0; h < layer.heads.size(); ++h) {
        const Head &head = layer.heads[h];
        if (layerwise_detail::uniform_head(head) &&
            head_outputs(head, {&st.S, &st.B}, false, m.width).size() > 1) {
            if (every_n)
                throw Fail{head_name(l, h) +
                           " is uniform: its outputs take values that grow with the length "
                           "(every-n by layers leaves count coordinates out, proofs/every-n.md, "
                           "Theorem L)"};
            uniform_head_entry(m, l, h, n, st, info, out);
        } else {
            gap_head_entry(m, l, h, n, eps, limits, with_profile, st, info, out, every_n);
        }
    }
    if (out.counting) { // its need is Lemma GT's alone
        info.has_profile = false;
        info.profile = Bracket{0, 0};
    }
    for (const auto &[c, cc] : out.fresh)
        st.counts[c] = cc;
    Vector radius, radius_B;
    std::set<std::size_t> perturbed = perturbation(out.span, eps, st.tainted, radius);
    std::set<std::size_t> perturbed_B = perturbation(out.span_B, eps, st.tainted, radius_B);
    std::set<std::size_t> next_tainted;
    if (!layer.ffn) next_tainted = perturbed;
    if (st.symbol_inputs && layer.heads.empty()) {
        // the same step per symbol: the feed-forward sublayer alone
        std::set<std::size_t> unused;
        for (Vector &d : *st.symbol_inputs)
            d = LayerStep{layer, l, perturbed, radius, limits, unused}({d}, {}).at(0);
    } else {
        st.symbol_inputs.reset();
    }
    st.S = LayerStep{layer, l, perturbed, radius, limits, next_tainted}(st.S, out.S);
    st.B = LayerStep{layer, l, perturbed_B, radius_B, limits, next_tainted}(st.B, out.B);
    st.tainted = next_tainted;
    info.perturbed.assign(st.tainted.begin(), st.tainted.end());
    return info;
}

} // namespace

LayerwiseResult certify_layerwise(const Model &m, std::size_t n, const Rational &eps,
                                  const Limits &limits, bool with_profile,
                                  const VirtualHeadSup *every_n) {
    LayerwiseResult res;
    try {
        if (!m.is_rational()) throw Fail{"the model has irrational features"};
        std::set<std::size_t> features;
        for (const auto &f : m.positions)
            features.insert(f.dim);
        check_feature_use(m, features);
        State st; // S_0, B_0: the embeddings (feature parts are added per position)
        for (const auto &sym : m.alphabet)
            st.S.push_back(m.embedding.at(sym));
        st.symbol_inputs = st.S;
        if (m.has_bos()) st.B.push_back(m.embedding.at(*m.bos));
        for (std::size_t l = 0; l < m.layers.size(); ++l) {
            check_budget(limits);
            res.layers.push_back(
                certify_one_layer(m, l, n, eps, limits, with_profile, features, st, every_n));
        }
        const std::vector<std::size_t> read = m.output.coordinates();
        for (const auto &[c, cc] : st.counts)
            if (std::binary_search(read.begin(), read.end(), c))
                throw Fail{"the read-out reads count coordinate " + std::to_string(c) +
                           "; only counting heads' queries may"};
        res.readout_exact = true;
        for (std::size_t c : st.tainted)
            if (std::binary_search(read.begin(), read.end(), c)) {
                res.readout_exact = false;
                res.readout_note =
                    "the read-out reads coordinate " + std::to_string(c) +
                    ", which the soft model perturbs: tv holds, read-outs are not exact";
            }
        res.applies = true;
        res.beta_up = Rational(1);
        bool any = false;
        res.profile_up = 0;
        for (const auto &layer : res.layers)
            if (!layer.beta.trivial) {
                res.beta_up = any ? std::max(res.beta_up, layer.beta.beta_up) : layer.beta.beta_up;
                any = true;
                res.profile_up = std::max(res.profile_up, layer.need());
            }
    } catch (const Fail &f) {
        res.applies = false;
        res.failure = f.why;
    }
    return res;
}

} // namespace tempcert
