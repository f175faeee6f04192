// `tempcert export coq` (docs/commands.md, export): a certificate's claim as a Coq
// file that Coq's kernel checks with no tempcert code trusted.
//
// For a certified, exhaustive, single-layer certificate with the tv
// criterion, the file defines the model's exact scores over Q (embeddings,
// positional features, query and key matrices, masks), the certified beta
// over R and eps over Q, and proves for every word over the alphabet of
// length 1..n, every head and every query: TV(softmax, hard) <= eps
// (proofs/coq/Instance.v, instance_sound). The only numbers it takes from
// tempcert are a table of rational upper bounds on e^(-beta g) for the gaps
// g that occur, and each is proved in the file by the interval tactic; a
// gap missing from the table makes the check fail, never pass.
#pragma once

#include "tempcert/eval.hpp"
#include "tempcert/limits.hpp"
#include "tempcert/model.hpp"

#include <cstdint>
#include <string>

namespace tempcert {

struct CoqExport {
    std::string text;        // the .v file
    std::size_t gaps = 0;    // entries of its table of exponential bounds
    std::uint64_t words = 0; // words the file's check enumerates
    std::size_t heads = 0;
};

// The certificate (its text, read from `cert_path`) must verify against `m`
// first (tempcert-check's code); then it must be certified, exhaustive,
// single-layer, tv, with a beta that does not depend on n, and the model's
// features rational. Anything else throws InputError naming the
// certificate or the model and what the export needs.
CoqExport export_coq(const std::string &cert_path, const std::string &cert_text, const Model &m,
                     const Limits &limits, const PrecisionPolicy &policy);

} // namespace tempcert
