// Pieces of the affine closed forms (symbolic_affine.cpp) that their double
// filter (symbolic_affine_filter.cpp) uses too, so that both read a query's
// runs the same way.
#pragma once

#include "symbolic_affine.hpp"

#include <boost/container/small_vector.hpp>

#include <utility>

namespace tempcert::detail {

// floor(x) and ceil(x), clamped to [lo, hi] (so they fit in a long).
long floor_clamped(const Rational &x, long lo, long hi);
long ceil_clamped(const Rational &x, long lo, long hi);

// The positions of run r whose offer is >= L: lo..hi, empty when lo > hi.
std::pair<long, long> at_least_L(const AffineQuery &q, const AffineRun &r);

// A query's positions: the free ones (every symbol, offer alpha + c j) in
// their ranges, and the fixed ones (BOS, the query's own: one offer each).
// Pointers into the query's runs, which must outlive the layout. Small
// vectors: one layout per query of a scan, without allocating for a few
// symbols.
struct AffineLayout {
    template <class T> using Few = boost::container::small_vector<T, 8>;
    Few<const AffineRun *> free_runs, fixed;
    Few<std::pair<long, long>> ranges;    // of the free positions
    std::size_t free = 0, first_free = 0; // how many, and the lowest
    // one range's free runs (every range offers the same constants),
    // ascending by alpha then symbol, and of each distinct alpha its first
    // run (the least symbol offering it)
    Few<const AffineRun *> offers;
    Few<const AffineRun *> alphas;
};

AffineLayout layout_of(const AffineQuery &q, std::size_t i);

} // namespace tempcert::detail
