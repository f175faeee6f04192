// Mask semantics; see include/kernel/tempcert/mask.hpp.
#include "tempcert/mask.hpp"

namespace tempcert {

bool mask_allows(Mask mask, std::size_t i, std::size_t j) {
    switch (mask) {
    case Mask::None:
        return true;
    case Mask::Causal:
        return j <= i;
    case Mask::Strict:
        return j < i;
    case Mask::Future:
        return j >= i;
    case Mask::StrictFuture:
        return j > i;
    }
    return false;
}

std::vector<std::size_t> allowed_positions(Mask mask, std::size_t i, std::size_t n, bool bos) {
    std::vector<std::size_t> out;
    for (std::size_t j = bos ? 0 : 1; j <= n; ++j)
        if (mask_allows(mask, i, j)) out.push_back(j);
    return out;
}

bool looks_backward(Mask mask) {
    return mask == Mask::Causal || mask == Mask::Strict;
}

bool sees_before(Mask mask) {
    return mask == Mask::None || mask == Mask::Causal || mask == Mask::Strict;
}

bool sees_after(Mask mask) {
    return mask == Mask::None || mask == Mask::Future || mask == Mask::StrictFuture;
}

bool includes_self(Mask mask) {
    return mask == Mask::None || mask == Mask::Causal || mask == Mask::Future;
}

bool can_be_empty(Mask mask) {
    return mask == Mask::Strict || mask == Mask::StrictFuture;
}

std::size_t max_allowed(Mask mask, std::size_t n, bool bos) {
    // with BOS: every mask lets some query see all n + 1 positions (the BOS
    // query under future masks), the strict ones one fewer; without BOS
    // the same with n
    return (can_be_empty(mask) ? n - 1 : n) + (bos ? 1 : 0);
}

} // namespace tempcert
