// The checker's own soft model (proofs/certificate.md, "Trusted base").
#pragma once

#include "tempcert/hard_eval.hpp"

namespace tempcert::check {

// The soft trace of `w` at per-layer inverse temperatures `betas`, working
// precision `prec`: the linear parts of the forward pass come from the
// kernel (src/eval/layer_ops), but every softmax weight and every query's TV
// is enclosed by this file's code from the definitions, sharing nothing with
// the certifier's enclosures (src/eval/attention_ops, the filter):
//   p_j = e_j / Z,  e_j = exp(beta (s_j - c)),  Z = sum_k e_k,
// with c the largest upper end of a score (so no e_j overflows), and
//   TV = 1/2 sum_j |p_j - h_j|,
// h the hard weights the tv criterion compares with. `hard` is the same
// word's hard trace (allowed sets and maximising positions).
// One query of the soft model, as above: scores from the kernel, softmax
// weights and TV (against the hard query `hard`) by this file's code.
// With `fast_below`, where the compared weights are uniform on the maximising
// set and the analytic bound on TV from the score ends (proofs/certificate.md,
// "The checker's bound") is at most *fast_below, the query keeps TV as
// [0, bound] and the head's output as the hard mixture widened by the bound,
// with no softmax weight computed (no weights, and no exp per position).
QueryTrace soft_query(const Head &head, const QueryTrace &hard, const RealVector &x_query,
                      const std::vector<RealVector> &keys, const std::vector<RealVector> &values,
                      bool bos, std::size_t width, const Real &beta, Prec prec,
                      const Rational *fast_below);

// `fast_below` as for soft_query (the whole-word path passes none: raising
// the precision does not narrow the bound).
Trace soft_trace(const Model &m, const Word &w, const std::vector<Real> &betas, const Trace &hard,
                 Prec prec, const Limits *budget, const Rational *fast_below = nullptr);

} // namespace tempcert::check
