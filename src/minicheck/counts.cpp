// Count coordinates and counting heads; see counts.hpp.
#include "counts.hpp"
#include "value_sets.hpp"

#include <algorithm>

namespace minicheck {
namespace {
bool zero(const Mat &w) {
    return std::all_of(w.begin(), w.end(), [](const Vec &row) {
        return std::all_of(row.begin(), row.end(), [](const Q &x) { return x == 0; });
    });
}

// gcd of non-negative rationals p/q and r/s: gcd(p s, r q) / (q s)
Q gcd(const Q &x, const Q &y) {
    if (x == 0) return y;
    if (y == 0) return x;
    mpz_class a = x.get_num() * y.get_den(), b = y.get_num() * x.get_den(), g;
    mpz_gcd(g.get_mpz_t(), a.get_mpz_t(), b.get_mpz_t());
    Q out(g, x.get_den() * y.get_den());
    out.canonicalize();
    return out;
}

Q output_at(const Head &head, const Vec &d, std::size_t c) {
    return mat_times(head.output, mat_times(head.value, d))[c];
}
} // namespace

bool uniform(const Head &head, const std::vector<Vec> &S, const std::vector<Vec> &B,
             std::size_t width) {
    return (zero(head.query) || zero(head.key)) && head.kind == Kind::Average &&
           head.mask == Mask::Causal && head_outputs(head, {&S, &B}, false, width).size() > 1;
}

bool reads_counts(const Mat &w, const Counts &counts) {
    return std::any_of(counts.begin(), counts.end(),
                       [&](const auto &entry) { return reads_column(w, entry.first); });
}

void add_counts(const Layer &layer, std::size_t h, const std::vector<Vec> &S,
                const std::vector<Vec> &B, Counts &counts, const std::string &path) {
    const Head &head = layer.heads[h];
    for (std::size_t c = 0; c < head.output.size(); ++c) {
        if (!writes_row(head.output, c)) continue;
        const std::string what = "count coordinate " + std::to_string(c);
        for (std::size_t o = 0; o < layer.heads.size(); ++o)
            if (o != h && writes_row(layer.heads[o].output, c))
                rejected(path, "another head writes " + what);
        if (layer.ffn && (reads_column(layer.ffn->w1, c) || writes_row(layer.ffn->w2, c) ||
                          layer.ffn->b2[c] != 0))
            rejected(path, "the feed-forward sublayer touches " + what);
        for (const auto *set : {&S, &B})
            for (const Vec &d : *set)
                if (d[c] != 0) rejected(path, what + " is not 0 before the uniform head");
        Numerator z;
        std::vector<Q> v, b;
        for (const Vec &d : S)
            v.push_back(output_at(head, d, c));
        for (const Vec &d : B)
            b.push_back(output_at(head, d, c));
        z.vmin = *std::min_element(v.begin(), v.end());
        z.vmax = *std::max_element(v.begin(), v.end());
        if (!b.empty()) {
            z.base = b.front();
            z.bmin = *std::min_element(b.begin(), b.end());
            z.bmax = *std::max_element(b.begin(), b.end());
        }
        z.step = 0;
        for (const Q &x : v)
            z.step = gcd(z.step, x - z.vmin);
        for (const Q &x : b)
            z.step = gcd(z.step, abs(x - z.base));
        counts[c] = z;
    }
}

void check_count_reads(const Layer &layer, const Counts &counts,
                       const std::set<std::size_t> &features, const std::string &path) {
    for (const auto &head : layer.heads) {
        for (const auto &entry : counts)
            if (reads_column(head.value, entry.first) || reads_column(head.key, entry.first) ||
                writes_row(head.output, entry.first))
                rejected(path, "a head's value or key reads, or its output writes, count "
                               "coordinate " +
                                   std::to_string(entry.first));
        if (!reads_counts(head.query, counts)) continue;
        if (head.kind != Kind::Average || (head.mask != Mask::Causal && head.mask != Mask::Strict))
            rejected(path, "a head whose query reads a count coordinate is not average-hard "
                           "with a causal or strict mask");
        for (std::size_t f : features)
            if (reads_column(head.query, f) || reads_column(head.key, f))
                rejected(path, "a counting head's query or key reads feature coordinate " +
                                   std::to_string(f));
    }
    for (const auto &entry : counts)
        if (layer.ffn &&
            (reads_column(layer.ffn->w1, entry.first) || writes_row(layer.ffn->w2, entry.first) ||
             layer.ffn->b2[entry.first] != 0))
            rejected(path, "the feed-forward sublayer touches count coordinate " +
                               std::to_string(entry.first));
}

namespace {
// The least |x| != 0 over x = x0 + G t in [lo, hi] (G = 0: x0 alone), and
// whether 0 is one of them.
std::pair<std::optional<Q>, bool> nearest_nonzero(const Q &x0, const Q &G, const Q &lo,
                                                  const Q &hi) {
    constexpr long kEdge = 1L << 62;
    long first = 0, last = 0;
    if (G != 0) {
        first = clamped(ceil_of((lo - x0) / G), -kEdge, kEdge);
        last = clamped(floor_of((hi - x0) / G), -kEdge, kEdge);
    }
    const Line up(x0, G), down(-x0, -G); // x and -x
    std::optional<Q> a = up.least_positive(first, last), b = down.least_positive(first, last);
    if (b && (!a || *b < *a)) a = b;
    return {a, up.zero_in(first, last)};
}
} // namespace

std::optional<Q> counting_gap(const Head &head, const std::vector<Vec> &S,
                              const std::vector<Vec> &B, const Counts &counts, std::size_t n,
                              bool bos, const std::string &path) {
    struct Key {
        std::set<Vec> values;
        bool real = false; // held by a real position (else by BOS alone)
    };
    std::map<Vec, Key> keys;
    for (const Vec &d : S) {
        Key &k = keys[mat_times(head.key, d)];
        k.values.insert(mat_times(head.value, d));
        k.real = true;
    }
    for (const Vec &d : B)
        keys[mat_times(head.key, d)].values.insert(mat_times(head.value, d));
    for (const auto &entry : keys)
        if (entry.second.values.size() > 1)
            rejected(path, "positions with one key carry different values");
    std::optional<Q> least;
    for (auto p = keys.begin(); p != keys.end(); ++p)
        for (auto r = std::next(p); r != keys.end(); ++r) {
            if (!p->second.real && !r->second.real) continue; // one BOS holds one key
            // the score difference q . (k_p - k_r), q = W_Q x: g = W_Q^T (k_p - k_r)
            Vec g(head.query.empty() ? 0 : head.query[0].size(), 0);
            for (std::size_t row = 0; row < head.query.size(); ++row)
                for (std::size_t c = 0; c < g.size(); ++c)
                    g[c] += head.query[row][c] * (p->first[row] - r->first[row]);
            std::set<Q> offsets; // g . d over S, whose count coordinates are 0
            for (const Vec &d : S)
                offsets.insert(dot(g, d));
            Q G = 0;
            for (const auto &[c, z] : counts)
                G = gcd(G, abs(g[c]) * z.step);
            const bool differ = p->second.values != r->second.values;
            for (std::size_t i = 1; i <= n; ++i) {
                const Q N(static_cast<unsigned long>(i + (bos ? 1 : 0)));
                const Q I(static_cast<unsigned long>(i));
                Q centre = 0, low = 0, high = 0; // sum_c g_c z_c: a lattice point, its range
                for (const auto &[c, z] : counts) {
                    Q e1 = g[c] * (z.bmin + I * z.vmin), e2 = g[c] * (z.bmax + I * z.vmax);
                    centre += g[c] * (z.base + I * z.vmin);
                    low += std::min(e1, e2);
                    high += std::max(e1, e2);
                }
                for (const Q &a : offsets) {
                    auto [best, tie] =
                        nearest_nonzero(N * a + centre, G, N * a + low, N * a + high);
                    if (tie && differ)
                        rejected(path, "two positions with different values can tie at query "
                                       "position " +
                                           std::to_string(i));
                    if (best && (!least || *best / N < *least)) least = *best / N;
                }
            }
        }
    return least;
}
} // namespace minicheck
