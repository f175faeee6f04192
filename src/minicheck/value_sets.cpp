// Value sets and the preconditions on features; see value_sets.hpp.
#include "value_sets.hpp"
#include "claim_checks.hpp"

#include <algorithm>

namespace minicheck {
bool reads_column(const Mat &w, std::size_t c) {
    return std::any_of(w.begin(), w.end(), [&](const Vec &row) { return row[c] != 0; });
}

bool writes_row(const Mat &w, std::size_t r) {
    return std::any_of(w[r].begin(), w[r].end(), [](const Q &x) { return x != 0; });
}

std::set<std::size_t> feature_coordinates(const Model &m) {
    std::set<std::size_t> out;
    for (const auto &f : m.features)
        out.insert(f.dim);
    return out;
}

void check_features_untouched(const Model &m) {
    for (std::size_t l = 0; l < m.layers.size(); ++l)
        for (std::size_t f : feature_coordinates(m)) {
            const Layer &layer = m.layers[l];
            const std::string where = "layer " + std::to_string(l + 1) + ": ";
            for (const auto &h : layer.heads)
                if (reads_column(h.value, f) || writes_row(h.output, f))
                    rejected("$.method", where +
                                             "a head's value or output touches feature "
                                             "coordinate " +
                                             std::to_string(f));
            if (layer.ffn && (reads_column(layer.ffn->w1, f) || writes_row(layer.ffn->w2, f) ||
                              layer.ffn->b2[f] != 0))
                rejected("$.method", where +
                                         "the feed-forward sublayer touches feature "
                                         "coordinate " +
                                         std::to_string(f));
        }
}

bool can_be_empty(Mask mask) {
    return mask == Mask::Strict || mask == Mask::StrictFuture;
}

std::set<Vec> head_outputs(const Head &head, std::initializer_list<const std::vector<Vec> *> sets,
                           bool empty, std::size_t width) {
    std::set<Vec> out;
    for (const auto *set : sets)
        for (const Vec &d : *set)
            out.insert(mat_times(head.output, mat_times(head.value, d)));
    if (empty) out.insert(Vec(width, 0));
    return out;
}

std::set<Vec> plus_outputs(const std::vector<Vec> &start, const std::vector<std::set<Vec>> &add,
                           std::uint64_t cap, const std::string &path) {
    std::set<Vec> half(start.begin(), start.end());
    for (const auto &outs : add) {
        std::set<Vec> sums;
        for (const Vec &d : half)
            for (const Vec &o : outs) {
                Vec s = d;
                for (std::size_t c = 0; c < s.size(); ++c)
                    s[c] += o[c];
                sums.insert(std::move(s));
            }
        if (sums.size() > cap)
            unsupported(path, "more than " + std::to_string(cap) + " hard values per position");
        half = std::move(sums);
    }
    return half;
}

std::size_t most_seen(const Model &m, Mask mask, std::size_t n) {
    std::size_t most = 0;
    const long len = static_cast<long>(n);
    for (long i = m.bos ? 0 : 1; i <= len; ++i) {
        auto [first, last] = seen_positions(mask, i, len);
        std::size_t seen = first <= last ? static_cast<std::size_t>(last - first + 1) : 0;
        most = std::max(most, seen + (m.bos && mask_allows(mask, static_cast<std::size_t>(i), 0)));
    }
    return most;
}

std::optional<Q> least_gap(const Model &m, const Head &head, const std::vector<Vec> &S,
                           const std::vector<Vec> &B, std::size_t n, std::uint64_t budget,
                           const std::string &path, const ProfileRequest *profile) {
    ValueGap g;
    for (std::size_t b = 0; b < std::max<std::size_t>(B.size(), 1); ++b) {
        ValueGap one = value_gap(m, head, S, B.empty() ? nullptr : &B[b], n, budget, path, profile);
        if (one.gap && (!g.gap || *one.gap < *g.gap)) g.gap = one.gap;
        g.tie = g.tie || one.tie;
    }
    if (g.tie) rejected(path, "two positions can share the maximum score with different values");
    return g.gap;
}

const Json &argument_fields(const Json &cert, const Model &m, const std::string &own,
                            const char *kind_key) {
    only_keys(cert, "$",
              {"format", "tool", "model", "n", "eps", "criterion", "method", "beta", "layers",
               kind_key, "verdict", "proofs"});
    const Json &beta = at(cert, "$", "beta");
    only_keys(beta, "$.beta", {"spec", "source"});
    const std::string source = text_at(beta, "$.beta", "source");
    same(source == own || source == "user", "$.beta.source", source, "\"" + own + "\" or \"user\"");
    same(text_at(cert, "$", "verdict") == "certified", "$.verdict", text_at(cert, "$", "verdict"),
         "certified (a " + own + " certificate claims nothing else)");
    check_features_untouched(m);
    const Json &layers = at(cert, "$", "layers");
    require_array(layers, "$.layers");
    same(layers.size() == m.layers.size(), "$.layers", std::to_string(layers.size()) + " layers",
         std::to_string(m.layers.size()));
    return layers;
}

std::vector<Vec> first_values(const Model &m) {
    return std::vector<Vec>(m.embedding.begin(), m.embedding.begin() + m.alphabet.size());
}

std::vector<Vec> first_bos_values(const Model &m) {
    return m.bos ? std::vector<Vec>{m.embedding.back()} : std::vector<Vec>{};
}
} // namespace minicheck
