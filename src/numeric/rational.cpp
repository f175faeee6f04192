// Exact number text: parsing of the model format's numbers (docs/model-format.md) and
// printing. Nothing here rounds silently: parse rejects what is not exact,
// to_decimal rounds only in the direction its caller names.
#include "tempcert/rational.hpp"

#include <cctype>

namespace tempcert {

namespace {

bool all_digits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

// Base 10 explicitly: Boost's string constructor reads a leading 0 as octal
// ("0123" would be 83), which would silently change decimals like 0.0123.
Integer integer_of(std::string_view digits) {
    Integer z;
    mpz_set_str(z.backend().data(), std::string(digits).c_str(), 10);
    return z;
}

} // namespace

std::optional<Rational> parse_rational(std::string_view text, std::string &why,
                                       std::size_t max_chars) {
    if (text.size() > max_chars) {
        why = "number has " + std::to_string(text.size()) + " characters, more than the limit " +
              std::to_string(max_chars) + " (--max-number-chars)";
        return std::nullopt;
    }
    std::string_view body = text;
    bool negative = false;
    if (!body.empty() && body.front() == '-') {
        negative = true;
        body.remove_prefix(1);
    }
    Rational value;
    if (auto slash = body.find('/'); slash != std::string_view::npos) {
        auto num = body.substr(0, slash), den = body.substr(slash + 1);
        if (!all_digits(num) || !all_digits(den)) {
            why = "expected a fraction p/q of decimal integers, got \"" + std::string(text) + "\"";
            return std::nullopt;
        }
        Integer d = integer_of(den);
        if (d == 0) {
            why = "fraction \"" + std::string(text) + "\" has denominator zero";
            return std::nullopt;
        }
        value = Rational(integer_of(num), d);
    } else if (auto dot = body.find('.'); dot != std::string_view::npos) {
        auto whole = body.substr(0, dot), frac = body.substr(dot + 1);
        if (!all_digits(whole) || !all_digits(frac)) {
            why = "expected a decimal such as \"0.125\", got \"" + std::string(text) + "\"";
            return std::nullopt;
        }
        Integer scale = boost::multiprecision::pow(Integer(10), static_cast<unsigned>(frac.size()));
        value = Rational(integer_of(whole) * scale + integer_of(frac), scale);
    } else if (all_digits(body)) {
        value = Rational(integer_of(body));
    } else {
        why = "expected an integer, a fraction \"p/q\" or a decimal \"0.125\", got \"" +
              std::string(text) + "\"";
        if (body.find_first_of("eE") != std::string_view::npos)
            why += " (exponents are not accepted: write the number out)";
        return std::nullopt;
    }
    return negative ? Rational(-value) : value;
}

std::optional<Rational> parse_rational_scientific(std::string_view text, std::string &why,
                                                  std::size_t max_chars) {
    if (text.size() > max_chars) return parse_rational(text, why, max_chars); // says why
    auto e = text.find_first_of("eE");
    if (e == std::string_view::npos) return parse_rational(text, why, max_chars);
    auto mantissa = text.substr(0, e), exponent = text.substr(e + 1);
    bool negative = !exponent.empty() && exponent.front() == '-';
    if (negative || (!exponent.empty() && exponent.front() == '+')) exponent.remove_prefix(1);
    if (all_digits(exponent) && exponent.size() > 4) {
        why = "the exponent of \"" + std::string(text) + "\" has more than 4 digits";
        return std::nullopt;
    }
    if (!all_digits(exponent) || mantissa.find('/') != std::string_view::npos) {
        why = "expected a number such as 0.01, 1/100 or 1e-2, got \"" + std::string(text) + "\"";
        return std::nullopt;
    }
    auto m = parse_rational(mantissa, why, max_chars);
    if (!m) return std::nullopt;
    Rational scale(boost::multiprecision::pow(
        Integer(10), static_cast<unsigned>(std::stoi(std::string(exponent)))));
    return negative ? Rational(*m / scale) : Rational(*m * scale);
}

std::string to_string(const Rational &q) {
    if (denominator(q) == 1) return numerator(q).str();
    return numerator(q).str() + "/" + denominator(q).str();
}

std::size_t bit_size(const Rational &q) {
    mpq_srcptr r = q.backend().data();
    return mpz_sizeinbase(mpq_numref(r), 2) + mpz_sizeinbase(mpq_denref(r), 2);
}

bool is_integer(const Rational &q) {
    return denominator(q) == 1;
}

std::string to_decimal(const Rational &q, int digits, bool up) {
    Integer scale = boost::multiprecision::pow(Integer(10), static_cast<unsigned>(digits));
    Integer num = numerator(q) * scale, den = denominator(q);
    Integer quot = num / den, rem = num % den; // truncates toward zero
    if (rem != 0) {
        if (up && num > 0) quot += 1;
        if (!up && num < 0) quot -= 1;
    }
    bool negative = quot < 0;
    std::string s = (negative ? Integer(-quot) : quot).str();
    if (digits > 0) {
        if (s.size() <= static_cast<std::size_t>(digits))
            s.insert(0, static_cast<std::size_t>(digits) + 1 - s.size(), '0');
        s.insert(s.size() - static_cast<std::size_t>(digits), ".");
        while (s.back() == '0')
            s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    return (negative ? "-" : "") + s;
}

std::string abbreviated(std::string_view text) {
    if (text.size() <= 40) return std::string(text);
    return std::string(text.substr(0, 20)) + "...(" + std::to_string(text.size()) +
           " characters)..." + std::string(text.substr(text.size() - 10));
}

} // namespace tempcert
