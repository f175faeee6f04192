// Evaluation of the soft model S_beta (docs/model-format.md, docs/semantics.md): every head is
// softmax at inverse temperature beta; weights, activations and read-outs
// are outward-rounded intervals, precision rising until each weight is
// narrower than requested.
//
// Weights are computed as shares e_j / (e_j + r_j) with e_j = exp(beta
// (s_j - s_ref)) and r_j the sum of the other terms (prefix and suffix
// sums), which encloses the weight tightly and never overflows since s_ref
// has the greatest upper endpoint. See proofs/softmax-enclosure.md.
#include "attention_ops.hpp"
#include "layer_ops.hpp"
#include "tempcert/error.hpp"
#include "tempcert/eval.hpp"

#include <mpfr.h>

namespace tempcert {

using namespace detail;

Trace evaluate_soft_at(const Model &m, const Word &w, const BetaSpec &beta, const Trace &hard,
                       Prec prec, const Rational &width, const Limits *budget) {
    Trace tr;
    tr.n = w.size();
    tr.bos = m.has_bos();
    tr.prec = prec;
    std::vector<Real> betas;
    for (std::size_t l = 0; l < m.layers.size(); ++l)
        betas.push_back(beta.at(l, tr.n, prec));
    run_layers(m, tr, initial_activations(m, w, prec), prec,
               [&](std::size_t l, std::size_t h, std::size_t t, const RealVector &xq,
                   const std::vector<RealVector> &keys, const std::vector<RealVector> &values) {
                   if (budget) check_budget(*budget);
                   QueryTrace q =
                       soft_query(m.layers[l].heads[h], hard.layers[l].heads[h].queries[t], xq,
                                  keys, values, tr.bos, m.width, betas[l], prec);
                   if (!weights_narrower_than(q.weights, width)) tr.width_reached = false;
                   return q;
               });
    return tr;
}

Trace evaluate_soft(const Model &m, const Word &w, const BetaSpec &beta, const Trace &hard,
                    const SoftOptions &options) {
    const PrecisionPolicy &p = options.precision;
    for (Prec prec = p.start;; prec *= 2) {
        if (prec > p.cap) prec = p.cap;
        try {
            Trace tr = evaluate_soft_at(m, w, beta, hard, prec, options.target_width, p.budget);
            if (tr.width_reached || prec >= p.cap) return tr;
        } catch (const Undecided &e) {
            if (prec >= p.cap)
                throw Undecided(std::string(e.what()) + " at " + std::to_string(prec) +
                                " bits (the precision cap, --prec-cap)");
        }
    }
}

} // namespace tempcert
