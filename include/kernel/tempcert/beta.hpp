// Inverse temperatures (docs/model-format.md): a positive rational, an expression in n,
// or one value per layer ("2,5,5").
#pragma once

#include "tempcert/expr.hpp"

#include <string>
#include <vector>

namespace tempcert {

class BetaSpec {
  public:
    // Parses "B" or "B1,B2,...,BL". Throws InputError(place = `where`) on a
    // bad expression, a use of j, or a count other than 1 or `layers`.
    static BetaSpec parse(const std::string &text, std::size_t layers,
                          const std::string &where = "--beta");
    static BetaSpec constant(const Rational &beta);
    // One positive rational per layer.
    static BetaSpec per_layer(const std::vector<Rational> &betas);

    // beta of layer `l` (0-based) at length n: exact when rational. Throws
    // InputError if it is not positive, Undecided if that cannot be told.
    Real at(std::size_t l, std::size_t n, Prec prec) const;
    // Whether beta of layer `l` at length n is at least `x`: True or False
    // once an enclosure separates them, evaluated at `start` bits and then
    // at doubled precision up to `cap`; Unknown when `cap` cannot tell. An
    // Unknown is neither "met" nor "refuted": callers answer undecided
    // (docs/reliability.md, "Undecided comparisons").
    Tri at_least(std::size_t l, std::size_t n, const Rational &x, Prec start, Prec cap) const;
    // Throws as at() unless every layer's beta is positive at every length
    // 1..n: a command checks it first, so that a model with no heads (where
    // no beta is ever used) does not certify at beta -1.
    void require_positive(std::size_t n, Prec prec) const;
    const std::string &text() const { return text_; }
    bool per_layer() const { return exprs_.size() > 1; }
    // Whether some layer's beta depends on the input length n.
    bool uses_n() const;

  private:
    std::string text_, where_;
    std::vector<Expr> exprs_;
};

} // namespace tempcert
