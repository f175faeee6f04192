// Prefix-sharing evaluation (docs/semantics.md, exhaustive): when every head looks
// only backwards (causal or strict masks) and no positional feature reads n,
// a word's activations at positions 1..t are those of its prefix of length
// t, in the hard model and in S_beta for a constant beta. Walking the tree of
// words depth-first, each node then evaluates only its newest position.
// Exact for the hard model; the soft state is at one fixed precision, and a
// word it cannot decide is handed to the plain path by the caller.
#pragma once

#include "soft_filter.hpp"
#include "tempcert/model.hpp"
#include "tempcert/trace.hpp"

#include <optional>

namespace tempcert::detail {

class PrefixEvaluator {
  public:
    // Whether prefix sharing is exact for `m`: causal/strict masks only, no
    // feature reading n, rational features (exact ties, no precision loop).
    static bool applies(const Model &m);

    // `beta`: evaluate the soft model too, at this constant inverse
    // temperature (every layer): in MPFI at working precision `prec`, or,
    // with `filter`, in outward-rounded double intervals only (the filter of
    // proofs/double-filter.md; soft_queries() and soft_outputs() then stay empty).
    PrefixEvaluator(const Model &m, Prec prec, std::optional<std::vector<Real>> beta,
                    bool filter = false);

    void push(int symbol); // append a position; evaluates only that position
    void pop();
    std::size_t length() const { return n_; }

    // The newest position's query of every head, flat index over (layer, head).
    const std::vector<QueryTrace> &hard_queries() const { return hard_new_; }
    const std::vector<QueryTrace> &soft_queries() const { return soft_new_; }
    // Read-outs that become known at this length: the newest position for
    // "last" and "all", position 1 at length 1 for "first".
    const std::vector<OutputValue> &hard_outputs() const { return hard_out_; }
    const std::vector<OutputValue> &soft_outputs() const { return soft_out_; }
    // Filter mode: TV of the newest query per flat head (nullopt: no allowed
    // position), and the soft read-outs (as hard_outputs()).
    const std::vector<std::optional<DInterval>> &filtered_tv() const { return tv_d_; }
    const std::vector<DInterval> &filtered_outputs() const { return out_d_; }

  private:
    struct State {
        // keys[l][h][t], values[l][h][t]: W_K x_t and W_V x_t at layer l
        std::vector<std::vector<std::vector<RealVector>>> keys, values;
    };
    const Model &m_;
    Prec prec_;
    std::optional<std::vector<Real>> beta_;
    bool bos_;
    std::size_t n_ = 0;
    State hard_, soft_;
    // filter mode: the model in double intervals and the soft state
    struct DHead {
        DMatrix query, key, value, output;
    };
    bool filter_ = false;
    std::vector<std::vector<DHead>> dheads_;
    std::vector<std::optional<DFfn>> dffn_;
    std::vector<DInterval> dbeta_;
    DVector dread_;
    DInterval dbias_;
    std::vector<std::vector<std::vector<DVector>>> dkeys_, dvalues_;
    std::vector<std::optional<DInterval>> tv_d_;
    std::vector<DInterval> out_d_;
    void append_filtered(const RealVector &x0);
    std::vector<QueryTrace> hard_new_, soft_new_;
    std::vector<OutputValue> hard_out_, soft_out_;
    void append(const Vector &embedding, std::size_t position);
};

} // namespace tempcert::detail
