// Exact evaluation of the hard model H (docs/model-format.md, docs/semantics.md): maxima, ties and
// gaps are decided on exact rationals; with irrational features, on
// intervals whose precision rises until decided, or Undecided at the cap.
#include "tempcert/hard_eval.hpp"
#include "hard_ops.hpp"
#include "layer_ops.hpp"
#include "tempcert/error.hpp"

namespace tempcert {

namespace {

using namespace detail;

Trace hard_at(const Model &m, const Word &w, Prec prec, const Limits *budget) {
    Trace tr;
    tr.n = w.size();
    tr.bos = m.has_bos();
    tr.prec = prec;
    run_layers(m, tr, initial_activations(m, w, prec), prec,
               [&](std::size_t l, std::size_t h, std::size_t t, const RealVector &xq,
                   const std::vector<RealVector> &keys, const std::vector<RealVector> &values) {
                   if (budget) check_budget(*budget);
                   return hard_query(m.layers[l].heads[h], position_of(t, tr.bos), xq, keys, values,
                                     tr.n, tr.bos, m.width, l + 1, h + 1, prec);
               });
    for (const auto &o : tr.outputs)
        if (o.classes.empty() ? o.accept == Tri::Unknown : !o.decided)
            throw Undecided("cannot decide the read-out at position " + std::to_string(o.position));
    return tr;
}

} // namespace

Trace evaluate_hard(const Model &m, const Word &w, const PrecisionPolicy &policy) {
    for (Prec prec = policy.start;; prec *= 2) {
        if (prec > policy.cap) prec = policy.cap;
        try {
            return hard_at(m, w, prec, policy.budget);
        } catch (const Undecided &e) {
            if (prec >= policy.cap)
                throw Undecided(std::string(e.what()) + " at " + std::to_string(prec) +
                                " bits (the precision cap, --prec-cap)");
        }
    }
}

} // namespace tempcert
