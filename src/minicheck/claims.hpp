// The claims of an exhaustive certificate (docs/certificates.md), each
// re-derived by the small checker's own scan of every word: the gaps, their
// witnesses and ties, Lemma GT's bounds, beta, and the verdict (every word,
// or the counterexample of a refuted certificate).
#pragma once

#include "model.hpp"

#include <cstdint>

namespace minicheck {
struct Limits {
    std::uint64_t max_words = 20000000;     // words of length 1..n
    std::uint64_t max_n = 200;              // every word is evaluated whole: O(n^2) per head
    long prec_cap = 4096;                   // bits
    std::uint64_t max_queries = 1000000000; // layerwise: offers compared per head
    std::uint64_t max_values = 100000;      // layerwise: hard values per position
    unsigned threads = 1;                   // exhaustive, masks looking back: walkers
};

// Returns what was re-evaluated ("K words", "the counterexample"); a
// Failure (1: a claim does not hold, 2: not a certificate, 3: outside this
// checker's class) otherwise.
std::string verify(const Json &cert, const Model &m, const Limits &limits);

// The other kinds (docs/certificates.md), each re-derived by its own walk:
// layerwise (proofs/layerwise.md: value sets, gaps, counts, profiles,
// Lemma GT, radii, ReLU phases, the read-out's exactness), perturbation
// (proofs/perturbation.md: each claimed bound at least its formula from the
// previous claims) and every-n (proofs/every-n.md: a finite certificate at
// n0 - 1 and the tail bound for every query at n0 or beyond).
// With `entering`, each layer's entering values (S, B) from the layerwise
// walk, which must have no count coordinate (every-n by layers).
using Entering = std::vector<std::pair<std::vector<Vec>, std::vector<Vec>>>;
std::string verify_layerwise(const Json &cert, const Model &m, const Limits &limits,
                             Entering *entering = nullptr);
std::string verify_perturbation(const Json &cert, const Model &m, const Limits &limits);
std::string verify_every_n(const Json &cert, const Model &m, const Limits &limits);
} // namespace minicheck
