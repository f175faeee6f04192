// How the small checker compares a certificate's claim with what it
// re-derived, for every kind of certificate it reads: exact numbers and
// counts for equality, Lemma GT's bound and its roundings as inequalities
// decided at rising precision, and beta's expression in n.
#pragma once

#include "evaluate.hpp"

#include <optional>
#include <string>
#include <vector>

namespace minicheck {
const long kPrecStart = 128;

// Rejects (exit 1) with "claims ..., recomputed ..." unless `equal`.
void same(bool equal, const std::string &path, const std::string &claimed,
          const std::string &recomputed);
// The key's value is `want` (strings shown bare, the rest as JSON).
void same_at(const Json &obj, const std::string &path, const char *key, const Json &want);
// A count the certificate states against the recomputed one.
void same_count(const Json &obj, const std::string &path, const char *key, std::size_t want);
// An exact number "p/q" (exit 2 if not one).
Q exact_at(const Json &obj, const std::string &path, const char *key);
// An exact number "p/q", or a constant expression with sqrt (exit 2 if neither).
SqrtSum exact_form_at(const Json &obj, const std::string &path, const char *key);
// "p/q", "0.125", "5.6e-9" or ["lo", "hi"]: a claimed enclosure [lo, hi].
std::pair<Q, Q> enclosure_at(const Json &obj, const std::string &path, const char *key);
// "min_gap": the recomputed least gap, or "inf" for none; an irrational
// one has its enclosure beside it ("min_gap_enclosure").
void compare_gap(const Json &obj, const std::string &path, const std::optional<SqrtSum> &want);

// Lemma GT: beta_gap = ln((N - 1)(1 - eps)/eps) / gamma.
struct LemmaGt {
    std::size_t N;
    std::optional<SqrtSum> gamma;
    Q eps;

    Q argument() const { return Q(N > 0 ? N - 1 : 0) * (1 - eps) / eps; }
    bool needed() const { return gamma && N > 1 && argument() > 1; }
    Iv enclose(long prec) const { return log(Iv(argument(), prec)) / gamma->enclose(prec); }
    std::string text() const { // an irrational gamma: the head's min_gap, stated beside
        return "ln(" + to_text(argument()) + ")/" +
               (gamma->rational() ? "(" + gamma->text() + ")" : "gamma");
    }
};

// `decide(prec)` at 128, 256, ... bits up to the cap; rejects unless True.
template <class Decide>
void at_rising_precision(long cap, const std::string &path, const std::string &what,
                         Decide &&decide) {
    for (long prec = kPrecStart;; prec = std::min(2 * prec, cap)) {
        Tri t = decide(prec);
        if (t == Tri::True) return;
        if (t == Tri::False || prec >= cap)
            rejected(path, "is not " + what +
                               (t == Tri::Unknown ? " (undecided at the precision cap)" : ""));
    }
}

// The claim at obj.key is b's value rounded up: v <= c <= v (1 + 1e-9) + 1e-30
// (0 when no beta is needed).
void rounded_up(const Json &obj, const std::string &path, const char *key, const LemmaGt &b,
                long cap);
// 1/v (1 - 1e-9) - 1e-30 <= c <= 1/v
void reciprocal_rounded_down(const Json &obj, const std::string &path, const char *key,
                             const LemmaGt &b, long cap);

// The format, the writer and the model bound by hash; returns the method.
std::string check_binding(const Json &cert, const Model &m);

// What every certificate claims for: words of length 1..n, eps, criterion.
struct Claim {
    std::size_t n;
    Q eps;
    std::string criterion;
};
Claim read_claim(const Json &cert, const Model &m);

// A beta that reads no n is shown positive: exactly when rational, else by
// an enclosure above 0 at rising precision (rejects otherwise: exit 1).
void require_positive(const Expr &beta, long cap, const std::string &path);

// beta.spec: one expression in n, or one per layer, separated by commas.
std::vector<Expr> read_betas(const Json &cert, const Model &m);
} // namespace minicheck
