// Reading a certificate's fields for `tempcert check`: every missing or
// mistyped field is a rejection naming its JSON path, never a guess.
#pragma once

#include "../model/json_source.hpp"
#include "tempcert/certificate.hpp"

#include <optional>
#include <string>

namespace tempcert::check {

struct Reject {
    std::string reason;
};

[[noreturn]] void reject(const std::string &path, const std::string &what);

const OJson &field(const OJson &doc, const std::string &path, const char *key);
std::string text(const OJson &doc, const std::string &path, const char *key);
std::uint64_t count(const OJson &doc, const std::string &path, const char *key);
Rational exact(const OJson &doc, const std::string &path, const char *key);

// ln((N-1)(1-eps)/eps)/gamma rounded up to 30 decimals, as certificates
// state it; 0 when the argument is at most 1 or there is no gap (gamma
// nullopt: infinite). Enclosed in MPFI at 128 bits.
Rational beta_gap_up(std::size_t N, const std::optional<Rational> &gamma, const Rational &eps);

} // namespace tempcert::check
