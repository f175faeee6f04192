// The walk of Lemma 4 (proofs/symbolic-gap.md): the lengths at which one
// query's worst case can change, for rational, integer and enclosed scores
// alike (src/gap/symbolic.cpp, src/certify/tight_position_scores.cpp).
#pragma once

#include "tempcert/mask.hpp"

#include <optional>
#include <vector>

namespace tempcert::detail {

// Appends to `out` the lengths n0..n - 1 whose next position scores at
// least the maximum so far, for query i's `score` (anything ordered by <
// and >). Needs a mask that grows at the end: position len is allowed
// from length len on.
template <class Score>
void lengths_before_rises(Mask mask, std::size_t i, std::size_t n0, std::size_t n, bool bos,
                          const Score &score, std::vector<std::size_t> &out) {
    using Value = decltype(score(std::size_t{0}));
    std::optional<Value> most;
    for (std::size_t j : allowed_positions(mask, i, n0, bos)) {
        const Value s = score(j);
        if (!most || s > *most) most = s;
    }
    for (std::size_t len = n0 + 1; len <= n; ++len) {
        const Value s = score(len); // position len: allowed from length len on
        if (most && s < *most) continue;
        out.push_back(len - 1);
        most = s;
    }
}

} // namespace tempcert::detail
