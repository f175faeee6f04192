// Beyond enumeration: exact rounding, else the perturbation argument
// (include/engine/tempcert/layers_method.hpp).
#include "tempcert/layers_method.hpp"

namespace tempcert {

const char *to_string(LayersMethod m) {
    switch (m) {
    case LayersMethod::ExactRounding:
        return "layerwise";
    case LayersMethod::Perturbation:
        return "perturbation";
    case LayersMethod::Neither:
        return "neither";
    }
    return "?";
}

std::string LayersChoice::why_neither() const {
    return "exact rounding: " + layerwise.failure + "; perturbation bounds: " +
           (perturbation ? perturbation->failure() : std::string("not analysed"));
}

namespace {

// Whether that question's layerwise analysis at n computes profiles.
bool layers_profile_wanted(LayersQuestion q, std::size_t n) {
    return q != LayersQuestion::OwnBeta || n <= 64;
}

} // namespace

LayerwiseResult layers_analysis(const Model &m, std::size_t n, const Rational &eps,
                                const Limits &limits, LayersQuestion q) {
    return certify_layerwise(m, n, eps, limits, layers_profile_wanted(q, n));
}

LayersChoice choose_layers_method(const Model &m, std::size_t n, const Rational &eps,
                                  const Limits &limits, LayersQuestion q) {
    return choose_layers_method(layers_analysis(m, n, eps, limits, q), m, n, limits);
}

LayersChoice choose_layers_method(LayerwiseResult analysed, const Model &m, std::size_t n,
                                  const Limits &limits) {
    LayersChoice c;
    c.layerwise = std::move(analysed);
    if (c.layerwise.applies) {
        c.method = LayersMethod::ExactRounding;
        return c;
    }
    c.perturbation.emplace(m, n, limits);
    c.method = c.perturbation->applies() ? LayersMethod::Perturbation : LayersMethod::Neither;
    return c;
}

} // namespace tempcert
