// Exact evaluation of the hard model H (SPEC 2.3, 3, 5.1): maxima, ties and
// gaps are decided on exact rationals; with irrational features, on
// intervals whose precision rises until decided, or Undecided at the cap.
#include "attention_ops.hpp"
#include "layer_ops.hpp"
#include "tempcert/error.hpp"
#include "tempcert/eval.hpp"

namespace tempcert {

namespace {

using namespace detail;

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
                QueryTrace q = hard_query(head, position_of(t, tr.bos), x[t], keys, values, tr.n,
                                          tr.bos, m.width, l + 1, h + 1, prec);
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
