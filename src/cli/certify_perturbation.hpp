// `certify --method layerwise` on models the exact-rounding argument does
// not cover: the perturbation argument (include/engine/tempcert/perturbation.hpp).
#pragma once

#include "options.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/model.hpp"
#include "tempcert/perturbation.hpp"

#include <string>

namespace tempcert::cli {

// Certifies (exit 0) or reports undecided (exit 3) at --beta, or at a beta
// it finds; `rounding_failure` says why exact rounding did not apply.
int certify_by_perturbation(const Model &m, const PerturbationArgument &arg,
                            const std::string &rounding_failure, const po::variables_map &vm,
                            const CertifyOptions &o, const Common &common);

} // namespace tempcert::cli
