// The checker's field readers and bound comparisons; see check_fields.hpp.
#include "check_fields.hpp"

#include <algorithm>

namespace tempcert::check {

void reject(const std::string &path, const std::string &what) {
    throw Reject{path + ": " + what, false};
}

void malformed(const std::string &path, const std::string &what) {
    throw Reject{path + ": " + what, true};
}

const OJson &field(const OJson &doc, const std::string &path, const char *key) {
    if (!doc.is_object() || !doc.contains(key)) malformed(path + "." + key, "missing");
    return doc[key];
}

std::string text(const OJson &doc, const std::string &path, const char *key) {
    const OJson &v = field(doc, path, key);
    if (!v.is_string()) malformed(path + "." + key, "expected a string, got " + json_type_name(v));
    return v.get<std::string>();
}

std::uint64_t count(const OJson &doc, const std::string &path, const char *key) {
    const OJson &v = field(doc, path, key);
    if (!v.is_number_unsigned()) malformed(path + "." + key, "expected a non-negative integer");
    return v.get<std::uint64_t>();
}

Rational exact(const OJson &doc, const std::string &path, const char *key) {
    std::string s = text(doc, path, key), why;
    auto q = parse_rational(s, why, 4000);
    if (!q) malformed(path + "." + key, why);
    return *q;
}

void only_keys(const OJson &doc, const std::string &path,
               std::initializer_list<const char *> keys) {
    if (!doc.is_object()) malformed(path, "expected an object, got " + json_type_name(doc));
    for (const auto &item : doc.items())
        if (std::none_of(keys.begin(), keys.end(), [&](const char *k) { return item.key() == k; }))
            malformed(path + "." + abbreviated(item.key()),
                      "unknown field: not in the certificate format");
}

void same_count(const OJson &doc, const std::string &path, const char *key, std::uint64_t want) {
    std::uint64_t got = count(doc, path, key);
    if (got != want)
        reject(path + "." + key,
               "claims " + std::to_string(got) + ", recomputed " + std::to_string(want));
}

void same_text(const OJson &doc, const std::string &path, const char *key,
               const std::string &want) {
    std::string got = text(doc, path, key);
    if (got != want)
        reject(path + "." + key, "claims \"" + abbreviated(got) + "\", expected \"" + want + "\"");
}

void same_list(const OJson &doc, const std::string &path, const char *key,
               const std::vector<std::string> &want) {
    OJson expected = want;
    if (field(doc, path, key) != expected) reject(path + "." + key, "expected " + expected.dump());
}

void same_gap(const OJson &doc, const std::string &path, const char *key,
              const std::optional<Rational> &want) {
    std::string got = text(doc, path, key);
    std::string shown = want ? to_string(*want) : "inf";
    if (!want) {
        if (got != "inf") reject(path + "." + key, "claims " + got + ", recomputed inf");
        return;
    }
    std::string why;
    auto q = parse_rational(got, why, 4000);
    if (!q || *q != *want)
        reject(path + "." + key, "claims " + abbreviated(got) + ", recomputed " + shown);
}

// ---- Lemma GT ---------------------------------------------------------------

Rational LemmaGt::argument() const {
    return Rational(static_cast<long>(N > 0 ? N - 1 : 0)) * (1 - eps) / eps;
}

bool LemmaGt::trivial() const {
    return !gamma || N <= 1 || argument() <= 1;
}

Interval LemmaGt::enclose(Prec prec) const {
    return div(log(Interval(argument(), prec), prec), Interval(*gamma, prec), prec);
}

std::string LemmaGt::exact_text() const {
    if (trivial()) return "0";
    return "ln(" + to_string(argument()) + ")/(" + to_string(*gamma) + ")";
}

namespace {

const Rational kRelativeRounding(1, 1000000000); // 1e-9
const Rational kAbsoluteRounding(Integer(1), boost::multiprecision::pow(Integer(10), 30u));

// Where the claim c stands against the value v (enclosed): True when
// v <= c <= v (1 + rel) + abs, False when certainly not, Unknown when the
// enclosure is too wide to tell.
Tri within_rounding_above(const Rational &c, const Interval &v) {
    Rational lo = v.lower_exact(), hi = v.upper_exact();
    if (c < lo) return Tri::False;
    Rational slack_lo = lo * (1 + kRelativeRounding) + kAbsoluteRounding;
    Rational slack_hi = hi * (1 + kRelativeRounding) + kAbsoluteRounding;
    if (c > slack_hi) return Tri::False;
    return c >= hi && c <= slack_lo ? Tri::True : Tri::Unknown;
}

// The same for a claim rounded down: v (1 - rel) - abs <= c <= v, v > 0.
Tri within_rounding_below(const Rational &c, const Interval &v) {
    Rational lo = v.lower_exact(), hi = v.upper_exact();
    if (c > hi) return Tri::False;
    if (c < lo * (1 - kRelativeRounding) - kAbsoluteRounding) return Tri::False;
    return c <= lo && c >= hi * (1 - kRelativeRounding) - kAbsoluteRounding ? Tri::True
                                                                            : Tri::Unknown;
}

Rational claimed_number(const OJson &doc, const std::string &path, const char *key) {
    return exact(doc, path, key);
}

// Decides `test` on enclosures at rising precision; rejects unless True.
template <class Test>
void decide(const std::string &where, const std::string &claim, const PrecisionPolicy &policy,
            Test &&test, const char *meaning) {
    Tri t = Tri::Unknown;
    for (Prec prec = policy.start;; prec *= 2) {
        if (prec > policy.cap) prec = policy.cap;
        t = test(prec);
        if (t != Tri::Unknown || prec >= policy.cap) break;
    }
    if (t != Tri::True)
        reject(where, "claims " + abbreviated(claim) + ", which is not " + meaning +
                          (t == Tri::Unknown ? " (undecided at the precision cap)" : ""));
}

} // namespace

void rounded_up(const OJson &doc, const std::string &path, const char *key, const LemmaGt &b,
                const PrecisionPolicy &policy) {
    const std::string where = path + "." + key;
    Rational c = claimed_number(doc, path, key);
    if (b.trivial()) {
        if (c != 0) reject(where, "claims " + text(doc, path, key) + ", but no beta is needed (0)");
        return;
    }
    decide(
        where, text(doc, path, key), policy,
        [&](Prec prec) { return within_rounding_above(c, b.enclose(prec)); },
        ("Lemma GT's " + b.exact_text() + " rounded up").c_str());
}

void rounded_down_reciprocal(const OJson &doc, const std::string &path, const char *key,
                             const LemmaGt &b, const PrecisionPolicy &policy) {
    const std::string where = path + "." + key;
    if (b.trivial()) {
        same_text(doc, path, key, "inf");
        return;
    }
    Rational c = claimed_number(doc, path, key);
    decide(
        where, text(doc, path, key), policy,
        [&](Prec prec) {
            return within_rounding_below(c, div(Interval(1L, prec), b.enclose(prec), prec));
        },
        ("1/(" + b.exact_text() + ") rounded down").c_str());
}

std::optional<LemmaGt> largest_bound(const std::vector<LemmaGt> &bounds,
                                     const PrecisionPolicy &policy) {
    std::optional<LemmaGt> best;
    for (const auto &b : bounds) {
        if (b.trivial()) continue;
        if (!best) {
            best = b;
            continue;
        }
        for (Prec prec = policy.start;; prec *= 2) {
            if (prec > policy.cap) prec = policy.cap;
            Tri bigger = less(best->enclose(prec), b.enclose(prec));
            if (bigger == Tri::True) best = b;
            // equal values (or undecided at the cap): the first one stays
            if (bigger != Tri::Unknown || prec >= policy.cap) break;
        }
    }
    return best;
}

} // namespace tempcert::check
