// Exact numbers and expressions; see numbers.hpp.
#include "numbers.hpp"

#include <cctype>

namespace minicheck {
namespace {
bool digits(const std::string &s) {
    if (s.empty() || s.size() > 100000) return false; // certificates write 3,000-digit bounds
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

Q ten_to(unsigned long k) {
    mpz_class p;
    mpz_ui_pow_ui(p.get_mpz_t(), 10, k);
    return Q(p);
}

// sign? (p/q | whole.frac | whole), without an exponent
std::optional<Q> parse_plain(std::string s) {
    bool negative = !s.empty() && s[0] == '-';
    if (negative) s.erase(0, 1);
    Q v;
    if (auto slash = s.find('/'); slash != std::string::npos) {
        std::string p = s.substr(0, slash), q = s.substr(slash + 1);
        if (!digits(p) || !digits(q)) return std::nullopt;
        mpz_class den(q, 10);
        if (den == 0) return std::nullopt;
        v = Q(mpz_class(p, 10), den);
    } else if (auto dot = s.find('.'); dot != std::string::npos) {
        std::string w = s.substr(0, dot), f = s.substr(dot + 1);
        if (!digits(w) || !digits(f)) return std::nullopt;
        v = Q(mpz_class(w + f, 10)) / ten_to(f.size());
    } else {
        if (!digits(s)) return std::nullopt;
        v = Q(mpz_class(s, 10));
    }
    v.canonicalize();
    return negative ? Q(-v) : v;
}
} // namespace

std::optional<Q> parse_number(const std::string &text, bool exponent) {
    auto e = text.find_first_of("eE");
    if (e == std::string::npos || !exponent) return parse_plain(text);
    std::string mantissa = text.substr(0, e), ex = text.substr(e + 1);
    bool negative = !ex.empty() && ex[0] == '-';
    if (!ex.empty() && (ex[0] == '-' || ex[0] == '+')) ex.erase(0, 1);
    if (!digits(ex) || ex.size() > 4 || mantissa.find('/') != std::string::npos)
        return std::nullopt;
    auto m = parse_plain(mantissa);
    if (!m) return std::nullopt;
    Q scale = ten_to(std::stoul(ex));
    return negative ? Q(*m / scale) : Q(*m * scale);
}

Q number_at(const Json &v, const std::string &path) {
    if (v.is_number_unsigned()) return Q(mpz_class(std::to_string(v.get<std::uint64_t>()), 10));
    if (v.is_number_integer()) return Q(mpz_class(std::to_string(v.get<std::int64_t>()), 10));
    if (v.is_string()) {
        if (auto q = parse_number(v.get<std::string>())) return *q;
        malformed(path, "expected an exact number (\"-3\", \"3/4\", \"0.125\", \"1e-3\")");
    }
    malformed(path, "expected a number");
}

std::string to_text(const Q &q) {
    return q.get_str(10);
}

// ---- parsing: the grammar of docs/model-format.md, "Expressions" -----------

namespace {
class Parser {
  public:
    Parser(const std::string &s, const std::string &path) : s_(s), path_(path) {}

    Expr run() {
        if (s_.size() > 100000) unsupported(path_, "expression longer than 100000 characters");
        Expr e = sum();
        skip();
        if (i_ != s_.size()) fail("expected an operator or the end");
        return e;
    }

  private:
    const std::string &s_;
    const std::string &path_;
    std::size_t i_ = 0;
    int depth_ = 0;

