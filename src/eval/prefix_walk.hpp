// The depth-first walk over the tree of words that prefix sharing uses
// (certification and gaps), written once and without recursion: with a
// one-symbol alphabet the tree is a path as deep as n (up to --max-n), which
// a recursive walk would follow onto the end of the stack.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tempcert::detail {

// The prefixes of this length are the parallel tasks of a walk over words up
// to length n, fixed by the alphabet and n and never by --threads or the
// number of MPI ranks, so task results (merged in task order) do not depend
// on either. At least 64 tasks; as many as 4096 (enough to balance 1024
// ranks, bench/RESULTS.md) while each task still has 64 or more words below
// its root per word above the split, so the serial part above the split
// stays a small share. A one-symbol alphabet has one word per length: no
// split (the whole walk is one task).
inline std::size_t prefix_split_length(std::size_t symbols, std::size_t n) {
    if (symbols < 2) return n;
    // the first length with at least `tasks` words of that length
    auto first_with = [symbols](std::uint64_t tasks) {
        std::size_t length = 1;
        for (std::uint64_t c = symbols; c < tasks; c *= symbols)
            ++length;
        return length;
    };
    const std::size_t few = first_with(64), many = first_with(4096);
    const std::size_t room = n > few ? n - few : 0; // leaves `few` levels below the split
    return std::min(std::max(few, std::min(many, room)), n);
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
