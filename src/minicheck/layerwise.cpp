// A layerwise certificate's claims, re-derived; see claims.hpp.
#include "claim_checks.hpp"
#include "claims.hpp"
#include "counts.hpp"
#include "value_sets.hpp"

#include <algorithm>
#include <set>

namespace minicheck {
namespace {
std::string listed(const std::set<std::size_t> &s) {
    std::string out;
    for (std::size_t c : s)
        out += (out.empty() ? "" : ", ") + std::to_string(c);
    return "[" + out + "]";
}

// What the walk carries into a layer: the hard values of real positions
// (S) and of BOS (B), the coordinates the soft model may have moved, and
// the count coordinates (counts.hpp), which stay out of S.
struct Values {
    std::vector<Vec> S, B;
    std::set<std::size_t> tainted;
    Counts counts;
};

// What one layer's heads give: Lemma GT's need for beta, and per head the
// outputs a real position and BOS may add, with the spans that bound the
// soft outputs' distance from the hard ones.
struct HeadsOut {
    Q need = 0;
    std::vector<std::set<Vec>> add, add_B;
    Vec span, span_B;
    Counts fresh;            // written by this layer's uniform heads
    bool by_profile = false; // some head judged by its profile
};

void widen(Vec &span, const std::set<Vec> &outs) {
    for (std::size_t c = 0; c < span.size(); ++c) {
        auto [lo, hi] = std::minmax_element(
            outs.begin(), outs.end(), [&](const Vec &a, const Vec &b) { return a[c] < b[c]; });
        span[c] += (*hi)[c] - (*lo)[c];
    }
}

void head_outputs(const Head &head, bool is_uniform, const Values &v, std::size_t width,
                  HeadsOut &out) {
    if (is_uniform) { // exact at every beta; at real positions a count, out of S
        out.add.push_back({Vec(width, 0)});
        out.add_B.push_back(head_outputs(head, {&v.B}, false, width));
        return;
    }
    std::set<Vec> all = head_outputs(head, {&v.S, &v.B}, can_be_empty(head.mask), width);
    widen(out.span, all);
    out.add.push_back(all);
    if (head.mask == Mask::Causal) { // BOS's query sees BOS alone: exact
        out.add_B.push_back(head_outputs(head, {&v.B}, false, width));
    } else if (head.mask == Mask::Strict) { // BOS's query sees nothing
        out.add_B.push_back({Vec(width, 0)});
    } else {
        widen(out.span_B, all);
        out.add_B.push_back(all);
    }
}

struct Context {
    const Model &m;
    std::size_t n;
    Q eps;
    const Limits &limits;
};

// A lower bound of the layer's beta at every length 1..n (index 0 unused).
std::vector<Q> beta_lower_bounds(const Expr &beta, std::size_t n) {
    std::vector<Q> out(n + 1, 0);
    for (std::size_t len = 1; len <= n; ++len) {
        if (len > 1 && !beta.uses(Expr::Op::N)) {
            out[len] = out[1];
            continue;
        }
        const Q at_len(static_cast<unsigned long>(len));
        if (beta.rational()) {
            out[len] = beta.exact(0, at_len, "$.beta.spec");
        } else {
            Iv b = beta.enclose(at_len, kPrecStart, "$.beta.spec");
            out[len] = b.finite() ? b.lower() : Q(0);
        }
        if (out[len] <= 0)
            rejected("$.beta.spec", "not shown positive at n = " + std::to_string(len));
    }
    return out;
}

// One head's least gap: none for a uniform head (its counts join
// `fresh`), on the count lattice for a counting head, else over the values
// (least over BOS's choices), every query judged by its profile at beta
// when `profile`.
std::optional<Q> head_gap(const Context &cx, const Layer &layer, std::size_t h, bool is_uniform,
                          const Values &v, Counts &fresh, const std::string &p,
                          const ProfileRequest *profile) {
    const Head &head = layer.heads[h];
    const bool counting = !is_uniform && reads_counts(head.query, v.counts);
    if (profile && (is_uniform || counting))
        rejected(p + ".judged_by", "a profile judgement covers heads whose scores are affine in "
                                   "the key position, not uniform or counting heads");
    if (is_uniform) {
        add_counts(layer, h, v.S, v.B, fresh, p);
        return std::nullopt;
    }
    if (counting) return counting_gap(head, v.S, v.B, v.counts, cx.n, cx.m.bos.has_value(), p);
    return least_gap(cx.m, head, v.S, v.B, cx.n, cx.limits.max_queries, p, profile);
}

// Whether the entry says "judged_by": "profile" (absent: Lemma GT).
bool judged_by_profile(const Json &entry, const std::string &p) {
    if (!entry.is_object() || !entry.contains("judged_by")) return false;
    same_at(entry, p, "judged_by", "profile"); // or no such key
    return true;
}

// One head's entry: its gap, N and Lemma GT's bound; returns the bound's
// claimed value, which beta must meet unless the head is judged by its
// profile (`by_profile` then set).
Q check_head(const Context &cx, const Json &entry, const std::string &p, const Layer &layer,
             std::size_t h, bool is_uniform, const Values &v, const Expr &beta, HeadsOut &out) {
    only_keys(entry, p, {"head", "min_gap", "N", "beta_gap_up", "judged_by"});
    same_count(entry, p, "head", h + 1);
    std::optional<ProfileRequest> profile;
    if (judged_by_profile(entry, p))
        profile = ProfileRequest{[&beta, n = cx.n] { return beta_lower_bounds(beta, n); }, cx.eps,
                                 cx.limits.prec_cap};
    const std::optional<Q> gap =
        head_gap(cx, layer, h, is_uniform, v, out.fresh, p, profile ? &*profile : nullptr);
    compare_gap(entry, p, gap);
    std::size_t N = most_seen(cx.m, layer.heads[h].mask, cx.n);
    same_count(entry, p, "N", N);
    rounded_up(entry, p, "beta_gap_up", LemmaGt{N, gap, cx.eps}, cx.limits.prec_cap);
    out.by_profile = out.by_profile || profile;
    return profile ? Q(0) : exact_at(entry, p, "beta_gap_up");
}

HeadsOut check_heads(const Context &cx, const Json &claim, const std::string &p, const Layer &layer,
                     const Values &v, const Expr &beta) {
    const Json &heads = at(claim, p, "heads");
    require_array(heads, p + ".heads");
    same(heads.size() == layer.heads.size(), p + ".heads", std::to_string(heads.size()) + " heads",
         std::to_string(layer.heads.size()));
    HeadsOut out;
    out.span = out.span_B = Vec(cx.m.width, 0);
    for (std::size_t h = 0; h < layer.heads.size(); ++h) {
        const std::string hp = p + ".heads[" + std::to_string(h) + "]";
        const bool is_uniform = uniform(layer.heads[h], v.S, v.B, cx.m.width);
        out.need =
            std::max(out.need, check_head(cx, heads[h], hp, layer, h, is_uniform, v, beta, out));
        head_outputs(layer.heads[h], is_uniform, v, cx.m.width, out);
    }
    return out;
}

// Layer l's beta is positive and at least `need` at every length it takes.
void check_beta(const Context &cx, const std::vector<Expr> &betas, std::size_t l, const Q &need) {
    const Expr &e = betas[betas.size() == 1 ? 0 : l];
    const std::size_t lengths = e.uses(Expr::Op::N) ? cx.n : 1;
    const Q floor = std::max(need, Q(0));
    for (std::size_t len = 1; len <= lengths; ++len) {
        const std::string what = "at least " + to_text(floor) + " (layer " + std::to_string(l + 1) +
                                 "'s need) and positive at n = " + std::to_string(len);
        const Q at_len(static_cast<unsigned long>(len));
        if (e.rational()) { // exactly: a beta equal to the need is enough
            const Q b = e.exact(0, at_len, "$.beta.spec");
            same(b > 0 && b >= floor, "$.beta.spec", to_text(b) + " at n = " + std::to_string(len),
                 what.substr(0, what.find(" and")));
            continue;
        }
        at_rising_precision(cx.limits.prec_cap, "$.beta.spec", what, [&](long prec) {
            Iv b = e.enclose(at_len, prec, "$.beta.spec");
            if (b.broken()) return Tri::Unknown;
            if (b.above(0) && b.at_least(floor)) return Tri::True;
            return b.at_most(0) || b.below(floor) ? Tri::False : Tri::Unknown;
        });
    }
}

// The sublayer on one half-activation d, each unit's phase fixed on the box
// of radius eps span around d; coordinates the soft model may move after it
// join `next`.
Vec ffn_on(const Ffn &f, const Vec &d, const std::set<std::size_t> &moved, const Vec &span,
           const Q &eps, const std::string &p, std::set<std::size_t> &next) {
    Vec pre = mat_times(f.w1, d), out = d;
    std::vector<bool> on(pre.size());
    for (std::size_t u = 0; u < pre.size(); ++u) {
        pre[u] += f.b1[u];
        Q R = 0;
        for (std::size_t c : moved)
            R += abs(f.w1[u][c]) * eps * span[c];
        if (pre[u] > -R && pre[u] < R)
            rejected(p, "ReLU unit " + std::to_string(u + 1) +
                            " can change phase within the soft radius");
        on[u] = pre[u] >= R;
        for (std::size_t c = 0; on[u] && c < out.size(); ++c)
            out[c] += f.w2[c][u] * pre[u];
    }
    for (std::size_t c = 0; c < out.size(); ++c) {
        out[c] += f.b2[c];
        for (std::size_t q : moved) { // the Jacobian I + W2 D W1 at (c, q)
            Q jacobian = c == q ? 1 : 0;
            for (std::size_t u = 0; u < pre.size(); ++u)
                if (on[u]) jacobian += f.w2[c][u] * f.w1[u][q];
            if (jacobian != 0) next.insert(c);
        }
    }
    return out;
}

// The values after the layer: each start value plus one output of every
// head, then the sublayer.
std::vector<Vec> advance(const Context &cx, const Layer &layer, const std::vector<Vec> &start,
                         const std::vector<std::set<Vec>> &add, const Vec &span,
                         const std::set<std::size_t> &tainted, const std::string &p,
                         std::set<std::size_t> &next) {
    std::set<std::size_t> moved = tainted;
    for (std::size_t c = 0; c < span.size(); ++c)
        if (span[c] != 0) moved.insert(c);
    std::set<Vec> half = plus_outputs(start, add, cx.limits.max_values, p);
    if (!layer.ffn) {
        next.insert(moved.begin(), moved.end());
        return std::vector<Vec>(half.begin(), half.end());
    }
    std::set<Vec> after;
    for (const Vec &d : half)
        after.insert(ffn_on(*layer.ffn, d, moved, span, cx.eps, p, next));
    return std::vector<Vec>(after.begin(), after.end());
}

// Nothing in the layer reads a coordinate the soft model moved before it.
void check_no_leak(const Layer &layer, const std::set<std::size_t> &tainted, const std::string &p) {
    for (std::size_t c : tainted) {
        for (const auto &h : layer.heads)
            if (reads_column(h.query, c) || reads_column(h.key, c) || reads_column(h.value, c))
                rejected(p, "a head reads coordinate " + std::to_string(c) +
                                ", which the soft model perturbs");
        if (layer.ffn && reads_column(layer.ffn->w1, c))
            rejected(p, "the feed-forward sublayer reads coordinate " + std::to_string(c) +
                            ", which the soft model perturbs");
    }
}

void check_perturbed(const Json &claim, const std::string &p, const std::set<std::size_t> &want) {
    const Json &list = at(claim, p, "perturbed");
    require_array(list, p + ".perturbed");
    std::set<std::size_t> got;
    for (const Json &c : list) {
        if (!c.is_number_unsigned())
            malformed(p + ".perturbed", "expected coordinates (integers >= 0)");
        if (!got.insert(c.get<std::size_t>()).second)
            rejected(p + ".perturbed", "lists coordinate " + c.dump() + " twice");
    }
    same(got == want, p + ".perturbed", listed(got), listed(want));
}

bool check_layer(const Context &cx, const Json &claim, std::size_t l,
                 const std::vector<Expr> &betas, Values &v) {
    const std::string p = "$.layers[" + std::to_string(l) + "]";
    const Layer &layer = cx.m.layers[l];
    check_count_reads(layer, v.counts, feature_coordinates(cx.m), p);
    only_keys(claim, p, {"layer", "values", "bos_values", "heads", "perturbed"});
    same_count(claim, p, "layer", l + 1);
    same_count(claim, p, "values", v.S.size());
    same_count(claim, p, "bos_values", v.B.size());
    check_no_leak(layer, v.tainted, p);
    HeadsOut heads = check_heads(cx, claim, p, layer, v, betas[betas.size() == 1 ? 0 : l]);
    check_beta(cx, betas, l, heads.need);
    std::set<std::size_t> next;
    std::vector<Vec> S = advance(cx, layer, v.S, heads.add, heads.span, v.tainted, p, next);
    std::vector<Vec> B = advance(cx, layer, v.B, heads.add_B, heads.span_B, v.tainted, p, next);
    check_perturbed(claim, p, next);
    Counts counts = std::move(v.counts);
    counts.insert(heads.fresh.begin(), heads.fresh.end());
    v = Values{std::move(S), std::move(B), std::move(next), std::move(counts)};
    return heads.by_profile;
}

std::set<std::size_t> readout_coordinates(const Model &m) {
    std::set<std::size_t> read;
    for (const auto &c : m.classes)
        read.insert(c.first);
    for (std::size_t c = 0; !m.categorical && c < m.weights.size(); ++c)
        if (m.weights[c] != 0) read.insert(c);
    return read;
}
} // namespace

std::string verify_layerwise(const Json &cert, const Model &m, const Limits &limits,
                             Entering *entering) {
    const Json &layers = argument_fields(cert, m, "layerwise", "readout_exact");
    const Claim c = read_claim(cert, m);
    const std::vector<Expr> betas = read_betas(cert, m);
    Context cx{m, c.n, c.eps, limits};
    Values v{first_values(m), first_bos_values(m), {}, {}};
    bool by_profile = false;
    for (std::size_t l = 0; l < m.layers.size(); ++l) {
        if (entering) entering->push_back({v.S, v.B});
        by_profile = check_layer(cx, layers[l], l, betas, v) || by_profile;
    }
    if (entering && !v.counts.empty())
        unsupported("$.finite", "count coordinates grow with n: every-n by layers leaves them out");
    bool exact = true;
    for (std::size_t r : readout_coordinates(m)) {
        if (v.counts.count(r))
            rejected("$.readout_exact", "the read-out reads count coordinate " + std::to_string(r));
        exact = exact && !v.tainted.count(r);
    }
    const Json &claimed = at(cert, "$", "readout_exact");
    if (!claimed.is_boolean()) malformed("$.readout_exact", "expected true or false");
    same(claimed == Json(exact), "$.readout_exact", claimed.dump(), exact ? "true" : "false");
    if (c.criterion != "tv" && !exact)
        rejected("$.criterion", "the read-out reads a perturbed coordinate: only tv is certified");
    Json proofs = {"proofs/layerwise.md", "proofs/symbolic-gap.md", "proofs/lemma-gt.md"};
    if (by_profile) proofs.push_back("proofs/profile-bound.md");
    same_at(cert, "$", "proofs", proofs);
    return "layerwise argument re-derived over " + std::to_string(c.n) + " lengths";
}
} // namespace minicheck
