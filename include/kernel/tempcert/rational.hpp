// Exact rationals (GMP through Boost.Multiprecision) and their text forms.
//
// Exact operations take no precision argument: a signature without one
// promises exactness (STYLE, Arb).
#pragma once

#include <boost/multiprecision/gmp.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tempcert {

using Rational = boost::multiprecision::mpq_rational;
using Integer = boost::multiprecision::mpz_int;
using Vector = std::vector<Rational>;
using Matrix = std::vector<Vector>; // row list: Matrix[r][c]

// Parses an exact number written as an integer ("-12"), a fraction ("-3/4",
// positive denominator) or a decimal ("0.125", "-2.5"). No exponent, no
// leading '+', no spaces. Returns nullopt and sets `why` when the text is
// not of that form. `max_chars` bounds the text before GMP sees it.
std::optional<Rational> parse_rational(std::string_view text, std::string &why,
                                       std::size_t max_chars = 10000);

// As parse_rational, and also exact scientific notation ("1e-30" is
// 10^-30 exactly; at most 4 exponent digits), for command-line values such
// as tolerances and model numbers. `max_chars` bounds the whole text; the
// default is --max-number-chars' own.
std::optional<Rational> parse_rational_scientific(std::string_view text, std::string &why,
                                                  std::size_t max_chars = 2000);

// "p" for integers, "p/q" otherwise (reduced, q > 0).
std::string to_string(const Rational &q);

// Decimal text of q rounded toward -infinity (`up` false) or +infinity
// (`up` true) with `digits` digits after the point; exact when it ends early.
std::string to_decimal(const Rational &q, int digits, bool up);

bool is_integer(const Rational &q);

// Bits of q's numerator and denominator together: what exact arithmetic on
// q costs (the caps of expression powers and of forms are in these bits).
std::size_t bit_size(const Rational &q);

// Text of a number for a message: as it is up to 40 characters, else its
// first 20 and last 10 characters with the count between ("1234...(1900
// characters)..."), so that no message echoes a huge number (docs/reliability.md).
std::string abbreviated(std::string_view text);

} // namespace tempcert
