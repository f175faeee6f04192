// The small checker's own derivation of the every-n tail bound
// (proofs/every-n.md, Lemmas E1 and E2), and the check of the finite
// certificate it rests on.
#include "claim_checks.hpp"
#include "claims.hpp"
#include "value_gap.hpp"

#include <algorithm>
#include <set>

namespace minicheck {
namespace {
// Polynomials in one variable, coefficients from the constant up, no
// trailing zeros.
struct Poly {
    std::vector<Q> c;
    Poly() = default;
    explicit Poly(const Q &k) {
        if (k != 0) c.push_back(k);
    }
    int degree() const { return static_cast<int>(c.size()) - 1; }
    Q coeff(std::size_t k) const { return k < c.size() ? c[k] : Q(0); }
    Q lead() const { return c.empty() ? Q(0) : c.back(); }
    bool constant() const { return c.size() <= 1; }
    void trim() {
        while (!c.empty() && c.back() == 0)
            c.pop_back();
    }
    Q at(const Q &x) const {
        Q r = 0;
        for (auto k = c.rbegin(); k != c.rend(); ++k)
            r = r * x + *k;
        return r;
    }
    Poly derivative() const {
        Poly d;
        for (std::size_t k = 1; k < c.size(); ++k)
            d.c.push_back(c[k] * Q(static_cast<long>(k)));
        d.trim();
        return d;
    }
    // Every real root r has |r| < 1 + max |a_k / a_d| (Cauchy).
    Q root_bound() const {
        Q m = 0;
        for (std::size_t k = 0; k + 1 < c.size(); ++k)
            m = std::max(m, Q(abs(c[k] / c.back())));
        return constant() ? Q(0) : 1 + m;
    }
};

Poly add(const Poly &a, const Poly &b, const Q &s = 1) { // a + s b
    Poly r;
    r.c.resize(std::max(a.c.size(), b.c.size()));
    for (std::size_t k = 0; k < r.c.size(); ++k)
        r.c[k] = a.coeff(k) + s * b.coeff(k);
    r.trim();
    return r;
}

Poly mul(const Poly &a, const Poly &b) {
    if (a.c.empty() || b.c.empty()) return Poly();
    Poly r;
    r.c.assign(a.c.size() + b.c.size() - 1, Q(0));
    for (std::size_t x = 0; x < a.c.size(); ++x)
        for (std::size_t y = 0; y < b.c.size(); ++y)
            r.c[x + y] += a.c[x] * b.c[y];
    return r;
}

Poly variable() {
    Poly x;
    x.c = {Q(0), Q(1)};
    return x;
}

const int kMaxDegree = 64;

// A positional feature as a polynomial in j; rejects anything else.
Poly poly_of(const Expr &e, const std::string &path) {
    using Op = Expr::Op;
    auto bad = [&](const std::string &why) -> Poly {
        rejected(path, "not a polynomial in j (" + why + "): outside every-n's scope");
    };
    switch (e.op) {
    case Op::Number:
        return Poly(e.value);
    case Op::J:
        return variable();
    case Op::N:
        return bad("reads n");
    case Op::Add:
        return add(poly_of(*e.a, path), poly_of(*e.b, path));
    case Op::Sub:
        return add(poly_of(*e.a, path), poly_of(*e.b, path), -1);
    case Op::Neg:
        return add(Poly(), poly_of(*e.a, path), -1);
    case Op::Mul: {
        Poly a = poly_of(*e.a, path), b = poly_of(*e.b, path);
        if (a.degree() + b.degree() > kMaxDegree) return bad("degree above 64");
        return mul(a, b);
    }
    case Op::Div: {
        Poly b = poly_of(*e.b, path);
        if (!b.constant() || b.c.empty()) return bad("a division by a non-constant");
        return mul(poly_of(*e.a, path), Poly(1 / b.c[0]));
    }
    case Op::Pow: {
        Poly a = poly_of(*e.a, path);
        long k = e.exponent;
        if (k < 0 && (!a.constant() || a.c.empty())) return bad("a negative power");
        if (k < 0) a = Poly(1 / a.c[0]), k = -k;
        if (a.degree() > 0 && k * a.degree() > kMaxDegree) return bad("degree above 64");
        if (a.constant() && k > 64) return bad("a constant power above 64");
        Poly r(1);
        for (long t = 0; t < k; ++t)
            r = mul(r, a);
        return r;
    }
    default:
        return bad("log, sqrt or delta");
    }
}

Poly row_poly(const Vec &row, const std::vector<Poly> &x) {
    Poly r;
    for (std::size_t d = 0; d < row.size(); ++d)
        if (row[d] != 0) r = add(r, x[d], row[d]);
    return r;
}

// One line of offers (proofs/every-n.md): alpha(i) + c j over the free
// positions, or BOS at 0; symbols with equal alpha share one line.
struct Line {
    Poly alpha;
    bool bos = false;
    std::vector<std::size_t> symbols; // alphabet indices, BOS as alphabet.size()
};

// One term of Lemma E2 at n0; `ok` false when no case bounds the pair.
struct Term {
    bool ok = false, unbounded = false, zero = false, vanishing = false;
    enum { Progression, Geometric, Single, Count } kind = Single;
    Q g, u, s, n0;
};

// Lemma E2's cases for the gap delta(i) + c k, |k| <= i, every i >= n0.
Term classify(const Poly &delta, const Q &c, bool rival_bos, const Q &n0) {
    Term t;
    t.u = abs(c);
    t.n0 = n0;
    auto settled = [&](const Poly &p) { return n0 > p.root_bound(); };
    const Poly h = add(delta, variable(), t.u), g = add(delta, variable(), -t.u);
    if (h.constant() ? h.coeff(0) <= 0 : (h.lead() < 0 && settled(h))) {
        t.ok = t.zero = true;
    } else if (delta.constant()) {
        const Q d = delta.coeff(0);
        t.ok = true;
        if (c == 0) { // d > 0 here
            t.unbounded = !rival_bos;
            t.kind = Term::Single;
            t.g = d;
        } else {
            const mpz_class m0 = floor_of(-d / t.u) + 1;
            t.kind = rival_bos ? Term::Single : Term::Progression;
            t.g = rival_bos ? Q(m0 == 0 ? Q(d + t.u) : Q(d + t.u * Q(m0))) : d;
        }
    } else if (g.degree() >= 1 && g.lead() > 0 && settled(g) && settled(g.derivative())) {
        t.g = g.at(n0);
        t.vanishing = true; // every gap >= g(n0) > 0
        if (rival_bos) {
            t.ok = true;
            t.kind = Term::Single;
        } else if (c != 0) {
            t.ok = true;
            t.kind = Term::Geometric;
        } else {
            const Poly d1 = delta.derivative(), d2 = d1.derivative();
            t.ok = settled(d1) && (delta.degree() < 3 || settled(d2));
            t.kind = Term::Count;
            t.s = d1.at(n0);
        }
    } else if (c != 0) {
        bool steps = true;
        for (std::size_t k = 1; k < delta.c.size(); ++k) {
            Q r = delta.c[k] / t.u;
            steps = steps && r.get_den() == 1;
        }
        if (steps) {
            const Q d0 = delta.coeff(0);
            const Q r = d0 - t.u * Q(floor_of(d0 / t.u));
            t.ok = true;
            t.kind = rival_bos ? Term::Single : Term::Geometric;
            t.g = r == 0 ? t.u : r;
        }
    }
    return t;
}

// The term at beta, or an empty optional when its bound does not hold there.
std::optional<Iv> term_value(const Term &t, const Q &beta, long prec) {
    if (t.zero) return Iv(Q(0), prec);
    auto decay = [&](const Q &x) { return exp(Iv(-beta * x, prec)); };
    auto one_minus = [&](const Q &u) { return Iv(Q(0), prec) - expm1(Iv(-beta * u, prec)); };
    switch (t.kind) {
    case Term::Single:
        return decay(t.g);
    case Term::Geometric:
        return decay(t.g) / one_minus(t.u);
    case Term::Progression: {
        const mpz_class m0 = floor_of(-t.g / t.u) + 1;
        Iv sum = decay(t.g + t.u * Q(m0)) / one_minus(t.u);
        return m0 <= 0 ? sum - decay(t.g) : sum;
    }
    case Term::Count:
        if (beta * t.s * t.n0 < 1) return std::nullopt;
        return t.n0 * decay(t.g);
    }
    return std::nullopt;
}

struct HeadAlgebra {
    std::vector<Poly> k0d; // per key row: K0 + j D as a polynomial of degree <= 1
    bool values_move = false;
    std::vector<Vec> values; // W_V E(sigma) per symbol, BOS last
};

struct TailCheck {
    const Model *m;
    Q n0, beta, cap;
    long prec_cap;
    std::size_t terms = 0;
};

// The lines of head h at a query of symbol a; the slope through `c`.
std::vector<Line> lines_at(const TailCheck &t, const Head &head, const HeadAlgebra &alg,
                           const std::vector<Poly> &pos, std::size_t a, Q &c,
                           const std::string &p) {
    const Model &m = *t.m;
    std::vector<Poly> x = pos;
    for (std::size_t d = 0; d < x.size(); ++d)
        x[d] = add(x[d], Poly(m.embedding[a][d]));
    std::vector<Poly> q;
    for (const auto &row : head.query)
        q.push_back(row_poly(row, x));
    Poly slope;
    for (std::size_t r = 0; r < q.size(); ++r)
        slope = add(slope, q[r], alg.k0d[r].coeff(1));
    if (!slope.constant()) rejected(p, "the key slope depends on the query position");
    c = slope.coeff(0);
    std::vector<Line> lines;
    const std::size_t symbols = m.alphabet.size() + (m.bos ? 1 : 0);
    for (std::size_t s = 0; s < symbols; ++s) {
        Vec ke = mat_times(head.key, m.embedding[s]);
        Poly al;
        for (std::size_t r = 0; r < q.size(); ++r)
            al = add(al, q[r], ke[r] + alg.k0d[r].coeff(0));
        const bool bos = s == m.alphabet.size();
        auto same_line = std::find_if(lines.begin(), lines.end(),
                                      [&](const Line &l) { return l.alpha.c == al.c; });
        if (same_line == lines.end())
            lines.push_back({al, bos, {s}});
        else
            same_line->symbols.push_back(s); // BOS joins a free line as its position 0
    }
    return lines;
}

bool values_differ(const HeadAlgebra &alg, const Line &r, const Line &s) {
    if (alg.values_move) return true;
    for (std::size_t x : r.symbols)
        for (std::size_t y : s.symbols)
            if (alg.values[x] != alg.values[y]) return true;
    return false;
}

// A unique-hard head could tie between different values past n0 unless the
// pair is kept strictly apart.
bool may_tie(const Poly &delta, const Term &t) {
    if (t.zero) {
        const Poly h = add(delta, variable(), t.u);
        return h.constant() && h.coeff(0) == 0;
    }
    if (t.vanishing) return false;
    if (!delta.constant()) return true;
    const Q d = delta.coeff(0);
    if (t.u == 0) return d == 0;
    const Q r = d / t.u;
    return d != 0 && r.get_den() == 1;
}

void check_tail(TailCheck &t, const std::vector<Poly> &pos) {
    const Model &m = *t.m;
    for (std::size_t h = 0; h < m.layers[0].heads.size(); ++h) {
        const Head &head = m.layers[0].heads[h];
        const std::string p = "layer 1 head " + std::to_string(h + 1);
        if (head.mask != Mask::Causal && head.mask != Mask::Strict)
            rejected(p, "its mask is " + head.mask_text + "; every-n covers causal and strict");
        HeadAlgebra alg;
        for (const auto &row : head.key) {
            alg.k0d.push_back(row_poly(row, pos));
            if (alg.k0d.back().degree() > 1) rejected(p, "its key is not affine in j");
        }
        for (const auto &e : m.embedding)
            alg.values.push_back(mat_times(head.value, e));
        if (head.kind != Kind::Average)
            for (const auto &row : head.value)
                alg.values_move = alg.values_move || row_poly(row, pos).degree() > 0;
        for (std::size_t a = 0; a < m.alphabet.size(); ++a) {
            Q c;
            const std::vector<Line> lines = lines_at(t, head, alg, pos, a, c, p);
            for (const Line &r : lines) {
                std::vector<Term> sum;
                for (const Line &s : lines) {
                    if (r.bos && s.bos) continue;
                    const Poly delta = add(r.alpha, s.alpha, -1);
                    Term term = classify(delta, c, s.bos, t.n0);
                    const std::string where = p + ", query " + m.alphabet[a];
                    if (!term.ok) rejected(where, "a pair of lines no case of Lemma E2 bounds");
                    if (term.unbounded) rejected(where, "no constant beta (Lemma E3)");
                    if (head.kind != Kind::Average && values_differ(alg, r, s) &&
                        may_tie(delta, term))
                        rejected(where, "a tie between different values is not ruled out");
                    sum.push_back(term);
                }
                t.terms += sum.size();
                at_rising_precision(t.prec_cap, p, "within eps by the tail bound", [&](long prec) {
                    Iv total(Q(0), prec);
                    for (const Term &term : sum) {
                        std::optional<Iv> v = term_value(term, t.beta, prec);
                        if (!v) return Tri::False;
                        total = total + *v;
                    }
                    if (!total.finite()) return Tri::Unknown;
                    if (total.at_most(t.cap)) return Tri::True;
                    return total.above(t.cap) ? Tri::False : Tri::Unknown;
                });
            }
        }
    }
}
// Theorem L: head `head` over the values S entering its layer (merged by
// what the head reads), BOS holding b, an average head as leftmost.
Model virtual_model(const Model &m, const Head &head, const std::vector<Vec> &S, const Vec *b) {
    Model v; // its features are the tail's `pos`
    v.width = m.width;
    std::set<std::vector<Vec>> seen;
    for (const Vec &d : S)
        if (seen.insert(
                    {mat_times(head.query, d), mat_times(head.key, d), mat_times(head.value, d)})
                .second)
            v.alphabet.push_back("s" + std::to_string(v.alphabet.size())), v.embedding.push_back(d);
    if (b) v.bos = "<bos>", v.embedding.push_back(*b);
    v.layers.push_back({{head}, std::nullopt});
    if (head.kind == Kind::Average) v.layers[0].heads[0].kind = Kind::Leftmost;
    return v;
}
} // namespace

std::string verify_every_n(const Json &cert, const Model &m, const Limits &limits) {
    only_keys(cert, "$",
              {"format", "tool", "model", "n", "eps", "criterion", "method", "beta", "verdict",
               "n0", "tail_terms", "finite", "proofs"});
    same_at(cert, "$", "n", "every");
    same_at(cert, "$", "verdict", "certified");
    same_at(cert, "$", "criterion", "tv"); // every-n certifies the tv criterion
    const Q eps = exact_at(cert, "$", "eps");
    if (eps <= 0 || eps >= 1) rejected("$.eps", "expected 0 < eps < 1");
    const Json &beta = at(cert, "$", "beta");
    only_keys(beta, "$.beta", {"spec", "source"});
    const std::string spec = text_at(beta, "$.beta", "spec");
    Expr b = Expr::parse(spec, "$.beta.spec");
    if (b.uses(Expr::Op::J) || b.uses(Expr::Op::N) || !b.rational())
        rejected("$.beta.spec", "every-n certifies one rational beta for every length");
    const Q beta_q = b.exact(0, 1, "$.beta.spec");
    if (beta_q <= 0) rejected("$.beta.spec", "beta is not positive");
    bool by_layers = false; // Theorem L: heads past layer 1
    for (std::size_t l = 1; l < m.layers.size(); ++l)
        by_layers = by_layers || !m.layers[l].heads.empty();
    const std::uint64_t n0 = count_at(cert, "$", "n0");
    if (n0 < 2 || n0 > (std::uint64_t(1) << 40)) rejected("$.n0", "expected 2 <= n0 <= 2^40");
    same_at(cert, "$", "proofs", {"proofs/every-n.md"});
    // the finite part: every word up to n0 - 1 at the same beta and eps
    const Json &fin = at(cert, "$", "finite");
    require_object(fin, "$.finite");
    const std::string method = text_at(fin, "$.finite", "method");
    if (method == "every-n") rejected("$.finite.method", "the finite part is a finite certificate");
    same_at(fin, "$.finite", "n", n0 - 1);
    same_at(fin, "$.finite", "eps", text_at(cert, "$", "eps"));
    same_at(fin, "$.finite", "criterion", "tv");
    same_at(at(fin, "$.finite", "beta"), "$.finite.beta", "spec", spec);
    same_at(fin, "$.finite", "verdict", "certified");
    if (by_layers) same_at(fin, "$.finite", "method", "layerwise"); // Theorem L
    Entering entering;
    const std::string finite_what =
        by_layers ? (check_binding(fin, m), verify_layerwise(fin, m, limits, &entering))
                  : verify(fin, m, limits);
    // the tail: every query at n0 or beyond, at every length
    std::vector<Poly> pos(m.width);
    for (const auto &f : m.features)
        pos[f.dim] = add(pos[f.dim], poly_of(f.expr, f.path));
    TailCheck t{&m, Q(static_cast<unsigned long>(n0)), beta_q, eps / (1 - eps), limits.prec_cap};
    if (!by_layers && !m.layers.empty()) check_tail(t, pos);
    for (std::size_t l = 0; by_layers && l < m.layers.size(); ++l)
        for (const Head &head : m.layers[l].heads) {
            const auto &[S, B] = entering[l];
            for (std::size_t b = 0; b < std::max<std::size_t>(B.size(), 1); ++b) {
                const Model v = virtual_model(m, head, S, B.empty() ? nullptr : &B[b]);
                t.m = &v;
                check_tail(t, pos);
            }
        }
    same_count(cert, "$", "tail_terms", t.terms);
    return "finite part (n <= " + std::to_string(n0 - 1) + "): " + finite_what +
           "; tail bound re-derived from the model for every query at positions >= " +
           std::to_string(n0) + " (" + std::to_string(t.terms) + " terms)";
}
} // namespace minicheck
