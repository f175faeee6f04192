// Sums of square roots; see sqrt_sum.hpp and proofs/irrational-ties.md.
#include "numbers.hpp"

namespace minicheck {
static bool square_root(const mpz_class &v, mpz_class &root) { // root: sqrt(v) if a square
    return mpz_perfect_square_p(v.get_mpz_t()) && (mpz_sqrt(root.get_mpz_t(), v.get_mpz_t()), true);
}

// c sqrt(u): a square goes to the rational part; a radicand whose product
// with u_i is a square t^2 is (t / u_i) sqrt(u_i); else a new term.
void SqrtSum::add(const Q &c, const mpz_class &u) {
    mpz_class t; // c = 0 adds 0
    if (c == 0 || square_root(u, t)) return void(r_ += c * Q(t));
    for (auto it = terms_.begin(); it != terms_.end(); ++it)
        if (square_root(u * it->u, t)) {
            Q factor(t, it->u);
            factor.canonicalize();
            it->c += c * factor;
            if (it->c == 0) terms_.erase(it);
            return;
        }
    if (terms_.size() >= 64) throw Failure{3, "", "a number with more than 64 square roots"};
    terms_.push_back({c, u});
}

SqrtSum SqrtSum::sqrt_of(const Q &q) { // sqrt(p/d) = sqrt(p d)/d
    SqrtSum x;
    x.add(Q(1, q.get_den()), q.get_num() * q.get_den());
    return x;
}

SqrtSum operator+(const SqrtSum &a, const SqrtSum &b) {
    SqrtSum s(Q(a.r_ + b.r_));
    for (const auto *x : {&a, &b})
        for (const auto &t : x->terms_)
            s.add(t.c, t.u);
    return s;
}

SqrtSum operator*(const SqrtSum &a, const SqrtSum &b) { // (r + sum) (r' + sum')
    SqrtSum s(Q(a.r_ * b.r_));
    for (const auto &t : b.terms_)
        s.add(a.r_ * t.c, t.u);
    for (const auto &t : a.terms_) {
        s.add(b.r_ * t.c, t.u);
        for (const auto &v : b.terms_)
            s.add(t.c * v.c, t.u * v.u);
    }
    return s;
}

SqrtSum SqrtSum::inverse(const std::string &path) const { // 1/(c sqrt(u)) = sqrt(u)/(c u)
    if (rational() && r_ == 0) malformed(path, "division by zero");
    if (rational()) return SqrtSum(Q(1 / r_));
    if (r_ != 0 || terms_.size() > 1) unsupported(path, "a divisor with more than one square root");
    SqrtSum x;
    x.terms_.push_back({1 / (terms_[0].c * Q(terms_[0].u)), terms_[0].u});
    return x;
}

Iv SqrtSum::enclose(long prec) const {
    Iv x(r_, prec);
    for (const auto &t : terms_)
        x = x + t.c * sqrt(Iv(Q(t.u), prec));
    return x;
}

int SqrtSum::sign() const { // x != 0 unless rational: some precision decides
    for (long prec = 128; !rational() && prec <= 65536; prec *= 2) {
        Iv x = enclose(prec);
        if (x.above(0) || x.below(Q(0))) return x.above(0) ? 1 : -1;
    }
    if (!rational()) throw Failure{3, "", "the sign of " + text().substr(0, 200) + " at 2^16 bits"};
    return sgn(r_);
}

std::string SqrtSum::text() const {
    std::string out = terms_.empty() || r_ != 0 ? to_text(r_) : "";
    for (const auto &t : terms_)
        out += (out.empty() ? "(" : " + (") + to_text(t.c) + ")*sqrt(" + t.u.get_str() + ")";
    return out;
}
} // namespace minicheck
