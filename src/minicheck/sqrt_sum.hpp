// r + c_1 sqrt(u_1) + ... + c_k sqrt(u_k), the hard model's exact numbers
// (proofs/irrational-ties.md, "Sums of square roots"): the integers u_i are
// no squares and no two have a square product, so the value is 0 exactly
// when r = 0 and k = 0 (Besicovitch), and a sign is an enclosure excluding 0.
#pragma once

#include "interval.hpp"

#include <vector>

namespace minicheck {
class SqrtSum {
  public:
    SqrtSum(long r = 0) : r_(r) {}
    SqrtSum(Q r) : r_(std::move(r)) {}
    static SqrtSum sqrt_of(const Q &q); // q >= 0

    bool rational() const { return terms_.empty(); }
    const Q &rational_part() const { return r_; }
    Iv enclose(long prec) const;
    int sign() const;         // exact; a Failure (3) where 2^16 bits do not decide
    std::string text() const; // in the model format's expression syntax
    // 1/x for a rational x != 0 or a single term c sqrt(u); a Failure (3) otherwise
    SqrtSum inverse(const std::string &path) const;

    friend SqrtSum operator+(const SqrtSum &a, const SqrtSum &b);
    friend SqrtSum operator*(const SqrtSum &a, const SqrtSum &b);
    friend SqrtSum operator*(const Q &a, const SqrtSum &b) { // a weight times a value
        return b.rational() ? SqrtSum(Q(a * b.r_)) : SqrtSum(a) * b;
    }
    friend SqrtSum operator-(const SqrtSum &a) { return SqrtSum(-1) * a; }
    friend SqrtSum operator-(const SqrtSum &a, const SqrtSum &b) { return a + -b; }
    SqrtSum &operator+=(const SqrtSum &b) { return *this = *this + b; }
    friend bool operator==(const SqrtSum &a, const SqrtSum &b) {
        return a.rational() && b.rational() ? a.r_ == b.r_ : (a - b).sign() == 0;
    }
    friend bool operator<(const SqrtSum &a, const SqrtSum &b) {
        return a.rational() && b.rational() ? a.r_ < b.r_ : (b - a).sign() > 0;
    }

  private:
    struct Term {
        Q c;
        mpz_class u;
    };
    Q r_;
    std::vector<Term> terms_; // c sqrt(u)

    void add(const Q &c, const mpz_class &u); // keeps the radicands' invariant
};

using XVec = std::vector<SqrtSum>;
} // namespace minicheck
