// Instance checks for `tempcert theorem` (proofs/lemma-gt.md,
// proofs/profile-bound.md). Every comparison is one-sided on intervals:
// "confirmed" needs a certain inequality, a counterexample a certain violation.
#include "tempcert/theorems.hpp"
#include "tempcert/error.hpp"
#include "tempcert/symbolic.hpp"

#include <algorithm>

namespace tempcert {

namespace {

// TV on the extremal profile (0, -gamma, ..., -gamma), N positions:
// X / (1 + X) with X = (N - 1) exp(-beta gamma).
Interval extremal_tv(std::size_t N, const Rational &gamma, const Interval &beta, Prec prec) {
    Interval x =
        mul(exp(neg(mul(beta, gamma, prec)), prec), Rational(static_cast<long>(N - 1)), prec);
    return share(x, Interval(1L, prec), prec);
}

std::string iv(const Interval &x) {
    return "[" + x.lower_decimal(15) + ", " + x.upper_decimal(15) + "]";
}

} // namespace

TheoremOutcome check_gap_lemma(std::size_t N, const Rational &gamma, const Rational &eps,
                               const std::optional<BetaSpec> &claimed, Prec prec) {
    TheoremOutcome out;
    if (N < 2) throw InputError("", "--n", "Lemma GT needs N >= 2 allowed positions");
    GapBound b = lemma_gt(N, Real(gamma), eps, prec);
    Interval e(eps, prec);
    if (claimed) {
        // the claimed beta's enclosure raised (doubling, up to the default
        // cap) until TV is certainly above or certainly within eps
        const Prec cap = std::max(prec, kPrecCapDefault);
        for (Prec p = prec;; p = std::min(2 * p, cap)) {
            Interval ep(eps, p);
            Interval tv = extremal_tv(N, gamma, claimed->at(0, N, p).enclose(p), p);
            if (less(ep, tv) == Tri::True) {
                out.counterexample =
                    "the profile (0, -" + to_string(gamma) + ", ..., -" + to_string(gamma) +
                    ") with N = " + std::to_string(N) + " has TV " + iv(tv) + " > eps " +
                    to_string(eps) + " at beta = " + claimed->text() +
                    (b.trivial ? "" : " (Lemma GT needs " + b.beta_decimal_up + ")");
                return out;
            }
            if (less_equal(tv, ep) == Tri::True) {
                out.lines.push_back("at beta = " + claimed->text() +
                                    " every profile with N = " + std::to_string(N) +
                                    " positions and gap >= " + to_string(gamma) +
                                    " has TV at most the extremal profile's, " + iv(tv) +
                                    " <= eps " + to_string(eps));
                out.confirmed = true;
                return out;
            }
            if (p >= cap)
                throw Undecided("TV " + iv(tv) + " cannot be separated from eps at " +
                                std::to_string(p) + " bits");
        }
    }
    if (b.trivial) {
        Interval tv0 = extremal_tv(N, gamma, Interval(0L, prec), prec);
        Tri within = less_equal(tv0, e);
        if (within == Tri::Unknown)
            throw Undecided("TV at beta = 0, " + iv(tv0) + ", cannot be separated from eps at " +
                            std::to_string(prec) + " bits");
        if (within == Tri::False) {
            out.counterexample = "argument <= 1 but TV at beta = 0 is " + iv(tv0);
            return out;
        }
        out.lines.push_back("(N-1)(1-eps)/eps = " + to_string(b.argument) +
                            " <= 1: TV at beta = 0 is " + iv(tv0) +
                            " <= eps, so every beta >= 0 suffices");
        out.confirmed = true;
        return out;
    }
    Interval at_up = extremal_tv(N, gamma, Interval(b.beta_up, prec), prec);
    Interval at_exact = extremal_tv(N, gamma, *b.beta, prec);
    Interval below = extremal_tv(N, gamma, mul(*b.beta, Rational(999, 1000), prec), prec);
    // a counterexample needs a certain violation: an undecided comparison is
    // reported as undecided, never as the theorem failing (docs/reliability.md, Undecided
    // comparisons)
    Tri bound_t = less_equal(at_up, e), refuted_t = less(e, below);
    if (bound_t == Tri::Unknown || refuted_t == Tri::Unknown)
        throw Undecided("TV at beta_gap (rounded up) " + iv(at_up) + " or at 0.999 beta_gap " +
                        iv(below) + " cannot be separated from eps at " + std::to_string(prec) +
                        " bits");
    bool bound = bound_t == Tri::True;
    bool tight = at_exact.contains(eps); // an enclosure without eps: certainly not tight
    bool refuted = refuted_t == Tri::True;
    out.lines.push_back("beta_gap = " + b.exact + " <= " + b.beta_decimal_up + " (rounded up)");
    out.lines.push_back("bound: TV on the extremal profile at beta_gap (rounded up) is " +
                        iv(at_up) + " <= eps");
    out.lines.push_back("tight: at beta_gap itself TV is " + iv(at_exact) +
                        ", which contains eps = " + to_string(eps));
    out.lines.push_back("0.999 beta_gap: TV " + iv(below) + " > eps (refuted)");
    if (!bound)
        out.counterexample = "TV at beta_gap rounded up is " + iv(at_up) + ", not <= eps";
    else if (!tight)
        out.counterexample = "TV at beta_gap is " + iv(at_exact) + ", which does not contain eps";
    else if (!refuted)
        out.counterexample = "TV at 0.999 beta_gap is " + iv(below) + ", not > eps";
    out.confirmed = bound && tight && refuted;
    return out;
}

TheoremOutcome check_profile_vs_gap(const Model &m, std::size_t n, const Rational &eps,
                                    const Limits &limits) {
    TheoremOutcome out;
    std::string why;
    GapReport gaps;
    ProfileReport prof;
    const Rational rel(1, 1000000000);
    if (symbolic_applies(m, why)) {
        SymbolicOptions so;
        so.eps = eps;
        so.rel = rel;
        so.limits = limits;
        SymbolicReport r = analyse_symbolic(m, n, so);
        gaps = r.gaps;
        prof = r.profile;
    } else {
        gaps = min_gaps_exhaustive(m, n, limits, PrecisionPolicy{});
        prof = profile_bound_plain(m, n, eps, rel, limits, PrecisionPolicy{});
    }
    out.confirmed = true;
    for (std::size_t k = 0; k < gaps.heads.size(); ++k) {
        const HeadGap &g = gaps.heads[k];
        GapBound b = lemma_gt(g.max_allowed, g.min_gap, eps, kPrecStart);
        const Bracket &p = prof.heads[k].bound;
        std::string head = "layer " + std::to_string(g.layer) + " head " + std::to_string(g.head);
        if (b.trivial) {
            if (p.lo > 0) {
                out.confirmed = false;
                out.counterexample = head + ": profile bound " +
                                     decimal_significant(p.lo, 12, false) +
                                     " > 0 where Lemma GT needs no beta";
            }
            out.lines.push_back(head + ": no beta needed (profile " +
                                decimal_significant(p.hi, 12, true) + ")");
            continue;
        }
        if (p.hi > b.beta_up) {
            out.confirmed = false;
            out.counterexample = head + ": profile bound up to " +
                                 decimal_significant(p.hi, 12, true) + " exceeds beta_gap " +
                                 b.beta_decimal_up;
        }
        double ratio = static_cast<double>(p.hi / b.beta_up);
        out.lines.push_back(head + ": profile bound in [" + decimal_significant(p.lo, 12, false) +
                            ", " + decimal_significant(p.hi, 12, true) + "] <= beta_gap " +
                            b.beta_decimal_up + " (ratio " + std::to_string(ratio).substr(0, 6) +
                            ")");
    }
    return out;
}

} // namespace tempcert
