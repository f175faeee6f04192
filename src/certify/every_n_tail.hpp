// The tail bound of `tight --every-n` (proofs/every-n.md, Lemmas E1-E3):
// every first-layer query at a position i >= n0, of every word of every
// length, has X(beta) at most the largest sum of terms over a holder line,
// each term bounded in closed form for all those i at once.
#pragma once

#include "every_n_poly.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/every_n.hpp"

#include <string>
#include <vector>

namespace tempcert::every_n {

// One T_RS of Lemma E2, instantiated at n0.
struct Term {
    enum class Kind {
        Zero,        // (Z): no positive gap
        Progression, // (C): sum over m != 0 of exp(-beta (delta + u m)), positive ones
        Geometric,   // (V), (P): exp(-beta g) / (1 - exp(-beta u))
        Single,      // one term exp(-beta g) (BOS, or (C0) with BOS)
        Count,       // (V) with c = 0: n0 exp(-beta g), when beta s n0 >= 1
        Unbounded,   // (C0) with a free rival: Lemma E3
    };
    Kind kind = Kind::Zero;
    Rational g, u, s; // Progression: g is Delta
    Integer n0 = 0;   // Count
};

// The sums of Lemma E1: one per head, query symbol and holder line.
struct TailPlan {
    std::size_t n0 = 0;
    std::vector<std::vector<Term>> sums;
    std::vector<GrowthWitness> growth; // non-empty: no constant beta (Lemma E3)
    // every head's scores constant in the key position (slope 0): the
    // profile bound then has its closed form, and tight at 10^4 is cheap
    bool flat_keys = true;

    std::size_t terms() const {
        std::size_t k = 0;
        for (const auto &s : sums)
            k += s.size();
        return k;
    }
};

// Builds the plan with n0 at least `n0_min` (and past every Cauchy bound
// the classification needs). Throws Undecided naming the head, the symbols
// and the polynomial when a pair is out of scope, or the scope condition
// the model fails (every_n_out_of_scope).
TailPlan plan_tail(const Model &m, const CertifyOptions &o, std::size_t n0_min);

// Whether every sum is <= eps/(1 - eps) at beta (> 0): True certified, False
// certainly not, Unknown when the enclosure at `prec` straddles it.
Tri tail_meets(const TailPlan &plan, const Rational &beta, const Rational &eps, Prec prec);

// Lemma E4's condition 3: the same sums with each unbounded (C0) term
// bounded by exp(-c Delta/dm) and every other term taken at beta0.
Tri envelope_meets(const TailPlan &plan, const Rational &c, const Rational &dm,
                   const Rational &beta0, const Rational &eps, Prec prec);

} // namespace tempcert::every_n
