// Exact evaluation of the hard model H (SPEC 2.3, 3, 5.1): maxima, ties and
// gaps are decided on exact rationals; with irrational features, on
// intervals whose precision rises until decided, or Undecided at the cap.
#include "layer_ops.hpp"
#include "tempcert/error.hpp"
#include "tempcert/eval.hpp"

namespace tempcert {

namespace {

using namespace detail;

[[noreturn]] void undecided_tie(std::size_t layer, std::size_t head, std::size_t query,
                                std::size_t a, std::size_t b) {
    throw Undecided("layer " + std::to_string(layer) + " head " + std::to_string(head) +
                    " query " + std::to_string(query) + ": cannot decide whether the scores of " +
                    "positions " + std::to_string(a) + " and " + std::to_string(b) +
                    " tie (irrational features)");
}

// Fills argmax, gap and runner-up of `q` from its scores.
void decide_maximum(QueryTrace &q, std::size_t layer, std::size_t head, Prec prec) {
    const auto &s = q.scores;
    std::size_t best = 0;
    for (std::size_t a = 1; a < s.size(); ++a) {
        Tri lt = less(s[best], s[a], prec);
        if (lt == Tri::True) best = a;
        else if (lt == Tri::Unknown && equal(s[best], s[a], prec) != Tri::True)
            undecided_tie(layer, head, q.query, q.allowed[best], q.allowed[a]);
    }
    std::optional<std::size_t> second;
    for (std::size_t a = 0; a < s.size(); ++a) {
        Tri eq = equal(s[a], s[best], prec);
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
        if (lt == Tri::True) second = a;
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
        bool in_m = std::find(q.argmax.begin(), q.argmax.end(), j) != q.argmax.end();
        if (!in_m) continue;
        if (kind == AttnKind::Average) w[a] = Rational(1, static_cast<long>(count));
        else if (kind == AttnKind::Leftmost && j == q.argmax.front()) w[a] = 1L;
        else if (kind == AttnKind::Rightmost && j == q.argmax.back()) w[a] = 1L;
    }
    return w;
}

bool same_values(const QueryTrace &q, const std::vector<RealVector> &values, bool bos,
                 std::size_t layer, std::size_t head, Prec prec) {
    const RealVector &first = values[index_of(q.argmax.front(), bos)];
    for (std::size_t j : q.argmax) {
        const RealVector &v = values[index_of(j, bos)];
        for (std::size_t c = 0; c < v.size(); ++c) {
            Tri eq = equal(v[c], first[c], prec);
            if (eq == Tri::Unknown)
                throw Undecided("layer " + std::to_string(layer) + " head " +
                                std::to_string(head) + " query " + std::to_string(q.query) +
                                ": cannot decide whether tied positions carry equal values");
            if (eq == Tri::False) return false;
        }
    }
    return true;
}

Trace hard_at(const Model &m, const Word &w, Prec prec) {
    Trace tr;
    tr.n = w.size();
    tr.bos = m.has_bos();
    tr.prec = prec;
    std::vector<RealVector> x = initial_activations(m, w, prec);
    tr.initial = x;
    const std::size_t positions = x.size();
    for (std::size_t l = 0; l < m.layers.size(); ++l) {
        const Layer &layer = m.layers[l];
        LayerTrace lt;
        std::vector<RealVector> half = x;
        for (std::size_t h = 0; h < layer.heads.size(); ++h) {
            const Head &head = layer.heads[h];
            std::vector<RealVector> keys, values;
            for (const auto &xt : x) {
                keys.push_back(matvec(head.key, xt, prec));
                values.push_back(matvec(head.value, xt, prec));
            }
            HeadTrace ht;
            for (std::size_t t = 0; t < positions; ++t) {
                QueryTrace q;
                q.query = position_of(t, tr.bos);
                q.allowed = allowed_positions(head.mask, q.query, tr.n, tr.bos);
                if (q.allowed.empty()) {
                    q.output.assign(m.width, Real(0L));
                    ht.queries.push_back(std::move(q));
                    continue;
                }
                q.scores = scores(matvec(head.query, x[t], prec), keys, q.allowed, tr.bos, prec);
                decide_maximum(q, l + 1, h + 1, prec);
                q.weights = hard_weights(head.kind, q);
                q.ties_share_value = same_values(q, values, tr.bos, l + 1, h + 1, prec);
                q.output = head_output(head, q.weights, values, q.allowed, tr.bos, prec);
                half[t] = add_vectors(half[t], q.output, prec);
                ht.queries.push_back(std::move(q));
            }
            lt.heads.push_back(std::move(ht));
        }
        lt.after_attention = half;
        if (layer.ffn)
            for (auto &v : half) v = apply_ffn(*layer.ffn, v, prec);
        lt.after_ffn = half;
        x = std::move(half);
        tr.layers.push_back(std::move(lt));
    }
    tr.outputs = readouts(m, x, tr.n, tr.bos, prec);
    for (const auto &o : tr.outputs)
        if (o.accept == Tri::Unknown)
            throw Undecided("cannot decide the sign of the read-out at position " +
                            std::to_string(o.position));
    return tr;
}

} // namespace

Trace evaluate_hard(const Model &m, const Word &w, const PrecisionPolicy &policy) {
    for (Prec prec = policy.start;; prec *= 2) {
        if (prec > policy.cap) prec = policy.cap;
        try {
            return hard_at(m, w, prec);
        } catch (const Undecided &e) {
            if (prec >= policy.cap)
                throw Undecided(std::string(e.what()) + " at " + std::to_string(prec) +
                                " bits (the precision cap, --prec-cap)");
        }
    }
}

} // namespace tempcert
