// Parser and evaluator of position and temperature expressions (docs/model-format.md).
//
// Grammar (precedence climbing; ^ binds tightest, unary minus next):
//   expr  := term (('+' | '-') term)*
//   term  := unary (('*' | '/') unary)*
//   unary := '-' unary | power
//   power := atom ('^' '-'? digits)?
//   atom  := number | 'j' | 'n' | '(' expr ')' | ('log' | 'sqrt' | 'delta') '(' expr ')'
// delta(x) is 1 when x = 0 and 0 otherwise (Kronecker's delta): with it a
// table of positional embeddings, one value per position p, is the sum of
// value_p * delta(j - p), exactly (tempcert import tracr writes these).
// Numbers are decimal literals, parsed exactly ("0.1" is 1/10).
#include "tempcert/expr.hpp"
#include "tempcert/error.hpp"

#include <cctype>
#include <cmath>

namespace tempcert {

class ExprParser {
  public:
    explicit ExprParser(const std::string &text) : s_(text) {}

    Expr run() {
        if (s_.size() > kMaxExprChars)
            throw ExprError(1, "expression longer than " + std::to_string(kMaxExprChars) +
                                   " characters");
        Expr e;
        e.text_ = s_;
        e_ = &e;
        skip();
        if (pos_ == s_.size()) throw ExprError(1, "empty expression: expected a number, j or n");
        e.root_ = expr();
        skip();
        if (pos_ != s_.size())
            throw ExprError(col(), std::string("unexpected '") + s_[pos_] +
                                       "': expected an operator (+ - * / ^) or the end");
        return e;
    }

  private:
    const std::string &s_;
    std::size_t pos_ = 0;
    Expr *e_ = nullptr;
    int depth_ = 0;

    std::size_t col() const { return pos_ + 1; }
    void skip() {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_])))
            ++pos_;
    }
    bool eat(char c) {
        skip();
        if (pos_ < s_.size() && s_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    int add(Expr::Node n) {
        e_->nodes_.push_back(std::move(n));
        return static_cast<int>(e_->nodes_.size()) - 1;
    }
    int binary(Expr::Op op, int a, int b, std::size_t column) {
        Expr::Node n{op, Rational(0), 0, a, b, column};
        return add(std::move(n));
    }

    int expr() {
        if (++depth_ > 200) throw ExprError(col(), "expression nested more than 200 deep");
        int left = term();
        for (;;) {
            skip();
            std::size_t c = col();
            if (eat('+'))
                left = binary(Expr::Op::Add, left, term(), c);
            else if (eat('-'))
                left = binary(Expr::Op::Sub, left, term(), c);
            else
                break;
        }
        --depth_;
        return left;
    }
    int term() {
        int left = unary();
        for (;;) {
            skip();
            std::size_t c = col();
            if (eat('*'))
                left = binary(Expr::Op::Mul, left, unary(), c);
            else if (eat('/'))
                left = binary(Expr::Op::Div, left, unary(), c);
            else
                break;
        }
        return left;
    }
    int unary() {
        skip();
        std::size_t c = col();
        if (eat('-')) {
            if (++depth_ > 200) throw ExprError(c, "expression nested more than 200 deep");
            int a = unary();
            --depth_;
            return binary(Expr::Op::Neg, a, -1, c);
        }
        return power();
    }
    int power() {
        int base = atom();
        skip();
        std::size_t c = col();
        if (!eat('^')) return base;
        skip();
        bool negative = eat('-');
        skip();
        std::size_t start = pos_;
        while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_])))
            ++pos_;
        if (start == pos_) throw ExprError(col(), "expected an integer exponent after '^'");
        if (pos_ - start > 6)
            throw ExprError(start + 1, "exponent too large (at most " +
                                           std::to_string(kMaxExprExponent) + ")");
        long k = std::stol(s_.substr(start, pos_ - start));
        if (k > kMaxExprExponent)
            throw ExprError(start + 1, "exponent too large (at most " +
                                           std::to_string(kMaxExprExponent) + ")");
        Expr::Node n{Expr::Op::Pow, Rational(0), negative ? -k : k, base, -1, c};
        return add(std::move(n));
    }
    int atom() {
        skip();
        std::size_t c = col();
        if (pos_ == s_.size()) throw ExprError(c, "unexpected end: expected a number, j, n or '('");
        char ch = s_[pos_];
        if (std::isdigit(static_cast<unsigned char>(ch)) || ch == '.') {
            std::size_t start = pos_;
            while (pos_ < s_.size() &&
                   (std::isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.'))
                ++pos_;
            // exact scientific notation, as on the command line: 1e18 and
            // 2.5e-3 are the rationals they denote (docs/reliability.md, Numbers)
            if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
                ++pos_;
                if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
                while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_])))
                    ++pos_;
            }
            std::string why;
            // bounded by the expression's own length (kMaxExprChars)
            auto q = parse_rational_scientific(s_.substr(start, pos_ - start), why, kMaxExprChars);
            if (!q) throw ExprError(c, why);
            return add(Expr::Node{Expr::Op::Number, *q, 0, -1, -1, c});
        }
        if (std::isalpha(static_cast<unsigned char>(ch))) {
            std::size_t start = pos_;
            while (pos_ < s_.size() && std::isalnum(static_cast<unsigned char>(s_[pos_])))
                ++pos_;
            std::string word = s_.substr(start, pos_ - start);
            if (word == "j") return add(Expr::Node{Expr::Op::J, Rational(0), 0, -1, -1, c});
            if (word == "n") return add(Expr::Node{Expr::Op::N, Rational(0), 0, -1, -1, c});
            if (word == "log" || word == "sqrt" || word == "delta") {
                if (!eat('(')) throw ExprError(col(), "expected '(' after " + word);
                int a = expr();
                if (!eat(')')) throw ExprError(col(), "expected ')' to close " + word + "(");
                Expr::Op op = word == "log"    ? Expr::Op::Log
                              : word == "sqrt" ? Expr::Op::Sqrt
                                               : Expr::Op::Delta;
                return add(Expr::Node{op, Rational(0), 0, a, -1, c});
            }
            throw ExprError(c, "unknown name '" + word + "': expected j, n, log, sqrt or delta");
        }
        if (eat('(')) {
            int a = expr();
            if (!eat(')')) throw ExprError(col(), "expected ')'");
            return a;
        }
        throw ExprError(c, std::string("unexpected '") + ch + "': expected a number, j, n or '('");
    }
};

