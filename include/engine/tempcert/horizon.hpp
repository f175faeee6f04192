// "Up to which n does this model hold?" (docs/import.md): the largest n <= N such
// that every input of length <= n meets the criterion at beta, and the
// shortest failure beyond it, or why nothing more is known.
#pragma once

#include "tempcert/certify.hpp"

namespace tempcert {

// What certified a range of lengths.
enum class HorizonMethod { Exhaustive, Symbolic, Layerwise, Perturbation };
const char *to_string(HorizonMethod m); // "exhaustive", "symbolic", ...

struct HorizonResult {
    std::size_t max_n = 0;                  // N, the longest length asked about
    std::size_t certified_up_to = 0;        // 0: not even length 1
    std::optional<Violation> first_failure; // a word of length certified_up_to + 1
    std::optional<std::string> undecided;   // why nothing is known beyond certified_up_to
    // what certified the lengths, shortest lengths first (enumeration up to
    // where it reaches, then a method beyond it)
    std::vector<HorizonMethod> methods;
    std::string methods_text() const; // "exhaustive+layerwise"; "" when none
    std::uint64_t words = 0;          // words the enumeration judged
    // horizon without --max-n (proofs/every-n.md): every length certified,
    // the tail bound from position every_n0 on, or (every_n_theorem "T",
    // "L") by Theorem T or L: beta at least the supremum's certified upper
    // end, with no certificate kind yet
    bool every_n = false;
    std::size_t every_n0 = 0;
    std::string every_n_theorem;
};

// The cheapest sound method first. For tv with every head in layer 1, the
// symbolic profile bound (the tight beta at each n, growing with n) by
// bisection on n, no enumeration. Otherwise, when enumeration cannot reach
// N, the layerwise argument if it certifies N; then enumeration
// (certify_auto) over every length --max-words allows: it judges shorter
// words first, so its first failing word is a shortest one; and beyond
// that, the layerwise argument by bisection (certified at n implies
// certified at every m < n), or where it does not apply the perturbation
// argument the same way. `o.n` is N.
HorizonResult horizon(const Model &m, const BetaSpec &beta, const CertifyOptions &o);

} // namespace tempcert
