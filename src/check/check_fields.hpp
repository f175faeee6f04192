// Reading and comparing a certificate's fields for the checker: every
// missing, mistyped or unknown field is a rejection naming its JSON path,
// never a guess; a claimed bound is compared as an inequality with the
// checker's own enclosure (proofs/certificate.md).
#pragma once

#include "../model/json_source.hpp"
#include "tempcert/hard_eval.hpp"

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace tempcert::check {

// Why a certificate is not verified. `malformed`: it is not a certificate
// of the format at all (a field missing, unknown or of the wrong JSON type,
// a number that is not exact, another format tag): bad input, exit 2, as
// for a malformed model. Otherwise a claim it makes is false or not shown:
// exit 1.
struct Reject {
    std::string reason;
    bool malformed = false;
};

[[noreturn]] void reject(const std::string &path, const std::string &what);
[[noreturn]] void malformed(const std::string &path, const std::string &what);

const OJson &field(const OJson &doc, const std::string &path, const char *key);
std::string text(const OJson &doc, const std::string &path, const char *key);
std::uint64_t count(const OJson &doc, const std::string &path, const char *key);
Rational exact(const OJson &doc, const std::string &path, const char *key);

// Rejects any key of the object `doc` not in `keys` (unknown fields are not
// in the format), and `doc` itself when it is not an object.
void only_keys(const OJson &doc, const std::string &path, std::initializer_list<const char *> keys);

// The field equals the value re-derived by the checker.
void same_count(const OJson &doc, const std::string &path, const char *key, std::uint64_t want);
void same_text(const OJson &doc, const std::string &path, const char *key, const std::string &want);
void same_list(const OJson &doc, const std::string &path, const char *key,
               const std::vector<std::string> &want);
// A gap: "inf" for nullopt, else an exact number equal in value to `want`.
void same_gap(const OJson &doc, const std::string &path, const char *key,
              const std::optional<Rational> &want);

// Lemma GT's inverse temperature ln(A)/gamma, A = (N-1)(1-eps)/eps, for one
// head, enclosed by the checker's own code (proofs/lemma-gt.md). Trivial
// (no beta needed) when gamma is infinite, N <= 1 or A <= 1.
struct LemmaGt {
    std::size_t N = 0;
    std::optional<Rational> gamma; // nullopt: infinite
    Rational eps;
    Rational argument() const;
    bool trivial() const;
    Interval enclose(Prec prec) const; // requires !trivial()
    std::string exact_text() const;    // "ln(A)/(gamma)", "0" when trivial
};

// The claimed field is an upper bound of the bound, rounded up: at least
// its value, and not above it by more than a rounding (relative 1e-9, plus
// 1e-30); "0" when trivial. Decided on enclosures at rising precision.
void rounded_up(const OJson &doc, const std::string &path, const char *key, const LemmaGt &b,
                const PrecisionPolicy &policy);
// The claimed field is 1/bound rounded down, the same way; "inf" if trivial.
void rounded_down_reciprocal(const OJson &doc, const std::string &path, const char *key,
                             const LemmaGt &b, const PrecisionPolicy &policy);

// The non-trivial bound with the largest value (the first of equal ones),
// or nullopt when every head is trivial.
std::optional<LemmaGt> largest_bound(const std::vector<LemmaGt> &bounds,
                                     const PrecisionPolicy &policy);

} // namespace tempcert::check
