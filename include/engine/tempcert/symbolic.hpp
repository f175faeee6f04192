// Symbolic first-layer analysis (docs/semantics.md; proofs/symbolic-gap.md): minimum
// gaps, the unique-hard tie check and the profile bound over every input up
// to length n, without enumerating words.
#pragma once

#include "tempcert/bounds.hpp"

namespace tempcert {

// Whether every head is in layer 1 and every feature rational.
bool symbolic_applies(const Model &m, std::string &why_not);

struct SymbolicOptions {
    std::optional<Rational> eps; // compute the profile bound too
    Rational rel = Rational(1, 1000000000);
    PrecisionPolicy precision;
    Limits limits; // the wall-clock budget and interrupt are checked per query; threads
    // Heads whose scores are affine in the key position use the closed form
    // (O(|Sigma|^3) per query position instead of O(i |Sigma|^2)); false
    // forces the general scan (tests compare the two).
    bool closed_form = true;
    // The closed form's double filter (proofs/double-filter.md, "The affine
    // scan's filter") skips the exact steps of queries that certainly change
    // nothing; false runs every exact step (tests compare the two).
    bool filter = true;
    // Heads whose scores ignore the key symbols under a mask that looks
    // forward or nowhere examine each query at its critical lengths only
    // (proofs/symbolic-gap.md, "Position-only scores"); false examines every
    // length (tests compare the two).
    bool critical_lengths = true;
    // Position-only heads take their scores as 128-bit integers where they
    // fit (proofs/symbolic-gap.md, Lemma 5); false takes every query
    // through the rational scan (tests compare the two).
    bool integer_scores = true;
};

struct SymbolicReport {
    GapReport gaps;                        // method "symbolic", words = 0
    ProfileReport profile;                 // empty unless options.eps
    std::size_t closed_form_heads = 0;     // heads analysed by the affine closed form
    std::size_t critical_length_heads = 0; // heads whose queries took their critical lengths only
    std::size_t integer_queries = 0;       // queries scanned in machine integers (Lemma 5)
};

// Throws InputError when symbolic_applies is false.
SymbolicReport analyse_symbolic(const Model &m, std::size_t n, const SymbolicOptions &opt);

} // namespace tempcert
