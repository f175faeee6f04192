// A double-interval filter in front of the affine closed forms
// (proofs/double-filter.md, "The affine scan's filter"). Each test answers
// true only when outward-rounded doubles show that the exact closed form
// would change nothing: a query whose every gap is at least the least gap
// found so far, that has no tie, or whose maxima all stay within the
// bracket. Anything else (false) sends the query to the exact form, so every
// value the scan reports is still computed exactly; the filter only decides
// which queries need it. Where doubles cannot decide a floor or a
// comparison, that one step is computed exactly. Each compares pairs of
// runs (|Sigma|^2 for a large virtual alphabet) and polls `limits` between
// runs, as the exact forms do.
#pragma once

#include "symbolic_affine.hpp"
#include "tempcert/dinterval.hpp"

#include <boost/container/small_vector.hpp>

#include <vector>

namespace tempcert::detail {

// Enclosures of a query's c and of each run's alpha (indexed like q.runs).
struct AffineEnclosure {
    DInterval c;
    boost::container::small_vector<DInterval, 12> alpha;
};

AffineEnclosure enclose_query(const AffineQuery &q);

// True when every gap of q is >= best, so that affine_min_gap(q) cannot
// return a gap below it (gaps the doubles leave undecided are computed
// exactly, one pair at a time).
bool affine_gaps_not_below(const AffineQuery &q, const AffineEnclosure &e, const Rational &best,
                           const Limits &limits);

// True when affine_tie(q, value_class) certainly finds no tie.
bool affine_no_tie(const AffineQuery &q, const AffineEnclosure &e,
                   const std::vector<int> &value_class, const Limits &limits);

// True when affine_profile_at_most(q, i, beta, eps) certainly holds: the
// same bound, summed in doubles; `beta` encloses beta and `ratio` eps/(1-eps).
bool affine_profile_at_most_filtered(const AffineQuery &q, const AffineEnclosure &e, std::size_t i,
                                     const DInterval &beta, const DInterval &ratio,
                                     const Limits &limits);

} // namespace tempcert::detail
