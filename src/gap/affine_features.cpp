// Features affine in j (affine_features.hpp). Each node of the parsed
// expression is reduced to a + b j from its operands (operands come first
// in the node list); any node outside the rules leaves the whole feature to
// per-position evaluation.
#include "affine_features.hpp"

namespace tempcert::detail {

namespace {

using Maybe = std::optional<AffineInJ>;

// q^k for a constant q, or nullopt where Expr's own evaluation could fail
// (zero to a negative power) or build a huge number.
Maybe constant_power(const Rational &q, long k) {
    if ((q == 0 && k <= 0) || k > 64 || k < -64) return std::nullopt;
    Rational acc(1);
    for (long e = 0; e < (k < 0 ? -k : k); ++e)
        acc *= q;
    return AffineInJ{k < 0 ? Rational(1 / acc) : acc, Rational(0)};
}

Maybe reduce(const Expr::Node &node, const Maybe &x, const Maybe &y, const Rational &n) {
    using Op = Expr::Op;
    switch (node.op) {
    case Op::Number:
        return AffineInJ{node.value, Rational(0)};
    case Op::J:
        return AffineInJ{Rational(0), Rational(1)};
    case Op::N:
        return AffineInJ{n, Rational(0)};
    default:
        break;
    }
    if (!x ||
        ((node.op == Op::Add || node.op == Op::Sub || node.op == Op::Mul || node.op == Op::Div) &&
         !y))
        return std::nullopt;
    switch (node.op) {
    case Op::Add:
        return AffineInJ{x->a + y->a, x->b + y->b};
    case Op::Sub:
        return AffineInJ{x->a - y->a, x->b - y->b};
    case Op::Neg:
        return AffineInJ{-x->a, -x->b};
    case Op::Mul:
        if (x->b == 0) return AffineInJ{x->a * y->a, x->a * y->b};
        if (y->b == 0) return AffineInJ{x->a * y->a, x->b * y->a};
        return std::nullopt;
    case Op::Div:
        if (y->b != 0 || y->a == 0) return std::nullopt;
        return AffineInJ{x->a / y->a, x->b / y->a};
    case Op::Pow:
        if (node.exponent == 1) return x;
        if (x->b != 0) return std::nullopt;
        return constant_power(x->a, node.exponent);
    case Op::Delta:
        if (x->b != 0) return std::nullopt;
        return AffineInJ{Rational(x->a == 0 ? 1 : 0), Rational(0)};
    default: // log, sqrt: irrational in general
        return std::nullopt;
    }
}

} // namespace

std::optional<AffineInJ> affine_in_j(const Expr &expr, const Rational &n) {
    const auto &nodes = expr.nodes();
    std::vector<Maybe> value(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const Expr::Node &node = nodes[i];
        auto operand = [&](int k) { return k < 0 ? Maybe() : value[static_cast<std::size_t>(k)]; };
        value[i] = reduce(node, operand(node.a), operand(node.b), n);
    }
    if (expr.root() < 0) return std::nullopt;
    return value[static_cast<std::size_t>(expr.root())];
}

std::optional<std::pair<Vector, Vector>> affine_positions(const Model &m, std::size_t n) {
    Vector x0(m.width, Rational(0)), dx(m.width, Rational(0));
    const Rational length(static_cast<long>(n));
    for (const auto &f : m.positions) {
        std::optional<AffineInJ> v = affine_in_j(f.expr, length);
        if (!v) return std::nullopt;
        x0[f.dim] += v->a;
        dx[f.dim] += v->b;
    }
    return std::make_pair(std::move(x0), std::move(dx));
}

} // namespace tempcert::detail
