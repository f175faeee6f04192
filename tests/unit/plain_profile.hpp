// The profile of one maximum built position by position, as symbolic.cpp's
// profile_of builds it (proofs/profile-bound.md): positions whose least
// offer is the maximum hold it, else one holder keeps it (the one with the
// largest gap), and every other position sits at its largest offer below
// it; X(beta) summed one exponential per position in MPFI at 256 bits. The
// reference the profile's fast paths are tested against.
#pragma once

#include "tempcert/interval.hpp"

#include <optional>
#include <vector>

namespace tempcert::test {

// For maximum `top` over `offers` (per position, ascending): X(beta)
// enclosed in `x` and the bound c = k eps/(1-eps) in `bound`; false when no
// position is outside the maximum.
inline bool plain_x(const std::vector<std::vector<Rational>> &offers, const Rational &top,
                    const Rational &beta, const Rational &eps, Interval &x, Rational &bound) {
    const Prec p = 256;
    std::vector<const Rational *> pred(offers.size(), nullptr);
    std::vector<bool> holds(offers.size(), false);
    std::size_t forced = 0;
    for (std::size_t s = 0; s < offers.size(); ++s) {
        for (const auto &v : offers[s]) {
            if (v < top) pred[s] = &v;
            if (v == top) holds[s] = true;
        }
        if (!pred[s]) ++forced;
    }
    std::optional<std::size_t> keep;
    if (forced == 0)
        for (std::size_t s = 0; s < offers.size(); ++s)
            if (holds[s] && (!keep || *pred[s] < *pred[*keep])) keep = s;
    x = Interval(p);
    Interval b(beta, p);
    std::size_t terms = 0;
    for (std::size_t s = 0; s < offers.size(); ++s) {
        if (!pred[s] || (keep && s == *keep)) continue;
        x = add(x, exp(neg(mul(b, top - *pred[s], p)), p), p);
        ++terms;
    }
    bound = Rational(static_cast<long>(forced == 0 ? 1 : forced)) * eps / (1 - eps);
    return terms > 0;
}

} // namespace tempcert::test