Expr Expr::parse(const std::string &text) {
    return ExprParser(text).run();
}

bool Expr::any(Op op) const {
    for (const auto &n : nodes_)
        if (n.op == op) return true;
    return false;
}
bool Expr::uses_j() const {
    return any(Op::J);
}
bool Expr::uses_n() const {
    return any(Op::N);
}
bool Expr::is_rational_form() const {
    return !any(Op::Log) && !any(Op::Sqrt);
}

std::string Expr::canonical() const {
    return render(root_);
}

std::string Expr::render(int i) const {
    const Node &node = nodes_[static_cast<std::size_t>(i)];
    switch (node.op) {
    case Op::Number:
        return is_integer(node.value) ? to_string(node.value) : "(" + to_string(node.value) + ")";
    case Op::J:
        return "j";
    case Op::N:
        return "n";
    case Op::Add:
        return "(" + render(node.a) + "+" + render(node.b) + ")";
    case Op::Sub:
        return "(" + render(node.a) + "-" + render(node.b) + ")";
    case Op::Mul:
        return "(" + render(node.a) + "*" + render(node.b) + ")";
    case Op::Div:
        return "(" + render(node.a) + "/" + render(node.b) + ")";
    case Op::Neg:
        return "(-" + render(node.a) + ")";
    case Op::Pow:
        return "(" + render(node.a) + "^" + std::to_string(node.exponent) + ")";
    case Op::Log:
        return "log(" + render(node.a) + ")";
    case Op::Sqrt:
        return "sqrt(" + render(node.a) + ")";
    case Op::Delta:
        return "delta(" + render(node.a) + ")";
    }
    return "?";
}

Real Expr::eval(const Rational &j, const Rational &n, Prec prec) const {
    return eval_node(root_, j, n, prec);
}

namespace {

// Exact square root of a non-negative rational when it is one.
std::optional<Rational> exact_sqrt(const Rational &q) {
    Integer p = numerator(q), d = denominator(q);
    Integer rp = boost::multiprecision::sqrt(p), rd = boost::multiprecision::sqrt(d);
    if (rp * rp == p && rd * rd == d) return Rational(rp, rd);
    return std::nullopt;
}

// `x`, enclosing the atom `kind` of `arg`'s value, with that atom as its
// exact form when arg's form is known (form.hpp), so that two positions
// computing the same irrational expression are seen to tie.
Real with_atom(Interval x, AtomKind kind, const Real &arg) {
    std::optional<Form> f = arg.form();
    if (f && kind == AtomKind::Inverse) // 1/(c sqrt(r)) = sqrt(r)/(c r): no new atom
        if (auto r = reciprocal(*f)) return Real(std::move(x), std::move(r));
    if (f) f = atom_of(kind, *f);
    return Real(std::move(x), std::move(f));
}

Real power(const Real &base, long k, Prec prec, std::size_t column) {
    long m = k < 0 ? -k : k;
    if (base.is_exact()) {
        if (base.exact() == 0 && k < 0) throw ExprError(column, "zero raised to a negative power");
        Rational b = base.exact();
        std::size_t bits = bit_size(b);
        if (b != 0 && b != 1 && b != -1 &&
            static_cast<double>(bits) * static_cast<double>(m) > double(kMaxExprPowerBits))
            throw ExprError(column, "the power's exact value would have more than " +
                                        std::to_string(kMaxExprPowerBits) + " bits");
        Integer num = boost::multiprecision::pow(numerator(base.exact()), static_cast<unsigned>(m));
        Integer den =
            boost::multiprecision::pow(denominator(base.exact()), static_cast<unsigned>(m));
        return k < 0 ? Rational(den, num) : Rational(num, den);
    }
    // by squaring, in Real so that the base's exact form is carried along
    Real acc(1L), b = base;
    for (long e = m; e > 0; e >>= 1) {
        if (e & 1) acc = mul(acc, b, prec);
        if (e > 1) b = mul(b, b, prec);
    }
    if (k < 0) {
        if (acc.is_exact()) {
            if (acc.exact() == 0) throw ExprError(column, "zero raised to a negative power");
            return Rational(1 / acc.exact());
        }
        if (is_positive(abs(*acc.interval())) != Tri::True)
            throw Undecided("cannot show the base of '^' is nonzero at " + std::to_string(prec) +
                            " bits");
        return with_atom(div(Interval(1L, prec), *acc.interval(), prec), AtomKind::Inverse, acc);
    }
    return acc;
}

} // namespace

