// Certificates, format `tempcert-certificate/1` (docs/certificates.md;
// proofs/certificate.md states what a certified verdict asserts).
#pragma once

#include "tempcert/certify.hpp"
#include "tempcert/check.hpp"
#include "tempcert/layerwise.hpp"
#include "tempcert/perturbation.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace tempcert {

using CertJson = nlohmann::ordered_json;

struct CertificateInput {
    const Model *model = nullptr;
    std::string model_file;
    CertifyOptions options;
    std::string beta_spec;              // the beta certified (exact text)
    std::string beta_source;            // "beta_gap" or "user"
    const GapBound *beta_gap = nullptr; // when beta_source == "beta_gap"
    const GapReport *gaps = nullptr;
    const CertifyResult *result = nullptr;
};

CertJson witness_json(const Witness &w, const Model &m);
// The exact form a certificate states for an irrational value: its form in
// square roots of rationals, in the model format's expression syntax;
// nullopt for a rational value or one without such a form (log features,
// a form past the caps of form.hpp), which gets no certificate.
std::optional<std::string> stated_form(const Real &r);
CertJson violation_json(const Violation &v, const Model &m);
CertJson gaps_json(const GapReport &g, const Model &m, const Rational &eps, Prec prec);
CertJson certificate_json(const CertificateInput &in);

// A layerwise certificate (method "layerwise", verdict certified): per layer
// the number of hard values entering it, each head's minimum gap over them,
// N and Lemma GT's beta, and the perturbed coordinates after it; whether
// read-outs are exact. `check` recomputes all of it (src/check/).
// A certificate of the perturbation argument (method
// "layerwise-perturbation", verdict certified; proofs/perturbation.md): per
// layer its value counts, each head's gap, N, score deviation and TV bound,
// and the radius after it; the read-out's deviation (and margin for
// decision). The run must be certified at constant betas.
// Its layers[] (also what `certify --json` prints for the argument).
CertJson perturbation_layers_json(const PerturbationRun &run);
CertJson perturbation_certificate_json(const Model &m, const std::string &model_file,
                                       const PerturbationRun &run, const CertifyOptions &o,
                                       const std::string &beta_spec,
                                       const std::string &beta_source);
CertJson layerwise_certificate_json(const Model &m, const std::string &model_file,
                                    const LayerwiseResult &lw, const CertifyOptions &o,
                                    const std::string &beta_spec, const std::string &beta_source);

// Writes `doc` to `path` atomically (temporary file, then rename), so that an
// interrupted run leaves no partial certificate. Throws InputError on failure.
void write_json_file(const std::string &path, const CertJson &doc, const Limits *budget = nullptr);

} // namespace tempcert
