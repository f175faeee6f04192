// The tail bound of `tight --every-n` (every_n_tail.hpp, proofs/every-n.md).
#include "every_n_tail.hpp"

#include "tempcert/error.hpp"
#include "tempcert/interval.hpp"
#include "tempcert/symbolic.hpp"

#include <algorithm>
#include <map>

namespace tempcert::every_n {

namespace {

// One line of offers at a query (proofs/every-n.md, "Offers as lines in
// i"): the symbols whose keys score alpha(i) + c j at every free position
// j, or BOS at position 0.
struct Line {
    Poly alpha;
    std::string name;                 // the symbols, comma-separated, or the BOS symbol
    std::vector<std::string> symbols; // the same, one by one
    std::vector<int> value;           // value classes of its symbols (unique-hard ties)
    bool bos = false;
};

// A head's first-layer algebra: the positional part of every coordinate as
// a polynomial in j, and the key's K0 + j D.
struct HeadForms {
    std::vector<Poly> position; // per residual coordinate
    Vector k0, d;
    std::vector<int> value_class; // per symbol, BOS last
    // The value's positional part depends on j: two positions may carry
    // different values whatever their symbols.
    bool values_move = false;
};

[[noreturn]] void out_of_scope(const Model &m, std::size_t h, const std::string &why) {
    throw Undecided("tight --every-n: layer 1 head " + std::to_string(h + 1) + " of " + m.name +
                    ": " + why + " (proofs/every-n.md, \"Scope\")");
}

std::vector<Poly> position_polys(const Model &m) {
    std::string why;
    std::size_t dim = 0;
    std::optional<std::vector<Poly>> p = every_n::position_polys(m, why, dim);
    if (!p)
        throw Undecided("tight --every-n: the feature at dim " + std::to_string(dim) +
                        " is out of scope: " + why + " (proofs/every-n.md, \"Scope\")");
    return *p;
}

Rational dot(const Vector &a, const Vector &b) {
    Rational r = 0;
    for (std::size_t k = 0; k < a.size(); ++k)
        r += a[k] * b[k];
    return r;
}

Vector times(const Matrix &w, const Vector &x) {
    Vector r;
    for (const auto &row : w)
        r.push_back(dot(row, x));
    return r;
}

HeadForms head_forms(const Model &m, std::size_t h, const std::vector<Poly> &pos) {
    const Head &head = m.layers[0].heads[h];
    HeadForms f;
    f.position = pos;
    for (const auto &row : head.key) {
        Poly kp = row_times(row, pos);
        if (kp.degree() > 1)
            out_of_scope(m, h,
                         "its key's positional part is not affine in j (" + kp.text("j") + ")");
        f.k0.push_back(kp.coeff(0));
        f.d.push_back(kp.coeff(1));
    }
    const bool unique = head.kind != AttnKind::Average;
    std::map<Vector, int> classes;
    auto classify = [&](const std::string &sym) {
        Vector v = times(head.value, m.embedding.at(sym));
        f.value_class.push_back(classes.emplace(v, static_cast<int>(classes.size())).first->second);
    };
    for (const auto &s : m.alphabet)
        classify(s);
    if (m.bos) classify(*m.bos);
    if (unique)
        for (const auto &row : head.value)
            f.values_move = f.values_move || row_times(row, pos).degree() > 0;
    return f;
}

// The lines of the query of symbol a, merged where two symbols offer the
// same scores (a position then offers that score once), and the slope c.
std::vector<Line> query_lines(const Model &m, std::size_t h, const HeadForms &f,
                              const std::string &a, Rational &slope, Poly &bos_alpha) {
    const Head &head = m.layers[0].heads[h];
    std::vector<Poly> x = f.position;
    const Vector &ea = m.embedding.at(a);
    for (std::size_t d = 0; d < x.size(); ++d)
        x[d] = x[d] + Poly(ea[d]);
    std::vector<Poly> q;
    for (const auto &row : head.query)
        q.push_back(row_times(row, x));
    Poly c;
    for (std::size_t r = 0; r < q.size(); ++r)
        c = c + q[r] * f.d[r];
    if (!c.is_constant())
        out_of_scope(m, h,
                     "the slope of its scores in the key position depends on the query "
                     "position (" +
                         c.text("i") + " at a query " + a + ")");
    slope = c.coeff(0);
    auto alpha_of = [&](const std::string &sym) {
        Vector ke = times(head.key, m.embedding.at(sym));
        Poly al;
        for (std::size_t r = 0; r < q.size(); ++r)
            al = al + q[r] * (ke[r] + f.k0[r]);
        return al;
    };
    std::vector<Line> lines;
    for (std::size_t s = 0; s < m.alphabet.size(); ++s) {
        Poly al = alpha_of(m.alphabet[s]);
        auto same =
            std::find_if(lines.begin(), lines.end(), [&](const Line &l) { return l.alpha == al; });
        if (same == lines.end()) {
            lines.push_back({al, m.alphabet[s], {m.alphabet[s]}, {f.value_class[s]}, false});
        } else {
            same->name += "," + m.alphabet[s];
            same->symbols.push_back(m.alphabet[s]);
            same->value.push_back(f.value_class[s]);
        }
    }
    if (!m.bos) return lines;
    // BOS at position 0 offers alpha_BOS: on a free line with that alpha it
    // is that line's position 0 (one more position, distinct k), not a
    // second term
    const Poly b = bos_alpha = alpha_of(*m.bos);
    auto on = std::find_if(lines.begin(), lines.end(), [&](const Line &l) { return l.alpha == b; });
    if (on == lines.end()) {
        lines.push_back({b, *m.bos, {*m.bos}, {f.value_class.back()}, true});
    } else {
        on->name += "," + *m.bos;
        on->value.push_back(f.value_class.back());
    }
    return lines;
}

Integer floor_q(const Rational &q) {
    Integer r = numerator(q) / denominator(q); // truncates toward zero
    if (r * denominator(q) > numerator(q)) r -= 1;
    return r;
}

// Lemma E2's cases, before n0 is known.
enum class Case { Z, C, C0, V, P, Out };

struct Pair {
    Case kase = Case::Out;
    Poly delta;
    Rational u;
    bool rival_bos = false;
    bool slope_zero = false;
};

void need_past(Integer &bound, const Poly &p) {
    bound = std::max(bound, p.cauchy_bound());
}

Pair classify(const Poly &delta, const Rational &c, bool rival_bos, Integer &bound) {
    Pair p{Case::Out, delta, abs(c), rival_bos, c == 0};
    const Poly h = delta + Poly(p.u) * Poly::x();
    if (h.is_constant() ? h.coeff(0) <= 0 : h.lead() < 0) {
        need_past(bound, h);
        p.kase = Case::Z;
    } else if (delta.is_constant()) {
        p.kase = c != 0 ? Case::C : Case::C0;
    } else if (Poly g = delta - Poly(p.u) * Poly::x(); g.degree() >= 1 && g.lead() > 0) {
        need_past(bound, g);
        need_past(bound, g.derivative());
        if (c == 0 && !rival_bos) {
            need_past(bound, delta.derivative());
            if (delta.degree() >= 3) need_past(bound, delta.derivative().derivative());
        }
        p.kase = Case::V;
    } else if (c != 0 && delta.steps_in_multiples_of(p.u)) {
        p.kase = Case::P;
    }
    return p;
}

// The least positive value of delta + u m over m != 0 (u > 0).
Rational least_positive_off_zero(const Rational &delta, const Rational &u) {
    Integer m0 = floor_q(-delta / u) + 1;
    return m0 == 0 ? delta + u : delta + u * Rational(m0);
}

Term instantiate(const Pair &p, const Integer &n0) {
    const Rational at = Rational(n0);
    Term t;
    t.u = p.u;
    switch (p.kase) {
    case Case::Z:
    case Case::Out:
        t.kind = Term::Kind::Zero;
        return t;
    case Case::C: {
        const Rational delta = p.delta.coeff(0);
        if (p.rival_bos) {
            t.kind = Term::Kind::Single;
            t.g = least_positive_off_zero(delta, p.u);
        } else {
            t.kind = Term::Kind::Progression;
            t.g = delta;
        }
        return t;
    }
    case Case::C0:
        t.kind = p.rival_bos ? Term::Kind::Single : Term::Kind::Unbounded;
        t.g = p.delta.coeff(0);
        return t;
    case Case::V: {
        const Poly g = p.delta - Poly(p.u) * Poly::x();
        t.g = g.at(at);
        if (p.rival_bos) {
            t.kind = Term::Kind::Single;
        } else if (!p.slope_zero) {
            t.kind = Term::Kind::Geometric;
        } else {
            t.kind = Term::Kind::Count;
            t.s = p.delta.derivative().at(at);
            t.n0 = n0;
        }
        return t;
    }
    case Case::P: {
        const Rational d0 = p.delta.coeff(0);
        Rational r = d0 - p.u * Rational(floor_q(d0 / p.u));
        t.g = r == 0 ? p.u : r;
        t.kind = p.rival_bos ? Term::Kind::Single : Term::Kind::Geometric;
        return t;
    }
    }
    return t;
}

// A unique-hard head may tie between different values at a query past n0
// unless every pair of lines with different values is kept apart (Lemma
// E2's (Z) and (V) signs, which also rule out a zero gap).
bool may_tie(const Pair &p) {
    if (p.kase == Case::Z) {
        const Poly h = p.delta + Poly(p.u) * Poly::x();
        return h.is_constant() && h.coeff(0) == 0;
    }
    if (p.kase == Case::V) return false;
    if (p.delta.is_constant()) {
        const Rational d = p.delta.coeff(0);
        return p.u == 0 ? d == 0 : d != 0 && is_integer(d / p.u);
    }
    return true;
}

bool differ(const Line &r, const Line &s) {
    for (int a : r.value)
        for (int b : s.value)
            if (a != b) return true;
    return false;
}

const Line &line_of(const std::vector<Line> &lines, const std::string &symbol) {
    for (const Line &l : lines)
        if (!l.bos && std::find(l.symbols.begin(), l.symbols.end(), symbol) != l.symbols.end())
            return l;
    throw std::logic_error("every_n: a symbol on no line");
}

// Lemma E3's side conditions: the own score and BOS's stay at most the
// holder's for every i past the bound.
bool stays_at_most(const Poly &holder, const Poly &other, Integer &bound) {
    const Poly d = holder - other;
    if (d.is_constant()) return d.coeff(0) >= 0;
    need_past(bound, d);
    return d.lead() > 0;
}

} // namespace

TailPlan plan_tail(const Model &m, const CertifyOptions &o, std::size_t n0_min) {
    const std::vector<Poly> pos = position_polys(m);
    struct Sum {
        std::vector<Pair> pairs;
    };
    std::vector<Sum> sums;
    std::vector<GrowthWitness> growth;
    Integer bound = 0;
    bool flat = true;
    for (std::size_t h = 0; h < m.layers[0].heads.size(); ++h) {
        const Head &head = m.layers[0].heads[h];
        if (head.mask != Mask::Causal && head.mask != Mask::Strict)
            out_of_scope(m, h,
                         std::string("its mask is ") + to_string(head.mask) +
                             "; every-n covers causal and strict masks");
        const HeadForms f = head_forms(m, h, pos);
        for (const auto &a : m.alphabet) {
            check_budget(o.limits);
            Rational c;
            Poly bos;
            const std::vector<Line> lines = query_lines(m, h, f, a, c, bos);
            flat = flat && c == 0;
            for (const Line &r : lines) {
                Sum sum;
                for (const Line &s : lines) {
                    if (r.bos && s.bos) continue;
                    Pair p = classify(r.alpha - s.alpha, c, s.bos, bound);
                    if (p.kase == Case::Out)
                        out_of_scope(m, h,
                                     "at a query " + a + ", the gap of " + s.name + " below " +
                                         r.name + " is " + p.delta.text("i") + " + " +
                                         to_string(c) +
                                         " k, which no case of Lemma E2 bounds for every i");
                    if (head.kind != AttnKind::Average && (f.values_move || differ(r, s)) &&
                        may_tie(p))
                        out_of_scope(m, h,
                                     "a unique-hard head whose keys " + r.name + " and " + s.name +
                                         " may tie between different values at every length");
                    if (p.kase == Case::C0 && !s.bos && !r.bos) {
                        const bool own_ok = head.mask == Mask::Strict ||
                                            stays_at_most(r.alpha, line_of(lines, a).alpha, bound);
                        const bool fits = !m.bos || stays_at_most(r.alpha, bos, bound);
                        if (!fits || !own_ok)
                            out_of_scope(m, h,
                                         "at a query " + a + ", " + s.name + " sits " +
                                             to_string(p.delta.coeff(0)) + " below " + r.name +
                                             " at every position, but the word that would show "
                                             "the need growing is not shown to exist");
                        growth.push_back({h + 1, a, r.name, s.name, p.delta.coeff(0)});
                    }
                    sum.pairs.push_back(p);
                }
                sums.push_back(std::move(sum));
            }
        }
    }
    TailPlan plan;
    Integer n0 = std::max(Integer(n0_min), Integer(bound + 1));
    if (n0 > Integer(1) << 40)
        throw Undecided("tight --every-n: the tail starts beyond position 2^40 (Cauchy bound " +
                        bound.str() + "); out of scope");
    plan.n0 = static_cast<std::size_t>(n0);
    plan.growth = std::move(growth);
    plan.flat_keys = flat;
    for (const auto &s : sums) {
        std::vector<Term> terms;
        for (const auto &p : s.pairs)
            terms.push_back(instantiate(p, n0));
        plan.sums.push_back(std::move(terms));
    }
    return plan;
}

namespace {

Interval decay(const Rational &beta, const Rational &x, Prec prec) {
    return exp(Interval(-beta * x, prec), prec);
}

// 1 - exp(-beta u), as -expm1 so that it stays accurate for small beta u.
Interval one_minus_decay(const Rational &beta, const Rational &u, Prec prec) {
    return neg(expm1(Interval(-beta * u, prec), prec));
}

// The term's value at beta, or nullopt when its bound does not hold there
// (Count below its condition).
std::optional<Interval> value(const Term &t, const Rational &beta, Prec prec) {
    switch (t.kind) {
    case Term::Kind::Zero:
        return Interval(prec);
    case Term::Kind::Single:
        return decay(beta, t.g, prec);
    case Term::Kind::Geometric:
        return div(decay(beta, t.g, prec), one_minus_decay(beta, t.u, prec), prec);
    case Term::Kind::Progression: {
        const Integer m0 = floor_q(-t.g / t.u) + 1;
        Interval sum = div(decay(beta, t.g + t.u * Rational(m0), prec),
                           one_minus_decay(beta, t.u, prec), prec);
        return m0 <= 0 ? sub(sum, decay(beta, t.g, prec), prec) : sum;
    }
    case Term::Kind::Count:
        if (beta * t.s * Rational(t.n0) < 1) return std::nullopt;
        return mul(decay(beta, t.g, prec), Rational(t.n0), prec);
    case Term::Kind::Unbounded:
        return std::nullopt;
    }
    return std::nullopt;
}

// Every sum against eps/(1 - eps), each term valued by `term`.
template <class Value>
Tri sums_meet(const TailPlan &plan, const Rational &eps, Prec prec, Value &&term) {
    const Rational cap = eps / (1 - eps);
    Tri all = Tri::True;
    for (const auto &terms : plan.sums) {
        Interval sum(prec);
        for (const auto &t : terms) {
            std::optional<Interval> v = term(t);
            if (!v) return Tri::False;
            sum = add(sum, *v, prec);
        }
        if (!sum.is_finite()) {
            all = Tri::Unknown;
            continue;
        }
        if (sum.lower_exact() > cap) return Tri::False;
        if (sum.upper_exact() > cap) all = Tri::Unknown;
    }
    return all;
}

} // namespace

Tri tail_meets(const TailPlan &plan, const Rational &beta, const Rational &eps, Prec prec) {
    return sums_meet(plan, eps, prec, [&](const Term &t) { return value(t, beta, prec); });
}

Tri envelope_meets(const TailPlan &plan, const Rational &c, const Rational &dm,
                   const Rational &beta0, const Rational &eps, Prec prec) {
    return sums_meet(plan, eps, prec, [&](const Term &t) -> std::optional<Interval> {
        if (t.kind == Term::Kind::Unbounded) return decay(c / dm, t.g, prec);
        return value(t, beta0, prec);
    });
}

} // namespace tempcert::every_n
