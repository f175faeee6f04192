// Polynomials in one variable with rational coefficients, for the every-n
// analysis (proofs/every-n.md): positional features as polynomials in j,
// scores as polynomials in the query position i, and where their signs
// settle (the Cauchy bound).
#pragma once

#include "tempcert/expr.hpp"
#include "tempcert/model.hpp"
#include "tempcert/rational.hpp"

#include <optional>
#include <string>
#include <vector>

namespace tempcert::every_n {

// Coefficients from the constant term up, without trailing zeros (the zero
// polynomial has none).
class Poly {
  public:
    Poly() = default;
    explicit Poly(const Rational &constant);
    static Poly x(); // the variable

    int degree() const { return static_cast<int>(c_.size()) - 1; } // -1 for zero
    bool is_zero() const { return c_.empty(); }
    bool is_constant() const { return c_.size() <= 1; }
    Rational coeff(std::size_t k) const { return k < c_.size() ? c_[k] : Rational(0); }
    Rational lead() const { return c_.empty() ? Rational(0) : c_.back(); }
    Rational at(const Rational &v) const;
    Poly derivative() const;
    // 1 + max |a_k / a_d| rounded up: every real root has |r| below it, so
    // from there on the sign is the leading coefficient's. 0 for constants.
    Integer cauchy_bound() const;
    // True when every coefficient but the constant is an integer multiple of u.
    bool steps_in_multiples_of(const Rational &u) const;
    std::string text(const char *var) const;

    friend Poly operator+(const Poly &a, const Poly &b);
    friend Poly operator-(const Poly &a, const Poly &b);
    friend Poly operator*(const Poly &a, const Poly &b);
    friend Poly operator*(const Poly &a, const Rational &q);
    friend bool operator==(const Poly &a, const Poly &b) { return a.c_ == b.c_; }

  private:
    std::vector<Rational> c_;
    void trim();
};

// Degrees above this are out of scope (their coefficients grow without
// bound in exact arithmetic for nothing a model needs).
constexpr int kMaxDegree = 64;

// The expression as a polynomial in j, or nullopt (with `why`) when it
// reads n, uses log, sqrt or delta, divides by a non-constant, or exceeds
// kMaxDegree.
std::optional<Poly> poly_in_j(const Expr &e, std::string &why);

// The positional features summed per dimension as polynomials in j
// (width entries), or nullopt with `why` from poly_in_j and the failing
// feature's dimension in `dim`.
std::optional<std::vector<Poly>> position_polys(const Model &m, std::string &why, std::size_t &dim);

// row . x for polynomial x, skipping the row's zeros.
Poly row_times(const Vector &row, const std::vector<Poly> &x);

} // namespace tempcert::every_n
