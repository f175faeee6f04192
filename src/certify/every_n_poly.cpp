// Polynomials for the every-n analysis (every_n_poly.hpp).
#include "every_n_poly.hpp"

#include <algorithm>

namespace tempcert::every_n {

Poly::Poly(const Rational &constant) : c_{constant} {
    trim();
}

Poly Poly::x() {
    Poly p;
    p.c_ = {Rational(0), Rational(1)};
    return p;
}

void Poly::trim() {
    while (!c_.empty() && c_.back() == 0)
        c_.pop_back();
}

Rational Poly::at(const Rational &v) const {
    Rational r = 0;
    for (auto k = c_.rbegin(); k != c_.rend(); ++k)
        r = r * v + *k;
    return r;
}

Poly Poly::derivative() const {
    Poly d;
    for (std::size_t k = 1; k < c_.size(); ++k)
        d.c_.push_back(c_[k] * static_cast<long>(k));
    d.trim();
    return d;
}

Integer Poly::cauchy_bound() const {
    if (is_constant()) return 0;
    Rational m = 0;
    for (std::size_t k = 0; k + 1 < c_.size(); ++k)
        m = std::max(m, Rational(abs(c_[k] / c_.back())));
    Rational b = 1 + m;
    Integer q = numerator(b) / denominator(b);
    return q * denominator(b) == numerator(b) ? q : q + 1;
}

bool Poly::steps_in_multiples_of(const Rational &u) const {
    for (std::size_t k = 1; k < c_.size(); ++k)
        if (!is_integer(c_[k] / u)) return false;
    return true;
}

std::string Poly::text(const char *var) const {
    if (c_.empty()) return "0";
    std::string out;
    for (std::size_t k = c_.size(); k-- > 0;) {
        if (c_[k] == 0) continue;
        std::string term = to_string(c_[k]);
        if (k > 0) term += std::string(" ") + var + (k > 1 ? "^" + std::to_string(k) : "");
        out += (out.empty() ? "" : " + ") + term;
    }
    return out;
}

Poly operator+(const Poly &a, const Poly &b) {
    Poly r;
    r.c_.resize(std::max(a.c_.size(), b.c_.size()));
    for (std::size_t k = 0; k < r.c_.size(); ++k)
        r.c_[k] = a.coeff(k) + b.coeff(k);
    r.trim();
    return r;
}

Poly operator-(const Poly &a, const Poly &b) {
    return a + b * Rational(-1);
}

Poly operator*(const Poly &a, const Poly &b) {
    if (a.is_zero() || b.is_zero()) return Poly();
    Poly r;
    r.c_.assign(a.c_.size() + b.c_.size() - 1, Rational(0));
    for (std::size_t x = 0; x < a.c_.size(); ++x)
        for (std::size_t y = 0; y < b.c_.size(); ++y)
            r.c_[x + y] += a.c_[x] * b.c_[y];
    r.trim();
    return r;
}

Poly operator*(const Poly &a, const Rational &q) {
    Poly r = a;
    for (auto &c : r.c_)
        c *= q;
    r.trim();
    return r;
}

namespace {

std::optional<Poly> too_high(std::string &why) {
    why = "a feature of degree above " + std::to_string(kMaxDegree) + " in j";
    return std::nullopt;
}

std::optional<Poly> power(const Poly &base, long e, std::string &why) {
    if (e < 0) {
        if (!base.is_constant() || base.is_zero()) {
            why = "a negative power of a non-constant (not a polynomial in j)";
            return std::nullopt;
        }
        return power(Poly(1 / base.coeff(0)), -e, why);
    }
    if (base.degree() > 0 && e * base.degree() > kMaxDegree) return too_high(why);
    if (base.is_constant() && e > 64 && base.coeff(0) != 0 && abs(base.coeff(0)) != 1) {
        why = "a constant power above 64 in a feature";
        return std::nullopt;
    }
    Poly r(1);
    for (long k = 0; k < e; ++k)
        r = r * base;
    return r;
}

} // namespace

std::optional<Poly> poly_in_j(const Expr &e, std::string &why) {
    using Op = Expr::Op;
    const auto &nodes = e.nodes();
    std::vector<Poly> v(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const Expr::Node &nd = nodes[i];
        const Poly *a = nd.a >= 0 ? &v[static_cast<std::size_t>(nd.a)] : nullptr;
        const Poly *b = nd.b >= 0 ? &v[static_cast<std::size_t>(nd.b)] : nullptr;
        switch (nd.op) {
        case Op::Number:
            v[i] = Poly(nd.value);
            break;
        case Op::J:
            v[i] = Poly::x();
            break;
        case Op::N:
            why = "a feature reads n";
            return std::nullopt;
        case Op::Add:
            v[i] = *a + *b;
            break;
        case Op::Sub:
            v[i] = *a - *b;
            break;
        case Op::Neg:
            v[i] = *a * Rational(-1);
            break;
        case Op::Mul:
            if (a->degree() + b->degree() > kMaxDegree) return too_high(why);
            v[i] = *a * *b;
            break;
        case Op::Div:
            if (!b->is_constant() || b->is_zero()) {
                why = "a feature divides by a non-constant (not a polynomial in j)";
                return std::nullopt;
            }
            v[i] = *a * (1 / b->coeff(0));
            break;
        case Op::Pow: {
            std::optional<Poly> p = power(*a, nd.exponent, why);
            if (!p) return std::nullopt;
            v[i] = *p;
            break;
        }
        case Op::Log:
        case Op::Sqrt:
        case Op::Delta:
            why = "a feature uses log, sqrt or delta (not a polynomial in j)";
            return std::nullopt;
        }
    }
    return v.at(static_cast<std::size_t>(e.root()));
}

std::optional<std::vector<Poly>> position_polys(const Model &m, std::string &why,
                                                std::size_t &dim) {
    std::vector<Poly> p(m.width);
    for (const auto &f : m.positions) {
        std::optional<Poly> q = poly_in_j(f.expr, why);
        if (!q) {
            dim = f.dim;
            return std::nullopt;
        }
        p[f.dim] = p[f.dim] + *q;
    }
    return p;
}

Poly row_times(const Vector &row, const std::vector<Poly> &x) {
    Poly r;
    for (std::size_t d = 0; d < row.size(); ++d)
        if (row[d] != 0) r = r + x[d] * row[d];
    return r;
}

} // namespace tempcert::every_n
