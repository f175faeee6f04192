// `tempcert check` for layerwise certificates (proofs/layerwise.md): the
// argument is recomputed from the model by check_layerwise.cpp's own code
// (value sets, every head's minimum gap by the closed form for scores
// affine in the position, ties, Lemma GT, soft radii, ReLU phases,
// perturbed coordinates) and compared with the certificate's claims.
// Nothing is shared with src/certify/ or src/gap/. verify_layerwise is in
// check_arguments.hpp; what is here is shared with check_perturbation.cpp.
#pragma once

#include "check_arguments.hpp"
#include "tempcert/beta.hpp"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tempcert::check {

// Shared with check_perturbation.cpp (the checker's own code, like all
// above): the feature coordinates, rejecting a model whose values, outputs or
// sublayers touch them;
std::set<std::size_t> feature_coordinates(const Model &m);
// $.beta.spec, parsed;
BetaSpec certificate_beta(const OJson &cert, const Model &m);
// a head's least gap over value sets S (any element at any position) and B
// (BOS holds one), by the closed form; rejects at `hp` a possible tie of
// different values; nullopt for +infinity;
std::optional<Rational> value_set_gap(const Model &m, const Head &head,
                                      const std::vector<Vector> &S, const std::vector<Vector> &B,
                                      std::size_t n, const std::string &hp, const Limits &limits);
// the distinct W_O W_V d over the sets (with 0 when `empty`);
std::vector<Vector> distinct_outputs(const Head &head,
                                     const std::vector<const std::vector<Vector> *> &sets,
                                     bool empty, std::size_t width);
// P(j) at length len exactly (rejects irrational features).
Vector position_vector(const Model &m, std::size_t j, std::size_t len, const std::string &where);

} // namespace tempcert::check
