// Inverse-temperature specifications (docs/model-format.md).
#include "tempcert/beta.hpp"
#include "tempcert/error.hpp"

#include <algorithm>

namespace tempcert {

// The precision up to which the sign of a beta is sought (bits).
constexpr Prec kBetaSignPrec = 1 << 16;

BetaSpec BetaSpec::parse(const std::string &text, std::size_t layers, const std::string &where) {
    BetaSpec b;
    b.text_ = text;
    b.where_ = where;
    std::size_t start = 0;
    for (;;) {
        std::size_t comma = text.find(',', start);
        std::string part =
            text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        try {
            Expr e = Expr::parse(part);
            if (e.uses_j())
                throw InputError("", where + ", column " + std::to_string(start + 1),
                                 "beta may depend on n but not on j");
            b.exprs_.push_back(std::move(e));
        } catch (const ExprError &err) {
            throw InputError("", where + ", column " + std::to_string(start + err.column()),
                             err.what());
        }
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (b.exprs_.size() != 1 && b.exprs_.size() != layers)
        throw InputError("", where,
                         "expected one beta or one per layer (" + std::to_string(layers) +
                             "), got " + std::to_string(b.exprs_.size()));
    return b;
}

bool BetaSpec::uses_n() const {
    for (const auto &e : exprs_)
        if (e.uses_n()) return true;
    return false;
}

BetaSpec BetaSpec::constant(const Rational &beta) {
    return parse(to_string(beta), 1, "beta");
}

BetaSpec BetaSpec::per_layer(const std::vector<Rational> &betas) {
    std::string text;
    for (std::size_t l = 0; l < betas.size(); ++l)
        text += (l ? "," : "") + to_string(betas[l]);
    return parse(text, betas.size(), "beta");
}

Real BetaSpec::at(std::size_t l, std::size_t n, Prec prec) const {
    const Expr &e = exprs_.size() == 1 ? exprs_[0] : exprs_[l];
    Real v;
    try {
        v = e.eval(Rational(0), Rational(static_cast<long>(n)), prec);
    } catch (const ExprError &err) {
        throw InputError("", where_,
                         "beta \"" + e.text() + "\" at column " + std::to_string(err.column()) +
                             ": " + message_without_j(err));
    }
    // Positivity is decided by raising the precision (up to kBetaSignPrec), not
    // at the working precision alone: a beta such as sqrt(2) - 1.41421356...
    // is positive, only close to 0 (docs/reliability.md, Numbers).
    Tri pos = is_positive(v, prec);
    for (Prec p = 2 * prec; pos == Tri::Unknown && p <= kBetaSignPrec; p *= 2)
        pos = is_positive(e.eval(Rational(0), Rational(static_cast<long>(n)), p), p);
    if (pos == Tri::False)
        throw InputError("", where_,
                         "beta \"" + e.text() + "\" is not positive at n = " + std::to_string(n) +
                             " (value " + to_string(v, 12) + ")");
    if (pos == Tri::Unknown)
        throw Undecided("cannot show beta \"" + e.text() + "\" is positive at n = " +
                        std::to_string(n) + " at " + std::to_string(kBetaSignPrec) + " bits");
    return v;
}

void BetaSpec::require_positive(std::size_t n, Prec prec) const {
    for (std::size_t l = 0; l < exprs_.size(); ++l)
        for (std::size_t len = 1; len <= (exprs_[l].uses_n() ? n : 1); ++len)
            (void)at(l, len, prec);
}

Tri BetaSpec::at_least(std::size_t l, std::size_t n, const Rational &x, Prec start,
                       Prec cap) const {
    for (Prec p = start;; p = std::min(2 * p, cap)) {
        Tri below = less(at(l, n, p), Real(x), p);
        if (below != Tri::Unknown) return below == Tri::True ? Tri::False : Tri::True;
        if (p >= cap) return Tri::Unknown;
    }
}

} // namespace tempcert
