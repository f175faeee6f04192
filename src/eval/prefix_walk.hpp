// The depth-first walk over the tree of words that prefix sharing uses
// (certification and gaps), written once and without recursion: with a
// one-symbol alphabet the tree is a path as deep as n (up to --max-n), which
// a recursive walk would follow onto the end of the stack (issue 13, 0b).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tempcert::detail {

// The prefixes of this length are the parallel tasks of a walk over words up
// to length n: the first length with at least 64 words, fixed by the
// alphabet and n and never by --threads, so task results (merged in task
// order) do not depend on the thread count. A one-symbol alphabet has one
// word per length: no split (the whole walk is one task).
inline std::size_t prefix_split_length(std::size_t symbols, std::size_t n) {
    constexpr std::uint64_t kMinTasks = 64;
    if (symbols < 2) return n;
    std::size_t split = 1;
    for (std::uint64_t c = symbols; c < kMinTasks && split < n; c *= symbols)
        ++split;
    return std::min(split, n);
}

// Visits, in preorder and in symbol order, the nodes below the current one,
// at most `levels` symbols further down. enter(s) appends symbol s to the
// current word; visit() judges the node just entered and returns whether the
// walk goes below it (it is never asked to go more than `levels` deep);
// leave() removes the last symbol. Every enter is matched by one leave.
template <class Enter, class Visit, class Leave>
void walk_depth_first(std::size_t symbols, std::size_t levels, Enter &&enter, Visit &&visit,
                      Leave &&leave) {
    if (levels == 0 || symbols == 0) return;
    std::vector<std::size_t> next{0}; // next[d]: the next symbol to try at depth d + 1
    while (!next.empty()) {
        if (next.back() == symbols) { // every child of this node is done
            next.pop_back();
            if (!next.empty()) leave();
            continue;
        }
        std::size_t s = next.back()++;
        enter(s);
        if (visit() && next.size() < levels)
            next.push_back(0);
        else
            leave();
    }
}

} // namespace tempcert::detail
