// Exact numbers and expressions as the model format writes them
// (docs/model-format.md): number text, the expression language of
// positional features and betas, its fully parenthesised rendering (part of
// the canonical form a certificate's hash binds), and its evaluation:
// exactly where it is rational, in MPFI intervals where beta uses log or
// sqrt.
#pragma once

#include "json_in.hpp"
#include "sqrt_sum.hpp"

#include <memory>
#include <optional>
#include <string>

namespace minicheck {
// "-3", "3/4", "0.125", "1e-3", "2.5E+2": the exact rational, or nullopt.
// Without `exponent`, a number with one is refused (certificates write none).
std::optional<Q> parse_number(const std::string &text, bool exponent = true);
// A model number: a JSON integer or a string parse_number reads.
Q number_at(const Json &v, const std::string &path);
std::string to_text(const Q &q); // "p" or "p/q", reduced

struct Expr {
    enum class Op { Number, J, N, Add, Sub, Mul, Div, Neg, Pow, Log, Sqrt, Delta };
    Op op = Op::Number;
    Q value;           // Number
    long exponent = 0; // Pow
    std::unique_ptr<Expr> a, b;

    static Expr parse(const std::string &text, const std::string &path);
    std::string render() const;
    bool uses(Op o) const;
    bool rational() const { return !uses(Op::Log) && !uses(Op::Sqrt); }
    // exact value: a Failure (2) on division by zero, (3) on log; exact
    // alone also (3) where sqrt leaves the value irrational
    SqrtSum exact_sum(const Q &j, const Q &n, const std::string &path) const;
    Q exact(const Q &j, const Q &n, const std::string &path) const;
    // an enclosure at prec (n only: betas do not use j)
    Iv enclose(const Q &n, long prec, const std::string &path) const;
};
} // namespace minicheck
