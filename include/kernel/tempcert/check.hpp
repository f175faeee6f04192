// The certificate checker's interface (src/check/; proofs/certificate.md):
// what `tempcert check` and the standalone `tempcert-check` run. The checker
// links only the kernel (numbers, model loading, exact hard evaluation),
// never the engine that wrote the certificate.
#pragma once

#include "tempcert/hard_eval.hpp"
#include "tempcert/limits.hpp"
#include "tempcert/model.hpp"

#include <cstdint>
#include <string>

namespace tempcert {

// Outcome of a check: accepted (exit 0), or rejected with a reason naming
// the JSON path and the values compared (exit 1).
struct CheckOutcome {
    bool accepted = false;
    // Not accepted because the certificate cannot be read as one (missing,
    // not JSON, a field missing, unknown or mistyped, another format):
    // exit 2, bad input; otherwise a claim is false or not shown: exit 1.
    bool malformed = false;
    std::string reason;
    std::uint64_t words = 0;
    std::string method; // the certificate's method, once read
    // Once accepted, the claim verified, echoed on the verdict line from
    // the certificate's fields: verdict, model name and sha256, n, eps,
    // criterion, beta, kind (docs/certificates.md).
    std::string claim;
};

// "CERT: reason" for a malformed certificate's message (the reason names
// the file already when it comes from reading or parsing it).
std::string malformed_certificate_message(const std::string &cert_path, const std::string &reason);

// The verdict line that `tempcert check` and tempcert-check both print:
// "s VERIFIED CERT (what was recomputed)" or "s NOT VERIFIED CERT: reason"
// (the reason made printable). A malformed certificate gets no verdict
// line: it is bad input, said with malformed_certificate_message.
std::string verdict_line(const std::string &cert_path, const CheckOutcome &out);

// Re-verifies a certificate against a model file. A model that cannot be
// read throws InputError; a certificate that cannot be read or parsed is a
// rejection marked malformed.
CheckOutcome check_certificate(const std::string &cert_path, const std::string &model_path,
                               const Limits &limits, const PrecisionPolicy &policy);
// The same on certificate text and a loaded model.
CheckOutcome check_certificate_text(const std::string &cert_text, const std::string &cert_name,
                                    const Model &m, const Limits &limits,
                                    const PrecisionPolicy &policy);

} // namespace tempcert
