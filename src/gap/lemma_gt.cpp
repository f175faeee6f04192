// Lemma GT (docs/semantics.md; proofs/lemma-gt.md): a head whose queries have at most
// N allowed positions and gap at least gamma has TV <= eps at every
// beta >= ln((N-1)(1-eps)/eps) / gamma. The logarithm is enclosed by MPFI and
// the bound is rounded up (beta) or down (tau) before it is printed.
#include "tempcert/bounds.hpp"

namespace tempcert {

Rational round_decimal(const Rational &x, int digits, bool up) {
    Integer scale = boost::multiprecision::pow(Integer(10), static_cast<unsigned>(digits));
    Integer num = numerator(x) * scale, den = denominator(x);
    Integer q = num / den;
    if (q * den != num) {
        if (up && num > 0) q += 1;
        if (!up && num < 0) q -= 1;
    }
    return Rational(q, scale);
}

std::string decimal_significant(const Rational &q, int sig, bool up) {
    if (q == 0) return "0";
    // digits after the point so that `sig` significant digits are kept
    Rational a = q < 0 ? Rational(-q) : q;
    int magnitude = 0; // a in [10^magnitude, 10^(magnitude+1))
    Rational ten(10);
    while (a >= ten) {
        a /= 10;
        ++magnitude;
    }
    while (a < 1) {
        a *= 10;
        --magnitude;
    }
    int after = std::max(0, sig - 1 - magnitude);
    return to_decimal(q, after, up);
}

std::string short_significant(const Rational &q, int sig, bool up) {
    if (q <= 0 || (q >= Rational(1, 10000) && q < Rational(1000000000)))
        return decimal_significant(q, sig, up);
    Rational a = q;
    int magnitude = 0; // a in [1, 10) after scaling by 10^-magnitude
    for (; a >= 10; ++magnitude)
        a /= 10;
    for (; a < 1; --magnitude)
        a *= 10;
    std::string mantissa = to_decimal(a, sig - 1, up);
    if (mantissa.rfind("10", 0) == 0) { // rounded up to 10: one more power of ten
        mantissa = to_decimal(a / 10, sig - 1, up);
        ++magnitude;
    }
    return mantissa + "e" + std::to_string(magnitude);
}

Rational beta_to_certify(const GapBound &b) {
    return b.trivial ? Rational(1) : b.beta_up;
}

std::string beta_shown_up(const GapBound &b) {
    return b.trivial ? std::string("0") : b.beta_decimal_up;
}

GapBound lemma_gt(std::size_t N, const std::optional<Real> &gamma, const Rational &eps, Prec prec) {
    GapBound b;
    b.argument = Rational(static_cast<long>(N > 0 ? N - 1 : 0)) * (1 - eps) / eps;
    if (!gamma || N <= 1 || b.argument <= 1) {
        b.trivial = true;
        b.beta_up = 0;
        b.exact = "0";
        b.beta_decimal_up = "0";
        b.tau_decimal_down = "inf";
        return b;
    }
    Interval beta = div(log(Interval(b.argument, prec), prec), gamma->enclose(prec), prec);
    b.beta = beta;
    b.beta_up = round_decimal(beta.upper_exact(), 30, true);
    b.exact = "ln(" + to_string(b.argument) + ")/" +
              (gamma->is_exact() ? "(" + to_string(gamma->exact()) + ")" : "gamma");
    b.beta_decimal_up = decimal_significant(b.beta_up, 12, true);
    b.tau_decimal_down = decimal_significant(Rational(1 / b.beta_up), 12, false);
    return b;
}

GapBound model_beta_gap(const GapReport &gaps, const Rational &eps, Prec prec) {
    GapBound best = lemma_gt(0, std::nullopt, eps, prec);
    for (const auto &h : gaps.heads) {
        GapBound g = lemma_gt(h.max_allowed, h.min_gap, eps, prec);
        if (!g.trivial && (best.trivial || g.beta_up > best.beta_up)) best = g;
    }
    return best;
}

} // namespace tempcert
