// Count coordinates, re-derived for the checker (check_counts.hpp).
#include "check_counts.hpp"
#include "check_fields.hpp"

#include "tempcert/exact_vector.hpp"
#include "tempcert/limits.hpp"

namespace tempcert::check {

namespace {

bool zero_matrix(const Matrix &w) {
    for (const auto &row : w)
        for (const auto &x : row)
            if (x != 0) return false;
    return true;
}

bool column_read(const Matrix &w, std::size_t c) {
    for (const auto &row : w)
        if (row[c] != 0) return true;
    return false;
}

bool row_written(const Matrix &w, std::size_t r) {
    for (const auto &x : w[r])
        if (x != 0) return true;
    return false;
}

// gcd of non-negative rationals: a/b and c/d -> gcd(ad, cb) / bd
Rational gcd_q(const Rational &x, const Rational &y) {
    if (x == 0) return y;
    if (y == 0) return x;
    Integer a = numerator(x) * denominator(y), b = numerator(y) * denominator(x);
    while (b != 0) {
        Integer t = a % b;
        a = b;
        b = t;
    }
    return Rational(a) / Rational(Integer(denominator(x) * denominator(y)));
}

// x mod G in [0, G), G > 0
Rational mod_q(const Rational &x, const Rational &G) {
    Rational k = x / G;
    Integer f = numerator(k) / denominator(k);
    if (k < 0 && Rational(f) != k) f -= 1;
    return x - G * Rational(f);
}

// The output coordinate c of the head at value d.
Rational out_at(const Head &head, const Vector &d, std::size_t c) {
    return matvec(head.output, matvec(head.value, d))[c];
}

} // namespace

bool reads_count(const Matrix &w, const Counts &counts) {
    for (const auto &entry : counts)
        if (column_read(w, entry.first)) return true;
    return false;
}

bool is_uniform(const Head &head, const std::vector<Vector> &S, const std::vector<Vector> &B) {
    if (!(zero_matrix(head.query) || zero_matrix(head.key)) || head.kind != AttnKind::Average ||
        head.mask != Mask::Causal)
        return false;
    std::set<Vector> outs;
    for (const auto *set : {&S, &B})
        for (const auto &d : *set)
            outs.insert(matvec(head.output, matvec(head.value, d)));
    return outs.size() > 1;
}

void add_counts(const Layer &layer, std::size_t h, const std::vector<Vector> &S,
                const std::vector<Vector> &B, Counts &counts, const std::string &where) {
    const Head &head = layer.heads[h];
    for (std::size_t c = 0; c < head.output.size(); ++c) {
        if (!row_written(head.output, c)) continue;
        std::string what = "count coordinate " + std::to_string(c);
        for (std::size_t o = 0; o < layer.heads.size(); ++o)
            if (o != h && row_written(layer.heads[o].output, c))
                reject(where, "another head writes " + what);
        if (layer.ffn && (column_read(layer.ffn->w1, c) || row_written(layer.ffn->w2, c) ||
                          layer.ffn->b2[c] != 0))
            reject(where, "the feed-forward sublayer touches " + what);
        for (const auto *set : {&S, &B})
            for (const auto &d : *set)
                if (d[c] != 0) reject(where, what + " is not 0 before the uniform head");
        Numerator z;
        for (std::size_t k = 0; k < S.size(); ++k) {
            Rational v = out_at(head, S[k], c);
            z.vmin = k == 0 ? v : std::min(z.vmin, v);
            z.vmax = k == 0 ? v : std::max(z.vmax, v);
        }
        for (std::size_t k = 0; k < B.size(); ++k) {
            Rational b = out_at(head, B[k], c);
            if (k == 0) z.base = b;
            z.bmin = k == 0 ? b : std::min(z.bmin, b);
            z.bmax = k == 0 ? b : std::max(z.bmax, b);
        }
        z.step = 0;
        for (const auto &d : S)
            z.step = gcd_q(z.step, out_at(head, d, c) - z.vmin);
        for (const auto &b : B) {
            Rational diff = out_at(head, b, c) - z.base;
            z.step = gcd_q(z.step, diff < 0 ? Rational(-diff) : diff);
        }
        counts[c] = z;
    }
}

void check_count_reads(const Layer &layer, const Counts &counts,
                       const std::set<std::size_t> &features, const std::string &where) {
    for (const auto &head : layer.heads) {
        for (const auto &[c, z] : counts) {
            if (column_read(head.value, c) || column_read(head.key, c) ||
                row_written(head.output, c))
                reject(where, "a head's value or key reads, or its output writes, count "
                              "coordinate " +
                                  std::to_string(c));
        }
        if (!reads_count(head.query, counts)) continue;
        if (head.kind != AttnKind::Average ||
            (head.mask != Mask::Causal && head.mask != Mask::Strict))
            reject(where, "a head whose query reads a count coordinate is not average-hard with "
                          "a causal or strict mask");
        for (std::size_t f : features)
            if (column_read(head.query, f) || column_read(head.key, f))
                reject(where, "a counting head's query or key reads feature coordinate " +
                                  std::to_string(f));
    }
    if (layer.ffn)
        for (const auto &[c, z] : counts)
            if (column_read(layer.ffn->w1, c) || row_written(layer.ffn->w2, c) ||
                layer.ffn->b2[c] != 0)
                reject(where,
                       "the feed-forward sublayer touches count coordinate " + std::to_string(c));
}

std::optional<Rational> counting_gap(const Head &head, const std::vector<Vector> &S,
                                     const std::vector<Vector> &B, const Counts &counts,
                                     std::size_t n, bool bos, const std::string &where) {
    // key -> (values of positions holding it, whether a real position can)
    std::map<Vector, std::pair<std::set<Vector>, bool>> keys;
    for (const auto &d : S) {
        auto &e = keys[matvec(head.key, d)];
        e.first.insert(matvec(head.value, d));
        e.second = true;
    }
    for (const auto &b : B)
        keys[matvec(head.key, b)].first.insert(matvec(head.value, b));
    for (const auto &[k, e] : keys)
        if (e.first.size() != 1) reject(where, "positions with one key carry different values");
    std::optional<Rational> least;
    for (auto p = keys.begin(); p != keys.end(); ++p)
        for (auto r = std::next(p); r != keys.end(); ++r) {
            if (!p->second.second && !r->second.second) continue; // two BOS keys: one BOS
            Vector delta(p->first.size());
            for (std::size_t k = 0; k < delta.size(); ++k)
                delta[k] = p->first[k] - r->first[k];
            Vector qdelta(head.query.empty() ? 0 : head.query[0].size(), Rational(0));
            for (std::size_t row = 0; row < head.query.size(); ++row)
                for (std::size_t c = 0; c < qdelta.size(); ++c)
                    qdelta[c] += head.query[row][c] * delta[row]; // W_Q^T delta
            std::set<Rational> offsets; // (W_Q d) . delta over S, count coordinates 0 there
            for (const auto &d : S) {
                offsets.insert(dot(qdelta, d));
            }
            Rational G = 0;
            for (const auto &[c, z] : counts)
                G = gcd_q(G, (qdelta[c] < 0 ? Rational(-qdelta[c]) : qdelta[c]) * z.step);
            bool distinct = p->second.first != r->second.first;
            for (std::size_t i = 1; i <= n; ++i) {
                Rational N(static_cast<long>(i + (bos ? 1 : 0))), I(static_cast<long>(i));
                Rational centre = 0, low = 0, high = 0;
                for (const auto &[c, z] : counts) {
                    const Rational &g = qdelta[c];
                    Rational e1 = g * (z.bmin + I * z.vmin), e2 = g * (z.bmax + I * z.vmax);
                    centre += g * (z.base + I * z.vmin);
                    low += e1 < e2 ? e1 : e2;
                    high += e1 < e2 ? e2 : e1;
                }
                for (const auto &a : offsets) {
                    Rational x0 = N * a + centre, lo = N * a + low, hi = N * a + high;
                    std::optional<Rational> best;
                    bool zero = false;
                    if (G == 0) {
                        zero = x0 == 0;
                        if (!zero) best = x0 < 0 ? Rational(-x0) : x0;
                    } else {
                        Rational res = mod_q(x0, G);
                        // least lattice point >= max(lo, 0), greatest <= min(hi, 0)
                        Rational from = lo > 0 ? lo : Rational(0);
                        Rational up = from + mod_q(res - from, G);
                        if (up == 0) {
                            zero = lo <= 0 && hi >= 0;
                            up += G;
                        }
                        if (up <= hi) best = up;
                        Rational to = hi < 0 ? hi : Rational(0);
                        Rational down = to - mod_q(to - res, G);
                        if (down == 0) down -= G;
                        if (down >= lo && (!best || -down < *best)) best = -down;
                    }
                    if (zero && distinct)
                        reject(where, "two positions with different values can tie at query "
                                      "position " +
                                          std::to_string(i));
                    if (best && (!least || *best / N < *least)) least = *best / N;
                }
            }
        }
    return least;
}

} // namespace tempcert::check
