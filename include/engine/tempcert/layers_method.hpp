// Beyond enumeration: which argument answers over words up to n, exact
// rounding or the perturbation argument. The engine's own choice (tight by
// layers, horizon and certify ask it); the application's choosers
// (include/app/tempcert/method.hpp) build on it.
#pragma once

#include "tempcert/layerwise.hpp"
#include "tempcert/perturbation.hpp"

#include <string>

namespace tempcert {

// Beyond enumeration, the argument `certify`, `tight` and `horizon` use
// over words up to n: the layerwise method with exact rounding where it
// applies (proofs/layerwise.md), else the perturbation argument where its
// preconditions hold (proofs/perturbation.md), else neither.
enum class LayersMethod { ExactRounding, Perturbation, Neither };

// "layerwise", "perturbation", "neither"
const char *to_string(LayersMethod m);

struct LayersChoice {
    LayersMethod method = LayersMethod::Neither;
    LayerwiseResult layerwise; // always analysed: its failure says why it does not apply
    // analysed when exact rounding does not apply
    std::optional<PerturbationArgument> perturbation;
    // For Neither: both methods' reasons in one line.
    std::string why_neither() const;
};

// What the analysis beyond enumeration is asked, which decides whether the
// layerwise method computes each layer's profile bound (the sharper
// per-layer need, proofs/layerwise.md "The sharper per-layer need"):
// judging a given beta (certify --beta, horizon) and bracketing the tight
// beta need it at every n; certifying the method's own beta (Lemma GT's
// per layer) does not, so there it is computed only while cheap, to inform.
enum class LayersQuestion { OwnBeta, GivenBeta, TightBracket };

// The layerwise analysis at n for the question, then the choice.
LayersChoice choose_layers_method(const Model &m, std::size_t n, const Rational &eps,
                                  const Limits &limits, LayersQuestion q);
// The layerwise analysis the choice starts from, for a caller that tries it
// before anything else (horizon).
LayerwiseResult layers_analysis(const Model &m, std::size_t n, const Rational &eps,
                                const Limits &limits, LayersQuestion q);
// The same choice from a layerwise analysis already made at n (the
// perturbation argument is analysed only if it is needed).
LayersChoice choose_layers_method(LayerwiseResult analysed, const Model &m, std::size_t n,
                                  const Limits &limits);

} // namespace tempcert