Real Expr::eval_node(int i, const Rational &j, const Rational &n, Prec prec) const {
    const Node &node = nodes_[static_cast<std::size_t>(i)];
    switch (node.op) {
    case Op::Number:
        return node.value;
    case Op::J:
        return j;
    case Op::N:
        return n;
    case Op::Add:
        return add(eval_node(node.a, j, n, prec), eval_node(node.b, j, n, prec), prec);
    case Op::Sub:
        return sub(eval_node(node.a, j, n, prec), eval_node(node.b, j, n, prec), prec);
    case Op::Mul:
        return mul(eval_node(node.a, j, n, prec), eval_node(node.b, j, n, prec), prec);
    case Op::Neg:
        return sub(Real(0L), eval_node(node.a, j, n, prec), prec);
    case Op::Div: {
        Real a = eval_node(node.a, j, n, prec), b = eval_node(node.b, j, n, prec);
        if (b.is_exact()) {
            if (b.exact() == 0)
                throw ExprError(node.column, "division by zero at j = " + to_string(j) +
                                                 ", n = " + to_string(n));
            return mul(a, Rational(1 / b.exact()), prec);
        }
        if (is_positive(abs(*b.interval())) != Tri::True)
            throw Undecided("cannot show a divisor is nonzero at j = " + to_string(j) +
                            ", n = " + to_string(n));
        Interval inverse = div(Interval(1L, prec), *b.interval(), prec);
        return mul(a, with_atom(std::move(inverse), AtomKind::Inverse, b), prec);
    }
    case Op::Pow:
        return power(eval_node(node.a, j, n, prec), node.exponent, prec, node.column);
    case Op::Log: {
        Real a = eval_node(node.a, j, n, prec);
        Tri pos = is_positive(a, prec);
        if (pos == Tri::False)
            throw ExprError(node.column,
                            "log of a value <= 0 at j = " + to_string(j) + ", n = " + to_string(n));
        if (pos == Tri::Unknown)
            throw Undecided("cannot show the argument of log is positive at j = " + to_string(j) +
                            ", n = " + to_string(n));
        if (a.is_exact() && a.exact() == 1) return Rational(0);
        return with_atom(log(a.enclose(prec), prec), AtomKind::Log, a);
    }
    case Op::Sqrt: {
        Real a = eval_node(node.a, j, n, prec);
        if (less(a, Real(0L), prec) == Tri::True)
            throw ExprError(node.column, "sqrt of a negative value at j = " + to_string(j) +
                                             ", n = " + to_string(n));
        if (a.is_exact()) {
            if (auto r = exact_sqrt(a.exact())) return *r;
            return with_atom(sqrt(a.enclose(prec), prec), AtomKind::Sqrt, a);
        }
        if (less(a, Real(0L), prec) != Tri::False)
            throw Undecided("cannot show the argument of sqrt is >= 0 at j = " + to_string(j) +
                            ", n = " + to_string(n));
        return with_atom(sqrt(*a.interval(), prec), AtomKind::Sqrt, a);
    }
    case Op::Delta: {
        Real a = eval_node(node.a, j, n, prec);
        if (a.is_exact()) return Rational(a.exact() == 0 ? 1 : 0);
        if (is_positive(abs(*a.interval())) == Tri::True) return Rational(0);
        throw Undecided("cannot decide whether the argument of delta is 0 at j = " + to_string(j) +
                        ", n = " + to_string(n));
    }
    }
    return Rational(0);
}

std::string message_without_j(const ExprError &err) {
    std::string what = err.what();
    if (auto at = what.find("at j = 0, n = "); at != std::string::npos)
        what.replace(at, 14, "at n = ");
    return what;
}

} // namespace tempcert
