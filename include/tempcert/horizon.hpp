// "Up to which n does this model hold?" (issue 14): the largest n <= N such
// that every input of length <= n meets the criterion at beta, and the
// shortest failure beyond it, or why nothing more is known.
#pragma once

#include "tempcert/certify.hpp"

namespace tempcert {

struct HorizonResult {
    std::size_t max_n = 0;           // N, the longest length asked about
    std::size_t certified_up_to = 0; // 0: not even length 1
    std::optional<Violation> first_failure; // a word of length certified_up_to + 1
    std::optional<std::string> undecided;   // why nothing is known beyond certified_up_to
    std::string method;                     // what certified the lengths: exhaustive, layerwise
    std::uint64_t words = 0;                // words the enumeration judged
};

// Enumeration (certify_auto) over every length its word budget
// (--max-words) allows: it judges words shorter first, so its first failing
// word is a shortest one, and every shorter length is certified unless a
// shorter word was undecided. Beyond the budget, the layerwise method where
// it applies (certified at n implies certified at every m < n, so the
// largest certified n is found by bisection). `o.n` is N.
HorizonResult horizon(const Model &m, const BetaSpec &beta, const CertifyOptions &o);

} // namespace tempcert
