// Expressions in the position j and the length n (docs/model-format.md): numbers
// (integers, decimals), j, n, + - * /, ^ with an integer exponent,
// parentheses, log (natural), sqrt and delta (1 at 0, else 0). Used for positional features and
// for inverse temperatures.
//
// Evaluation is exact where the value is rational (log(1) = 0, sqrt of a
// square rational) and an outward-rounded interval otherwise.
#pragma once

#include "tempcert/real.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace tempcert {

// Parse or domain error at a 1-based column of the expression text.
class ExprError : public std::runtime_error {
  public:
    ExprError(std::size_t column, const std::string &what)
        : std::runtime_error(what), column_(column) {}
    std::size_t column() const { return column_; }

  private:
    std::size_t column_;
};

// The message of an evaluation error of an expression without j (a beta):
// "at n = N" in place of the evaluator's "at j = 0, n = N".
std::string message_without_j(const ExprError &err);

class Expr {
  public:
    enum class Op { Number, J, N, Add, Sub, Mul, Div, Neg, Pow, Log, Sqrt, Delta };
    struct Node {
        Op op;
        Rational value;     // Number
        long exponent = 0;  // Pow
        int a = -1, b = -1; // operands (node indices)
        std::size_t column; // where the node starts, for messages
    };

    // Throws ExprError naming the column and what was expected.
    static Expr parse(const std::string &text);

    const std::string &text() const { return text_; }
    // Nodes of the parsed expression: what it costs to hold and evaluate.
    std::size_t size() const { return nodes_.size(); }
    // Fully parenthesised rendering; equal for texts that parse alike.
    std::string canonical() const;
    bool uses_j() const;
    bool uses_n() const;
    // True when every value is rational (no log or sqrt anywhere).
    bool is_rational_form() const;
    // The parsed tree, for writers of other languages (export coq): nodes
    // by index, operands before the nodes that use them.
    const std::vector<Node> &nodes() const { return nodes_; }
    int root() const { return root_; }

    // Value at (j, n). Throws ExprError on a domain error (division by zero,
    // log of a value <= 0, sqrt of a negative) and Undecided when an interval
    // at `prec` cannot tell whether an argument is in the domain.
    Real eval(const Rational &j, const Rational &n, Prec prec) const;

  private:
    std::string text_;
    std::vector<Node> nodes_;
    int root_ = -1;
    friend class ExprParser;
    Real eval_node(int i, const Rational &j, const Rational &n, Prec prec) const;
    bool any(Op op) const;
    std::string render(int i) const;
};

constexpr long kMaxExprExponent = 4096;
// Largest exact power an expression may build (numerator plus denominator
// bits): nested powers like ((x^42)^42)^42 multiply exponents, and the exact
// result would otherwise grow without bound (found by fuzz_expr).
constexpr std::size_t kMaxExprPowerBits = std::size_t(1) << 20;
constexpr std::size_t kMaxExprChars = 10000;

} // namespace tempcert