    [[noreturn]] void fail(const std::string &what) const {
        malformed(path_, "column " + std::to_string(i_ + 1) + ": " + what);
    }
    void skip() {
        while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_])))
            ++i_;
    }
    bool eat(char c) {
        skip();
        if (i_ < s_.size() && s_[i_] == c) return ++i_, true;
        return false;
    }
    static Expr node(Expr::Op op, Expr a, std::optional<Expr> b = std::nullopt) {
        Expr e;
        e.op = op;
        e.a = std::make_unique<Expr>(std::move(a));
        if (b) e.b = std::make_unique<Expr>(std::move(*b));
        return e;
    }
    void deeper() {
        if (++depth_ > 200) fail("nested more than 200 deep");
    }
    Expr sum() {
        deeper();
        Expr left = product();
        for (;;) {
            if (eat('+'))
                left = node(Expr::Op::Add, std::move(left), product());
            else if (eat('-'))
                left = node(Expr::Op::Sub, std::move(left), product());
            else
                break;
        }
        --depth_;
        return left;
    }
    Expr product() {
        Expr left = unary();
        for (;;) {
            if (eat('*'))
                left = node(Expr::Op::Mul, std::move(left), unary());
            else if (eat('/'))
                left = node(Expr::Op::Div, std::move(left), unary());
            else
                break;
        }
        return left;
    }
    Expr unary() {
        if (!eat('-')) return power();
        deeper();
        Expr e = node(Expr::Op::Neg, unary());
        --depth_;
        return e;
    }
    Expr power() {
        Expr base = atom();
        if (!eat('^')) return base;
        bool negative = eat('-');
        skip();
        std::size_t start = i_;
        while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_])))
            ++i_;
        if (start == i_) fail("expected an integer exponent");
        if (i_ - start > 6) unsupported(path_, "an exponent of more than 6 digits");
        Expr e = node(Expr::Op::Pow, std::move(base));
        e.exponent = std::stol(s_.substr(start, i_ - start)) * (negative ? -1 : 1);
        return e;
    }
    Expr atom() {
        skip();
        if (i_ == s_.size()) fail("expected a number, j, n or '('");
        char c = s_[i_];
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
        if (std::isalpha(static_cast<unsigned char>(c))) return name();
        if (eat('(')) {
            Expr e = sum();
            if (!eat(')')) fail("expected ')'");
            return e;
        }
        fail("expected a number, j, n or '('");
    }
    Expr number() {
        std::size_t start = i_;
        while (i_ < s_.size() &&
               (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.'))
            ++i_;
        if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
            ++i_;
            if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
            while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_])))
                ++i_;
        }
        auto q = parse_number(s_.substr(start, i_ - start));
        if (!q)
            fail("not an exact number: " + s_.substr(start, std::min<std::size_t>(i_ - start, 40)));
        Expr e;
        e.value = *q;
        return e;
    }
    Expr name() {
        std::size_t start = i_;
        while (i_ < s_.size() && std::isalnum(static_cast<unsigned char>(s_[i_])))
            ++i_;
        std::string w = s_.substr(start, i_ - start);
        Expr e;
        if (w == "j" || w == "n") {
            e.op = w == "j" ? Expr::Op::J : Expr::Op::N;
            return e;
        }
        if (w != "log" && w != "sqrt" && w != "delta")
            fail("unknown name '" + w.substr(0, 40) + "'");
        if (!eat('(')) fail("expected '(' after " + w);
        Expr arg = sum();
        if (!eat(')')) fail("expected ')' to close " + w + "(");
        Expr::Op op = w == "log" ? Expr::Op::Log : w == "sqrt" ? Expr::Op::Sqrt : Expr::Op::Delta;
        return node(op, std::move(arg));
    }
};
} // namespace

Expr Expr::parse(const std::string &text, const std::string &path) {
    return Parser(text, path).run();
}

bool Expr::uses(Op o) const {
    return op == o || (a && a->uses(o)) || (b && b->uses(o));
}

std::string Expr::render() const {
    auto two = [&](const char *sign) { return "(" + a->render() + sign + b->render() + ")"; };
    switch (op) {
    case Op::Number:
        return value.get_den() == 1 ? to_text(value) : "(" + to_text(value) + ")";
    case Op::J:
        return "j";
    case Op::N:
        return "n";
    case Op::Add:
        return two("+");
    case Op::Sub:
        return two("-");
    case Op::Mul:
        return two("*");
    case Op::Div:
        return two("/");
    case Op::Neg:
        return "(-" + a->render() + ")";
    case Op::Pow:
        return "(" + a->render() + "^" + std::to_string(exponent) + ")";
    case Op::Log:
        return "log(" + a->render() + ")";
    case Op::Sqrt:
        return "sqrt(" + a->render() + ")";
    case Op::Delta:
        return "delta(" + a->render() + ")";
    }
    return "?";
}

// ---- evaluation --------------------------------------------------------------

