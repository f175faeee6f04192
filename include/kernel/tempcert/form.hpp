// Exact symbolic forms of irrational values (proofs/irrational-ties.md).
//
// A Form is a polynomial with rational coefficients in "atoms": irrational
// reals named by how they were made, sqrt(r) and log(r) of a rational r, or
// sqrt, log and 1/x of another form x. Two atoms with the same name are the
// same real, so two forms that are the same polynomial denote the same real:
// that is how tempcert decides that two positions whose scores are the same
// irrational expression tie, which no interval can (proofs/irrational-ties.md).
//
// The converse does not hold: different polynomials may still be equal
// (log(4) and 2 log(2)); then intervals decide, and a genuine tie they cannot
// see stays undecided, never decided wrongly. Forms are an exact bookkeeping
// beside the interval a Real carries, never a replacement for it.
//
// Every operation may give up (nullopt) when a form would exceed the caps
// below; the value then carries no form and behaves as a plain interval.
#pragma once

#include "tempcert/rational.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tempcert {

// The atoms' kinds. Sqrt atoms of a rational r are made square-free, and the
// square of such an atom multiplies out to r.
enum class AtomKind { Sqrt, Log, Inverse };

class Form {
  public:
    // Sorted atom ids, repeated for powers; the empty monomial is the constant.
    using Monomial = std::vector<std::uint32_t>;

    Form() = default;                 // zero
    explicit Form(const Rational &q); // the constant q

    // The rational value when the form has no atom.
    std::optional<Rational> constant() const;
    bool is_zero() const { return terms_.empty(); }
    // A text naming the polynomial, equal for equal forms (in one process).
    std::string key() const;
    // The form in the model format's expression syntax when every atom is
    // the square root of a rational (how certificates state an irrational
    // gap: docs/certificates.md); nullopt otherwise.
    std::optional<std::string> expression() const;

    friend std::optional<Form> add(const Form &a, const Form &b);
    friend std::optional<Form> sub(const Form &a, const Form &b);
    friend std::optional<Form> mul(const Form &a, const Form &b);
    friend std::optional<Form> scale(const Form &a, const Rational &q);
    // The atom `kind` of `arg`, times a rational (sqrt(8) = 2 sqrt(2)).
    friend std::optional<Form> atom_of(AtomKind kind, const Form &arg);
    // 1/f for f = c a_1 ... a_k, every a_i the square root of a rational r_i:
    // a_1 ... a_k / (c r_1 ... r_k), in the same atoms (so x/sqrt(y) keeps
    // sqrt atoms, which expression() can state); nullopt for other forms.
    friend std::optional<Form> reciprocal(const Form &f);
    bool operator==(const Form &o) const { return terms_ == o.terms_; }

  private:
    std::map<Monomial, Rational> terms_; // no zero coefficients
};

// Caps: terms of one form, term products one multiplication may form,
// atoms in one monomial, bits of one coefficient (numerator and denominator
// together), characters of an atom's name, atoms made by one process. Past
// them a value keeps no form and compares by its interval, so form
// arithmetic costs at most about a hundred rational operations on numbers of
// at most kMaxFormCoefficientBits bits per arithmetic operation (without the
// bit cap, raising a form to the 192nd power squares its coefficients eight
// times: minutes of GMP work that no deadline can interrupt), and the atom
// table holds at most about 64 MiB.
// Forms are for the few irrational features a model has; a model with
// dozens of irrational features per position sums them past the cap and is
// judged by intervals alone, as before forms existed.
constexpr std::size_t kMaxFormTerms = 16;
constexpr std::size_t kMaxFormProducts = 64;
constexpr std::size_t kMaxMonomialDegree = 16;
constexpr std::size_t kMaxFormCoefficientBits = std::size_t(1) << 14;
constexpr std::size_t kMaxAtomKeyChars = 512;
constexpr std::size_t kMaxAtoms = std::size_t(1) << 16;

} // namespace tempcert
