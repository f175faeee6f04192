// A real number that is exact when it can be: a Rational, or else an
// outward-rounded Interval enclosing it.
//
// Hard models with rational features stay exact throughout; a feature with
// log or sqrt makes the values it reaches intervals (docs/model-format.md), while exact
// zeros (a zero matrix entry) stay exact and cut irrational parts off. Soft
// evaluation uses the same type: values become intervals at the first
// softmax. Operations on two exact operands are exact and ignore `prec`;
// otherwise the result is an interval at `prec` that contains the exact
// result (enclosure contract of interval.hpp).
#pragma once

#include "tempcert/form.hpp"
#include "tempcert/interval.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tempcert {

// An exact rational whose numerator and denominator fit in 63 bits: the
// common case in hard models (small weights, positions, averages), kept out
// of GMP. Denominator > 0, reduced. Operations check for overflow and then
// fall back to GMP rationals (proofs/double-filter.md).
struct SmallRational {
    std::int64_t num = 0, den = 1;
};

// An interval enclosure, and where known the exact symbolic form of the
// value it encloses (form.hpp), which decides ties intervals cannot.
struct Enclosed {
    Interval x;
    std::shared_ptr<const Form> form; // null: no form known
};

class Real {
  public:
    Real() : v_(SmallRational{}) {}
    Real(const Rational &q);
    Real(Rational &&q);
    Real(Interval x) : v_(Enclosed{std::move(x), nullptr}) {}
    // `x` must enclose the value `form` denotes; a form without atoms makes
    // the Real that rational, exactly.
    Real(Interval x, std::optional<Form> form);
    Real(long v) : v_(SmallRational{v, 1}) {}
    Real(SmallRational q) : v_(q) {}

    bool is_exact() const { return !std::holds_alternative<Enclosed>(v_); }
    // The exact value (requires is_exact()), as a GMP rational.
    Rational exact() const;
    const SmallRational *small() const { return std::get_if<SmallRational>(&v_); }
    const Rational *big() const { return std::get_if<Rational>(&v_); }
    const Interval *interval() const {
        auto e = std::get_if<Enclosed>(&v_);
        return e ? &e->x : nullptr;
    }
    // The exact form: a constant when exact, null for an interval without one.
    std::optional<Form> form() const;
    bool has_form() const {
        auto e = std::get_if<Enclosed>(&v_);
        return e && e->form;
    }
    // The stored form of an interval value, without a copy (null if none).
    const Form *stored_form() const {
        auto e = std::get_if<Enclosed>(&v_);
        return e ? e->form.get() : nullptr;
    }
    bool is_zero() const {
        if (auto s = small()) return s->num == 0;
        if (auto b = big()) return *b == 0;
        return false;
    }
    // An interval enclosure at `prec` (the exact value's enclosure if exact).
    Interval enclose(Prec prec) const;

  private:
    std::variant<SmallRational, Rational, Enclosed> v_;
};

using RealVector = std::vector<Real>;

Real add(const Real &a, const Real &b, Prec prec);
Real sub(const Real &a, const Real &b, Prec prec);
Real mul(const Real &a, const Real &b, Prec prec);
Real mul(const Real &a, const Rational &q, Prec prec);
Real relu(const Real &a, Prec prec); // Undecided-free: interval relu is max(0, .)

// Exact comparison where both are exact; equal forms are equal values;
// interval comparison otherwise (Unknown when the intervals overlap).
Tri less(const Real &a, const Real &b, Prec prec);
// True only if both are exact and equal, or their forms are one polynomial.
Tri equal(const Real &a, const Real &b, Prec prec);
Tri is_positive(const Real &a, Prec prec);
// min(a, b): exact when both are exact, else an enclosure of the minimum.
Real min(const Real &a, const Real &b, Prec prec);
Real max(const Real &a, const Real &b, Prec prec); // -min(-a, -b)

// row . x, skipping exact-zero products (so they stay exact).
Real dot(const Vector &row, const RealVector &x, Prec prec);
RealVector matvec(const Matrix &m, const RealVector &x, Prec prec);

// JSON-friendly text: "p/q" when exact, else "[lo, hi]" decimals outward.
std::string to_string(const Real &r, int digits = 40);

} // namespace tempcert