namespace {
Q exact_power(const Q &base, long k, const std::string &path) {
    unsigned long m = static_cast<unsigned long>(k < 0 ? -k : k);
    if (base == 0 && k < 0) malformed(path, "zero raised to a negative power");
    std::size_t bits =
        mpz_sizeinbase(base.get_num_mpz_t(), 2) + mpz_sizeinbase(base.get_den_mpz_t(), 2);
    if (abs(base) != 1 && base != 0 && static_cast<double>(bits) * static_cast<double>(m) > 1e6)
        unsupported(path, "a power with more than 10^6 bits");
    mpz_class num, den;
    mpz_pow_ui(num.get_mpz_t(), base.get_num_mpz_t(), m);
    mpz_pow_ui(den.get_mpz_t(), base.get_den_mpz_t(), m);
    Q r = k < 0 ? Q(den, num) : Q(num, den);
    r.canonicalize();
    return r;
}
} // namespace

Q Expr::exact(const Q &j, const Q &n, const std::string &path) const {
    SqrtSum v = exact_sum(j, n, path);
    if (!v.rational())
        unsupported(path, "sqrt: of such models this checker verifies exhaustive certificates");
    return v.rational_part();
}

SqrtSum Expr::exact_sum(const Q &j, const Q &n, const std::string &path) const {
    switch (op) {
    case Op::Number:
        return value;
    case Op::J:
        return j;
    case Op::N:
        return n;
    case Op::Add:
        return a->exact_sum(j, n, path) + b->exact_sum(j, n, path);
    case Op::Sub:
        return a->exact_sum(j, n, path) - b->exact_sum(j, n, path);
    case Op::Mul:
        return a->exact_sum(j, n, path) * b->exact_sum(j, n, path);
    case Op::Div: {
        SqrtSum d = b->exact_sum(j, n, path);
        if (d == 0)
            malformed(path, "division by zero at j = " + to_text(j) + ", n = " + to_text(n));
        return a->exact_sum(j, n, path) * d.inverse(path);
    }
    case Op::Neg:
        return -a->exact_sum(j, n, path);
    case Op::Pow: {
        SqrtSum x = a->exact_sum(j, n, path);
        if (!x.rational()) unsupported(path, "a power of an irrational value");
        return exact_power(x.rational_part(), exponent, path);
    }
    case Op::Delta:
        return a->exact_sum(j, n, path) == 0 ? 1 : 0;
    case Op::Sqrt: {
        SqrtSum x = a->exact_sum(j, n, path);
        if (!x.rational()) unsupported(path, "sqrt of an irrational value");
        if (x.rational_part() < 0)
            malformed(path,
                      "sqrt of a negative value at j = " + to_text(j) + ", n = " + to_text(n));
        return SqrtSum::sqrt_of(x.rational_part());
    }
    case Op::Log:
        break;
    }
    unsupported(path,
                "log makes values irrational; this checker verifies rational and sqrt models");
}

Iv Expr::enclose(const Q &n, long prec, const std::string &path) const {
    if (rational()) return Iv(exact(0, n, path), prec);
    switch (op) {
    case Op::Add:
        return a->enclose(n, prec, path) + b->enclose(n, prec, path);
    case Op::Sub:
        return a->enclose(n, prec, path) - b->enclose(n, prec, path);
    case Op::Mul:
        return a->enclose(n, prec, path) * b->enclose(n, prec, path);
    case Op::Neg:
        return Iv(0, prec) - a->enclose(n, prec, path);
    case Op::Div:
    case Op::Log:
    case Op::Sqrt: {
        Iv x = (op == Op::Div ? b : a)->enclose(n, prec, path);
        if (!x.above(0)) // log, sqrt and 1/x are taken of positive values only here
            unsupported(path, "cannot show an argument of log, sqrt or a divisor is positive");
        return op == Op::Div ? a->enclose(n, prec, path) / x : op == Op::Log ? log(x) : sqrt(x);
    }
    case Op::Pow: {
        if (exponent > 1000 || exponent < -1000)
            unsupported(path, "a power above 1000 of an irrational value");
        Iv x = a->enclose(n, prec, path), r(1, prec);
        for (long e = 0; e < (exponent < 0 ? -exponent : exponent); ++e)
            r = r * x;
        if (exponent >= 0) return r;
        if (!r.above(0)) unsupported(path, "cannot show the base of a negative power is positive");
        return Iv(1, prec) / r;
    }
    default:
        unsupported(path, "delta of an irrational value");
    }
}
} // namespace minicheck
