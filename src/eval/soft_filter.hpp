// The softmax and its total variation in outward-rounded double intervals:
// the filter in front of attention_ops' MPFI enclosures
// (proofs/double-filter.md). Same formulas as softmax() and
// total_variation() there, so the two enclose the same quantities.
#pragma once

#include "tempcert/dinterval.hpp"
#include "tempcert/model.hpp"

#include <vector>

namespace tempcert::detail {

using DVector = std::vector<DInterval>;
using DMatrix = std::vector<DVector>;

// An exact value's enclosure, or an interval's endpoints rounded outward.
DInterval enclose_d(const Real &x, Prec prec);

DMatrix to_dmatrix(const Matrix &m);
DVector to_dvector(const Vector &v);
DVector to_dvector(const RealVector &v, Prec prec);

// row . x, skipping exact zeros of the row.
DInterval dot(const DVector &row, const DVector &x);
DVector matvec(const DMatrix &m, const DVector &x);

struct DSoftmax {
    DVector s, e, weights; // scores, exp(beta (s_j - s_ref)), weights
    DInterval beta;
};

// Softmax weights e_j / sum_k e_k, enclosed by the ends of e_j and of the
// sum (looser than MPFI's shares, and enough for a filter). Requires s
// non-empty. The second form reuses `out`'s storage.
DSoftmax softmax_filter(const DVector &scores, DInterval beta);
void softmax_filter(const DVector &scores, DInterval beta, DSoftmax &out);

// TV(softmax, h) for h uniform on the positions with on_support[j] != 0.
DInterval tv_filter(const std::vector<char> &on_support, const DSoftmax &sm);

// x + W_2 ReLU(W_1 x + b_1) + b_2.
struct DFfn {
    DMatrix w1, w2;
    DVector b1, b2;
};
DVector apply_ffn(const DFfn &f, const DVector &x);

} // namespace tempcert::detail
