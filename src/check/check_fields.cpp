#include "check_fields.hpp"

namespace tempcert::check {

void reject(const std::string &path, const std::string &what) {
    throw Reject{path + ": " + what};
}

const OJson &field(const OJson &doc, const std::string &path, const char *key) {
    if (!doc.is_object() || !doc.contains(key)) reject(path + "." + key, "missing");
    return doc[key];
}

std::string text(const OJson &doc, const std::string &path, const char *key) {
    const OJson &v = field(doc, path, key);
    if (!v.is_string()) reject(path + "." + key, "expected a string, got " + json_type_name(v));
    return v.get<std::string>();
}

std::uint64_t count(const OJson &doc, const std::string &path, const char *key) {
    const OJson &v = field(doc, path, key);
    if (!v.is_number_unsigned()) reject(path + "." + key, "expected a non-negative integer");
    return v.get<std::uint64_t>();
}

Rational exact(const OJson &doc, const std::string &path, const char *key) {
    std::string s = text(doc, path, key), why;
    auto q = parse_rational(s, why, 4000);
    if (!q) reject(path + "." + key, why);
    return *q;
}

Rational beta_gap_up(std::size_t N, const std::optional<Rational> &gamma, const Rational &eps) {
    Rational arg = Rational(static_cast<long>(N > 0 ? N - 1 : 0)) * (1 - eps) / eps;
    if (!gamma || N <= 1 || arg <= 1) return 0;
    const Prec prec = 128;
    Interval beta = div(log(Interval(arg, prec), prec), Interval(*gamma, prec), prec);
    Rational up = beta.upper_exact();
    Integer scale = boost::multiprecision::pow(Integer(10), 30u);
    Integer num = numerator(up) * scale, q = num / denominator(up);
    if (q * denominator(up) != num) q += 1;
    return Rational(q, scale);
}

} // namespace tempcert::check
