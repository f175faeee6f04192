// Outward-rounded real intervals (MPFI) with explicit precision.
//
// Every operation that can round takes the working precision `prec` (bits)
// of its result; none reads a global default. (Boost 1.74's variable-precision
// mpfi_float takes result precision from a thread-local default, so this
// thin wrapper calls MPFI directly and keeps precision a parameter.)
//
// Enclosure contract, for every function below: if each argument interval
// contains a real x_i, the result contains f(x_1, ...). Endpoints are rounded
// outward by MPFI. NaN endpoints (0/0, log of a negative) make the interval
// "not finite": is_finite() is false and every predicate answers Unknown.
#pragma once

#include "tempcert/rational.hpp"

#include <mpfi.h>

#include <string>

namespace tempcert {

using Prec = long; // bits of mantissa, as mpfr_prec_t
constexpr Prec kPrecStart = 128;
constexpr Prec kPrecCapDefault = 4096;
constexpr Prec kPrecMax = 1 << 20; // hard ceiling for --prec-cap

// One-sided predicates answer True only when certain, False only when
// certainly false, Unknown otherwise (STYLE: Arb, CGAL Uncertain<bool>).
enum class Tri { False, True, Unknown };
inline Tri tri_not(Tri t) {
    return t == Tri::Unknown ? t : (t == Tri::True ? Tri::False : Tri::True);
}
const char *to_string(Tri t);

class Interval {
  public:
    explicit Interval(Prec prec); // the point 0
    Interval(const Rational &q, Prec prec);
    Interval(long v, Prec prec);
    Interval(const Interval &other);
    Interval(Interval &&other) noexcept;
    Interval &operator=(const Interval &other);
    Interval &operator=(Interval &&other) noexcept;
    ~Interval();

    // Smallest interval at `prec` containing [lo, hi]; requires lo <= hi.
    static Interval hull(const Rational &lo, const Rational &hi, Prec prec);

    Prec prec() const;
    mpfi_srcptr raw() const { return v_; }
    mpfi_ptr raw() { return v_; }

    bool is_finite() const; // both endpoints finite numbers (no NaN, no inf)
    bool contains(const Rational &q) const;
    bool contains(const Interval &inner) const;
    // Exact endpoints; require is_finite().
    Rational lower_exact() const;
    Rational upper_exact() const;
    // Width hi - lo < w, decided on exact endpoints (no rounding).
    bool narrower_than(const Rational &w) const;
    // Decimal text of the endpoints, rounded outward (lower down, upper up),
    // with `digits` significant digits; "-inf", "inf" or "nan" as such.
    std::string lower_decimal(int digits = 40) const;
    std::string upper_decimal(int digits = 40) const;

  private:
    mpfi_t v_;
};

Interval add(const Interval &a, const Interval &b, Prec prec);
Interval sub(const Interval &a, const Interval &b, Prec prec);
Interval mul(const Interval &a, const Interval &b, Prec prec);
Interval mul(const Interval &a, const Rational &q, Prec prec);
Interval div(const Interval &a, const Interval &b, Prec prec); // b containing 0: entire line
Interval neg(const Interval &a);                               // exact
Interval abs(const Interval &a);                               // exact
Interval exp(const Interval &a, Prec prec);
Interval expm1(const Interval &a, Prec prec); // exp(a) - 1, accurate near 0
Interval log(const Interval &a, Prec prec);   // a must be > 0, else NaN parts
Interval sqrt(const Interval &a, Prec prec);  // a must be >= 0, else NaN parts
Interval hull(const Interval &a, const Interval &b, Prec prec);
// [min(a.lo, b.lo), min(a.hi, b.hi)]: encloses min(x, y) for x in a, y in b.
Interval min(const Interval &a, const Interval &b, Prec prec);

// e / (e + r) for e, r >= 0 (a softmax share: own mass e, the rest r), by
// its endpoints: increasing in e and decreasing in r, so the result is the
// tightest enclosure [e.lo/(e.lo+r.hi), e.hi/(e.hi+r.lo)] with directed
// rounding. Requires e.lo >= 0 and r.lo >= 0; 0/0 gives [0, 1].
Interval share(const Interval &e, const Interval &r, Prec prec);

Tri less(const Interval &a, const Interval &b);       // a < b
Tri less_equal(const Interval &a, const Interval &b); // a <= b
Tri is_positive(const Interval &a);                   // a > 0
Tri less(const Interval &a, const Rational &q);       // a < q
Tri less_equal(const Interval &a, const Rational &q); // a <= q

} // namespace tempcert
