// Exact hard attention per query: the maximum decided on exact rationals
// (or on intervals raised in precision, Undecided at the cap), the hard
// weights of each kind, one hard query. Part of the checker's kernel.
#include "hard_ops.hpp"
#include "layer_ops.hpp"
#include "tempcert/error.hpp"

#include <algorithm>

namespace tempcert::detail {

namespace {

[[noreturn]] void undecided_tie(std::size_t layer, std::size_t head, std::size_t query,
                                std::size_t a, std::size_t b) {
    throw Undecided("layer " + std::to_string(layer) + " head " + std::to_string(head) + " query " +
                    std::to_string(query) + ": cannot decide whether the scores of " +
                    "positions " + std::to_string(a) + " and " + std::to_string(b) +
                    " tie (irrational features)");
}
} // namespace

void decide_maximum(QueryTrace &q, std::size_t layer, std::size_t head, Prec prec) {
    const auto &s = q.scores;
    std::size_t best = 0;
    for (std::size_t a = 1; a < s.size(); ++a) {
        Tri lt = less(s[best], s[a], prec);
        if (lt == Tri::True)
            best = a;
        else if (lt == Tri::Unknown && equal(s[best], s[a], prec) != Tri::True)
            undecided_tie(layer, head, q.query, q.allowed[best], q.allowed[a]);
    }
    std::optional<std::size_t> second;
    for (std::size_t a = 0; a < s.size(); ++a) {
        // a score equals itself: decided by identity, since an irrational
        // enclosure compared with itself is never certainly equal
        // (proofs/irrational-ties.md)
        Tri eq = a == best ? Tri::True : equal(s[a], s[best], prec);
        if (eq == Tri::Unknown) undecided_tie(layer, head, q.query, q.allowed[best], q.allowed[a]);
        if (eq == Tri::True) {
            q.argmax.push_back(q.allowed[a]);
            continue;
        }
        if (!second) {
            second = a;
            continue;
        }
        Tri lt = less(s[*second], s[a], prec);
        if (lt == Tri::True)
            second = a;
        else if (lt == Tri::Unknown && equal(s[*second], s[a], prec) != Tri::True)
            undecided_tie(layer, head, q.query, q.allowed[*second], q.allowed[a]);
    }
    if (second) {
        q.gap = sub(s[best], s[*second], prec);
        q.runner_up = q.allowed[*second];
    }
}

RealVector hard_weights(AttnKind kind, const QueryTrace &q) {
    RealVector w(q.allowed.size(), Real(0L));
    std::size_t count = q.argmax.size();
    for (std::size_t a = 0; a < q.allowed.size(); ++a) {
        std::size_t j = q.allowed[a];
        // argmax is increasing (decide_maximum walks the allowed positions in
        // order): a search, not a scan, keeps a query with n holders O(n log n)
        bool in_m = std::binary_search(q.argmax.begin(), q.argmax.end(), j);
        if (!in_m) continue;
        if (kind == AttnKind::Average)
            w[a] = Rational(1, static_cast<long>(count));
        else if (kind == AttnKind::Leftmost && j == q.argmax.front())
            w[a] = 1L;
        else if (kind == AttnKind::Rightmost && j == q.argmax.back())
            w[a] = 1L;
    }
    return w;
}

bool same_values(const QueryTrace &q, const std::vector<RealVector> &values, bool bos,
                 std::size_t layer, std::size_t head, Prec prec) {
    const RealVector &first = values[index_of(q.argmax.front(), bos)];
    for (std::size_t j : q.argmax) {
        if (j == q.argmax.front()) continue; // itself, by identity (item 15)
        const RealVector &v = values[index_of(j, bos)];
        for (std::size_t c = 0; c < v.size(); ++c) {
            Tri eq = equal(v[c], first[c], prec);
            if (eq == Tri::Unknown)
                throw Undecided("layer " + std::to_string(layer) + " head " + std::to_string(head) +
                                " query " + std::to_string(q.query) +
                                ": cannot decide whether tied positions carry equal values");
            if (eq == Tri::False) return false;
        }
    }
    return true;
}

QueryTrace hard_query(const Head &head, std::size_t query, const RealVector &x_query,
                      const std::vector<RealVector> &keys, const std::vector<RealVector> &values,
                      std::size_t n, bool bos, std::size_t width, std::size_t layer,
                      std::size_t head_no, Prec prec) {
    QueryTrace q;
    q.query = query;
    q.allowed = allowed_positions(head.mask, query, n, bos);
    if (q.allowed.empty()) {
        q.output.assign(width, Real(0L));
        return q;
    }
    q.scores = scores(matvec(head.query, x_query, prec), keys, q.allowed, bos, prec);
    decide_maximum(q, layer, head_no, prec);
    q.weights = hard_weights(head.kind, q);
    q.ties_share_value = same_values(q, values, bos, layer, head_no, prec);
    q.output = head_output(head, q.weights, values, q.allowed, bos, prec);
    return q;
}

} // namespace tempcert::detail
