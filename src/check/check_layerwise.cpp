// Layerwise certificates, re-verified (proofs/layerwise.md; the gap closed
// form: proofs/symbolic-gap.md, "Affine scores"). A second implementation on
// purpose: it shares no code with src/certify/layerwise.cpp or src/gap/.
#include "check_layerwise.hpp"
#include "check_counts.hpp"
#include "check_fields.hpp"
#include "tempcert/mask.hpp"
#include "tempcert/beta.hpp"
#include "tempcert/error.hpp"

#include <algorithm>
#include <set>
#include <tuple>

namespace tempcert::check {

namespace {

Vector mul_vec(const Matrix &w, const Vector &x) {
    Vector out(w.size(), Rational(0));
    for (std::size_t r = 0; r < w.size(); ++r)
        for (std::size_t c = 0; c < x.size(); ++c)
            if (w[r][c] != 0 && x[c] != 0) out[r] += w[r][c] * x[c];
    return out;
}

Rational dot(const Vector &a, const Vector &b) {
    Rational s = 0;
    for (std::size_t c = 0; c < a.size(); ++c)
        if (a[c] != 0 && b[c] != 0) s += a[c] * b[c];
    return s;
}

bool column_used(const Matrix &w, std::size_t c) {
    for (const auto &row : w)
        if (row[c] != 0) return true;
    return false;
}

bool row_used(const Matrix &w, std::size_t r) {
    for (const auto &x : w[r])
        if (x != 0) return true;
    return false;
}

Rational floor_of(const Rational &x) {
    Integer q = numerator(x) / denominator(x); // toward zero
    if (x < 0 && q * denominator(x) != numerator(x)) q -= 1;
    return Rational(q);
}

Rational ceil_of(const Rational &x) {
    return -floor_of(-x);
}

// Positional vector P(j) at length len, exactly.
Vector position(const Model &m, std::size_t j, std::size_t len, const std::string &where) {
    Vector p(m.width, Rational(0));
    for (const auto &f : m.positions) {
        Real v;
        try {
            v = f.expr.eval(Rational(static_cast<long>(j)), Rational(static_cast<long>(len)),
                            kPrecStart);
        } catch (const ExprError &e) {
            reject(where, "a positional feature is undefined at j = " + std::to_string(j) +
                              ", n = " + std::to_string(len) + ": " + e.what());
        }
        if (!v.is_exact())
            reject(where, "a positional feature is irrational at j = " + std::to_string(j));
        p[f.dim] += v.exact();
    }
    return p;
}

// One symbol of the head's own alphabet over positions lo..hi: offers
// alpha + c j. The query's own position is a run with lo == hi.
struct Run {
    std::size_t symbol;
    Rational lo, hi, alpha;
};

// Least positive value of delta + c k over integers k in [lo, hi].
std::optional<Rational> least_positive(const Rational &delta, const Rational &c, const Rational &lo,
                                       const Rational &hi) {
    if (lo > hi) return std::nullopt;
    if (c == 0) return delta > 0 ? std::optional<Rational>(delta) : std::nullopt;
    Rational k = c > 0 ? std::max(lo, floor_of(-delta / c) + 1) // increasing: first positive
                       : std::min(hi, ceil_of(-delta / c) - 1); // decreasing: last positive
    if (k < lo || k > hi) return std::nullopt;
    return delta + c * k;
}

bool has_zero(const Rational &delta, const Rational &c, const Rational &lo, const Rational &hi) {
    if (lo > hi) return false;
    if (c == 0) return delta == 0;
    Rational k = -delta / c;
    return denominator(k) == 1 && lo <= k && k <= hi;
}

struct GapFacts {
    std::optional<Rational> gap;
    bool tie = false;
};

// Minimum gap and different-value ties of one head over every sequence of
// `S` (one element per position) of length up to n.
// `bos`: the vector BOS holds (nullptr: no BOS).
GapFacts head_facts(const Model &m, const Head &head, const std::vector<Vector> &S,
                    const Vector *bos, std::size_t n, const std::string &where,
                    const Limits &limits) {
    // the head's own alphabet: what it reads of each value
    std::set<std::tuple<Vector, Vector, Vector>> seen;
    std::vector<Vector> QE, KE, VE;
    for (const auto &d : S) {
        auto key =
            std::make_tuple(mul_vec(head.query, d), mul_vec(head.key, d), mul_vec(head.value, d));
        if (!seen.insert(key).second) continue;
        QE.push_back(std::get<0>(key));
        KE.push_back(std::get<1>(key));
        VE.push_back(std::get<2>(key));
    }
    const std::size_t k = QE.size(); // BOS, when present, is symbol k
    if (bos) {
        QE.push_back(mul_vec(head.query, *bos));
        KE.push_back(mul_vec(head.key, *bos));
        VE.push_back(mul_vec(head.value, *bos));
    }
    bool back = sees_before(head.mask);
    bool fwd = sees_after(head.mask);
    bool self = includes_self(head.mask);
    bool uses_n = false;
    for (const auto &f : m.positions)
        uses_n = uses_n || f.expr.uses_n();
    GapFacts out;
    // Tables at one length: W_Q P(i) for every i, and W_K P(j) = K0 + j D.
    std::vector<Vector> QP;
    Vector K0, D;
    auto tables = [&](std::size_t len) {
        QP.clear();
        // W_K P(j) = K0 + j D, read off the first two positions (0 and 1
        // with a BOS position, else 1 and 2: P(0) may be undefined there)
        const std::size_t a = m.has_bos() ? 0 : 1;
        Vector ka = mul_vec(head.key, position(m, a, len, where));
        Vector kb = len > a ? mul_vec(head.key, position(m, a + 1, len, where)) : ka;
        D = kb;
        K0 = ka;
        for (std::size_t c = 0; c < D.size(); ++c) {
            D[c] -= ka[c];
            K0[c] -= Rational(static_cast<long>(a)) * D[c];
        }
        for (std::size_t j = 0; j <= len; ++j) {
            if (j == 0 && !m.has_bos()) {
                QP.emplace_back(m.width, Rational(0)); // no position 0: never read
                continue;
            }
            Vector p = position(m, j, len, where);
            Vector kp = mul_vec(head.key, p);
            for (std::size_t c = 0; c < kp.size(); ++c)
                if (kp[c] != K0[c] + Rational(static_cast<long>(j)) * D[c])
                    reject(where, "its scores are not affine in the key position (at j = " +
                                      std::to_string(j) +
                                      "); this checker verifies layerwise claims for such "
                                      "heads only");
            QP.push_back(mul_vec(head.query, p));
        }
    };
    auto query = [&](std::size_t len, std::size_t i, std::size_t a) {
        check_budget(limits);
        Vector q = QE[a];
        for (std::size_t c = 0; c < q.size(); ++c)
            q[c] += QP[i][c];
        Rational b = dot(q, K0), c = dot(q, D);
        std::vector<Rational> alpha_of; // per symbol (BOS last): its offer at position 0
        for (const auto &ke : KE)
            alpha_of.push_back(dot(q, ke) + b);
        std::vector<Run> runs;
        std::vector<Rational> least_at; // per block of positions: the largest least offer
        auto block = [&](std::size_t lo, std::size_t hi) {
            Rational L = 0;
            for (std::size_t s = 0; s < k; ++s) {
                const Rational &alpha = alpha_of[s];
                runs.push_back(
                    {s, Rational(static_cast<long>(lo)), Rational(static_cast<long>(hi)), alpha});
                Rational best = alpha + c * Rational(static_cast<long>(c >= 0 ? hi : lo));
                if (s == 0 || best < L) L = best;
            }
            least_at.push_back(L);
        };
        // BOS (position 0): seen by masks looking back, or by its own query
        // when the mask includes the query
        if (bos && (i == 0 ? self : back)) {
            runs.push_back({k, Rational(0), Rational(0), alpha_of[k]});
            least_at.push_back(runs.back().alpha);
        }
        if (back && i >= 2) block(1, i - 1);
        if (self && i >= 1) {
            Rational li(static_cast<long>(i));
            runs.push_back({a, li, li, alpha_of[a]});
            least_at.push_back(runs.back().alpha + c * li);
        }
        if (fwd && i < len) block(i + 1, len);
        if (runs.empty()) return;
        Rational L = *std::max_element(least_at.begin(), least_at.end());
        for (const auto &u : runs) {
            // the positions of u whose offer is >= L
            Rational lo = u.lo, hi = u.hi;
            if (c > 0) lo = std::max(lo, ceil_of((L - u.alpha) / c));
            if (c < 0) hi = std::min(hi, floor_of((L - u.alpha) / c));
            if (c == 0 && u.alpha < L) continue;
            if (lo > hi) continue;
            for (const auto &v : runs) {
                // k = j_u - j_v != 0: different positions
                Rational delta = u.alpha - v.alpha, klo = lo - v.hi, khi = hi - v.lo;
                const Rational ends[2][2] = {{klo, std::min(khi, Rational(-1))},
                                             {std::max(klo, Rational(1)), khi}};
                for (const auto &[from, to] : ends) {
                    if (auto g = least_positive(delta, c, from, to);
                        g && (!out.gap || *g < *out.gap))
                        out.gap = *g;
                    if (VE[u.symbol] != VE[v.symbol] && has_zero(delta, c, from, to))
                        out.tie = true;
                }
            }
        }
    };
    bool one_length = !uses_n && looks_backward(head.mask);
    // query configurations, each comparing |Sigma|^2 pairs of symbols
    double dk = static_cast<double>(k), dn = static_cast<double>(n);
    double queries = (one_length ? dn * dk : dk * dn * dn / 2) * std::max(1.0, dk * dk);
    if (queries > static_cast<double>(limits.max_queries))
        throw LimitError(where + ": re-deriving its gap would examine more than " +
                         std::to_string(limits.max_queries) +
                         " query configurations (--max-queries); nothing was verified");
    if (!uses_n) tables(n);
    for (std::size_t len = 1; len <= n; ++len) {
        if (uses_n) tables(len);
        if (bos && (!one_length || len == 1)) query(len, 0, k); // the BOS query
        for (std::size_t i = one_length ? len : 1; i <= len; ++i)
            for (std::size_t a = 0; a < k; ++a)
                query(len, i, a);
    }
    return out;
}


std::string list_text(const std::set<std::size_t> &s) {
    std::string out;
    for (std::size_t c : s)
        out += (out.empty() ? "" : ", ") + std::to_string(c);
    return "[" + out + "]";
}

} // namespace

void verify_layerwise(const OJson &cert, const Model &m, std::size_t n, const Rational &eps,
                      const std::string &criterion, const Limits &limits,
                      const PrecisionPolicy &policy) {
    only_keys(cert, "$",
              {"format", "tool", "model", "n", "eps", "criterion", "method", "beta", "layers",
               "readout_exact", "verdict", "proofs"});
    only_keys(field(cert, "$", "beta"), "$.beta", {"spec", "source"});
    std::string source = text(field(cert, "$", "beta"), "$.beta", "source");
    if (source != "layerwise" && source != "user")
        reject("$.beta.source", "expected \"layerwise\" or \"user\", got \"" + source + "\"");
    same_list(cert, "$", "proofs",
              {"proofs/layerwise.md", "proofs/symbolic-gap.md", "proofs/lemma-gt.md"});
    if (criterion != "tv" && criterion != "output" && criterion != "decision")
        reject("$.criterion", "unknown criterion \"" + criterion + "\"");
    if (text(cert, "$", "verdict") != "certified")
        reject("$.verdict", "a layerwise certificate claims \"certified\"");
    std::set<std::size_t> features;
    for (const auto &f : m.positions)
        features.insert(f.dim);
    for (std::size_t l = 0; l < m.layers.size(); ++l) {
        const Layer &layer = m.layers[l];
        std::string p = "layer " + std::to_string(l + 1);
        for (std::size_t c : features) {
            for (const auto &h : layer.heads)
                if (column_used(h.value, c) || row_used(h.output, c))
                    reject("$.method", p +
                                           ": a head's value reads or output writes feature "
                                           "coordinate " +
                                           std::to_string(c));
            if (layer.ffn && (column_used(layer.ffn->w1, c) || row_used(layer.ffn->w2, c) ||
                              layer.ffn->b2[c] != 0))
                reject("$.method", p + ": the feed-forward sublayer touches feature coordinate " +
                                       std::to_string(c));
        }
    }
    BetaSpec beta = [&] {
        std::string spec = text(field(cert, "$", "beta"), "$.beta", "spec");
        try {
            return BetaSpec::parse(spec, m.layers.size(), "$.beta.spec");
        } catch (const InputError &e) {
            reject("$.beta.spec", e.what());
        }
    }();
    const OJson &layers = field(cert, "$", "layers");
    if (!layers.is_array() || layers.size() != m.layers.size())
        reject("$.layers",
               "expected one entry per layer (" + std::to_string(m.layers.size()) + ")");
    const std::size_t cap = limits.max_values; // hard values per position (--max-values)
    std::vector<Vector> S, B;       // free positions' hard values, BOS's
    for (const auto &sym : m.alphabet)
        S.push_back(m.embedding.at(sym));
    if (m.has_bos()) B.push_back(m.embedding.at(*m.bos));
    std::set<std::size_t> tainted;
    Counts counts; // count coordinates (check_counts.hpp)
    for (std::size_t l = 0; l < m.layers.size(); ++l) {
        const Layer &layer = m.layers[l];
        const std::string p = "$.layers[" + std::to_string(l) + "]";
        check_count_reads(layer, counts, features, p);
        const OJson &claim = layers[l];
        if (count(claim, p, "values") != S.size())
            reject(p + ".values", "claims " + std::to_string(count(claim, p, "values")) +
                                      ", recomputed " + std::to_string(S.size()));
        if (count(claim, p, "bos_values") != B.size())
            reject(p + ".bos_values", "claims " + std::to_string(count(claim, p, "bos_values")) +
                                          ", recomputed " + std::to_string(B.size()));
        for (std::size_t c : tainted) {
            for (const auto &h : layer.heads)
                if (column_used(h.query, c) || column_used(h.key, c) || column_used(h.value, c))
                    reject(p, "a head reads coordinate " + std::to_string(c) +
                                  ", which the soft model perturbs");
            if (layer.ffn && column_used(layer.ffn->w1, c))
                reject(p, "the feed-forward sublayer reads coordinate " + std::to_string(c) +
                              ", which the soft model perturbs");
        }
        only_keys(claim, p, {"layer", "values", "bos_values", "heads", "perturbed"});
        same_count(claim, p, "layer", l + 1);
        const OJson &heads = field(claim, p, "heads");
        if (!heads.is_array() || heads.size() != layer.heads.size())
            reject(p + ".heads",
                   "expected one entry per head (" + std::to_string(layer.heads.size()) + ")");
        Rational need = 0;
        Vector span(m.width, Rational(0)), span_B(m.width, Rational(0)); // real positions, BOS
        std::vector<std::vector<Vector>> outputs, outputs_B;
        Counts fresh;
        for (std::size_t h = 0; h < layer.heads.size(); ++h) {
            const Head &head = layer.heads[h];
            const std::string hp = p + ".heads[" + std::to_string(h) + "]";
            GapFacts f;
            bool uniform = is_uniform(head, S, B);
            if (uniform) {
                // exact at every beta; real positions' outputs are counts
                add_counts(layer, h, S, B, fresh, hp);
            } else if (reads_count(head.query, counts)) {
                f.gap = counting_gap(head, S, B, counts, n, m.has_bos(), hp);
            } else {
                // BOS holds one of B in a word: the least gap over the choices
                for (std::size_t x = 0; x < std::max<std::size_t>(B.size(), 1); ++x) {
                    GapFacts one =
                        head_facts(m, head, S, B.empty() ? nullptr : &B[x], n, hp, limits);
                    if (one.gap && (!f.gap || *one.gap < *f.gap)) f.gap = one.gap;
                    f.tie = f.tie || one.tie;
                }
            }
            if (f.tie) reject(hp, "two positions can tie with different values");
            only_keys(heads[h], hp, {"head", "min_gap", "N", "beta_gap_up"});
            same_count(heads[h], hp, "head", h + 1);
            same_gap(heads[h], hp, "min_gap", f.gap);
            std::size_t N = max_allowed(head.mask, n, m.has_bos());
            if (count(heads[h], hp, "N") != N)
                reject(hp + ".N", "claims " + std::to_string(count(heads[h], hp, "N")) +
                                      ", recomputed " + std::to_string(N));
            // an upper bound of Lemma GT's beta, compared as an inequality
            rounded_up(heads[h], hp, "beta_gap_up", LemmaGt{N, f.gap, eps}, policy);
            need = std::max(need, exact(heads[h], hp, "beta_gap_up"));
            auto outs = [&](const std::vector<const std::vector<Vector> *> &sets, bool empty) {
                std::set<Vector> out;
                for (const auto *set : sets)
                    for (const auto &d : *set)
                        out.insert(mul_vec(head.output, mul_vec(head.value, d)));
                if (empty) out.insert(Vector(m.width, Rational(0))); // an empty allowed set
                return std::vector<Vector>(out.begin(), out.end());
            };
            auto widen = [&](Vector &sp, const std::vector<Vector> &out) {
                for (std::size_t c = 0; c < m.width; ++c) {
                    Rational lo = out.front()[c], hi = lo;
                    for (const auto &o : out) {
                        lo = std::min(lo, o[c]);
                        hi = std::max(hi, o[c]);
                    }
                    sp[c] += hi - lo;
                }
            };
            if (uniform) { // counts stay out of S; BOS averages over itself
                outputs.push_back({Vector(m.width, Rational(0))});
                outputs_B.push_back(outs({&B}, false));
                continue;
            }
            std::vector<Vector> out = outs({&S, &B}, can_be_empty(head.mask));
            widen(span, out);
            outputs.push_back(out);
            if (head.mask == Mask::Causal) { // BOS's query sees BOS alone: exact
                outputs_B.push_back(outs({&B}, false));
            } else if (head.mask == Mask::Strict) { // BOS's query sees nothing
                outputs_B.push_back({Vector(m.width, Rational(0))});
            } else {
                widen(span_B, out);
                outputs_B.push_back(out);
            }
        }
        // every length's beta of this layer is positive and meets Lemma GT's need
        for (std::size_t len = 1; len <= (beta.uses_n() ? n : 1); ++len) {
            Real b = [&] {
                try {
                    return beta.at(l, len, policy.start);
                } catch (const std::runtime_error &e) { // not positive, or undecided
                    reject("$.beta.spec", e.what());
                }
            }();
            if (need > 0 && less(b, Real(need), policy.start) != Tri::False)
                reject("$.beta.spec",
                       "layer " + std::to_string(l + 1) + " needs beta >= " + to_string(need) +
                           " (Lemma GT over its value set)" +
                           (beta.uses_n() ? ", not met at n = " + std::to_string(len) : ""));
        }
        for (const auto &entry : fresh)
            counts.insert(entry);
        std::set<std::size_t> perturbed = tainted, perturbed_B = tainted;
        for (std::size_t c = 0; c < m.width; ++c) {
            if (span[c] != 0) perturbed.insert(c);
            if (span_B[c] != 0) perturbed_B.insert(c);
        }
        std::set<std::size_t> next_tainted;
        if (!layer.ffn) next_tainted = perturbed;
        // one position's values: half-activations, then the sublayer on each,
        // phase-stable within the radius
        auto advance = [&](const std::vector<Vector> &start,
                           const std::vector<std::vector<Vector>> &outputs,
                           const std::set<std::size_t> &perturbed, const Vector &span) {
            std::set<Vector> half(start.begin(), start.end());
            for (const auto &out : outputs) {
                std::set<Vector> next;
                for (const auto &d : half)
                    for (const auto &o : out) {
                        Vector s = d;
                        for (std::size_t c = 0; c < s.size(); ++c)
                            s[c] += o[c];
                        next.insert(std::move(s));
                    }
                if (next.size() > cap)
                    reject(p, "more than " + std::to_string(cap) + " hard values (--max-values)");
                half = std::move(next);
            }
            if (!layer.ffn) return std::vector<Vector>(half.begin(), half.end());
            const Ffn &f = *layer.ffn;
            std::set<Vector> after;
            for (const auto &d : half) {
                Vector pre = mul_vec(f.w1, d), out = d;
                std::vector<bool> on(pre.size());
                for (std::size_t u = 0; u < pre.size(); ++u) {
                    pre[u] += f.b1[u];
                    Rational R = 0;
                    for (std::size_t c : perturbed)
                        R += abs(f.w1[u][c]) * eps * span[c];
                    if (pre[u] > -R && pre[u] < R)
                        reject(p, "ReLU unit " + std::to_string(u + 1) +
                                      " can change phase within the soft radius");
                    on[u] = pre[u] >= R;
                    if (on[u])
                        for (std::size_t c = 0; c < m.width; ++c)
                            out[c] += f.w2[c][u] * pre[u];
                }
                for (std::size_t c = 0; c < m.width; ++c) {
                    out[c] += f.b2[c];
                    for (std::size_t q : perturbed) {
                        Rational jac = c == q ? 1 : 0;
                        for (std::size_t u = 0; u < pre.size(); ++u)
                            if (on[u]) jac += f.w2[c][u] * f.w1[u][q];
                        if (jac != 0) next_tainted.insert(c);
                    }
                }
                after.insert(std::move(out));
            }
            return std::vector<Vector>(after.begin(), after.end());
        };
        std::vector<Vector> S_next = advance(S, outputs, perturbed, span),
                            B_next = advance(B, outputs_B, perturbed_B, span_B);
        tainted = next_tainted;
        std::set<std::size_t> claimed;
        const OJson &pj = field(claim, p, "perturbed");
        if (!pj.is_array()) reject(p + ".perturbed", "expected a list of coordinates");
        for (const auto &c : pj) {
            if (!c.is_number_unsigned()) reject(p + ".perturbed", "expected coordinates");
            claimed.insert(c.get<std::size_t>());
        }
        if (claimed != tainted)
            reject(p + ".perturbed",
                   "claims " + list_text(claimed) + ", recomputed " + list_text(tainted));
        S = std::move(S_next);
        B = std::move(B_next);
    }
    bool exact_readout = true;
    const std::vector<std::size_t> read = m.output.coordinates(); // sorted
    for (const auto &entry : counts)
        if (std::binary_search(read.begin(), read.end(), entry.first))
            reject("$.readout_exact", "the read-out reads count coordinate " +
                                          std::to_string(entry.first));
    for (std::size_t c : tainted)
        exact_readout = exact_readout && !std::binary_search(read.begin(), read.end(), c);
    const OJson &ro = field(cert, "$", "readout_exact");
    if (!ro.is_boolean() || ro.get<bool>() != exact_readout)
        reject("$.readout_exact", std::string("recomputed ") + (exact_readout ? "true" : "false"));
    if (criterion != "tv" && !exact_readout)
        reject("$.criterion", "the read-out reads a perturbed coordinate, so only tv is certified");
}

} // namespace tempcert::check
