// Exact scores of position-only heads in machine integers (proofs/
// symbolic-gap.md, "Position-only scores in machine integers", Lemma 5):
// every key row scaled by one common denominator D, every query row by its
// own d_q, so that one query's scores are the 128-bit integers Q . K_j over
// the one positive number d_q D. Nothing is rounded: a row whose numerators
// do not fit is refused (nullopt) and its query takes the rational scan.
#pragma once

#include "tempcert/rational.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace tempcert::detail {

// (__extension__: GCC and Clang's 128-bit integers, outside ISO C++)
__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

// A query row as integers: q = Q / d_q.
struct IntegerQuery {
    std::vector<std::int64_t> Q;
    Rational scale; // 1 / (d_q D): a score is its integer times this
    int bits = 0;   // bit length of the largest |Q| entry
};

class IntegerKeys {
  public:
    // rows[j] for j = first..rows.size() - 1, every row of one width; nullopt
    // when a numerator over the common denominator reaches 2^62.
    static std::optional<IntegerKeys> of(const std::vector<Vector> &rows, std::size_t first);

    // nullopt when the query's numerators or their products could overflow.
    std::optional<IntegerQuery> query(const Vector &q) const;

    // Q . K_j, exactly (query() checked the bound).
    Int128 score(const IntegerQuery &q, std::size_t j) const {
        const std::int64_t *k = &K_[j * w_];
        Int128 s = 0;
        for (std::size_t c = 0; c < w_; ++c)
            s += static_cast<Int128>(q.Q[c]) * k[c];
        return s;
    }

  private:
    std::vector<std::int64_t> K_; // row-major, w_ entries per position
    std::size_t w_ = 0;
    Rational D_;
    int bits_ = 0; // bit length of the largest |K| entry
};

// Rational value of an integer (a gap or a score numerator).
Rational to_rational(Int128 x);

// Whether sum_j exp(-beta_scaled g_j) <= c is certain, for gaps g_j > 0
// (the profile's skip in outward-rounded doubles, beta_scaled >= 0). False
// means "not shown", never "shown false".
bool integer_x_at_most(const std::vector<Int128> &gaps, const Rational &beta_scaled,
                       const Rational &c);

} // namespace tempcert::detail
