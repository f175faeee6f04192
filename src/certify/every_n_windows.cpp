// Theorem T of proofs/every-n.md; see every_n_windows.hpp.
#include "every_n_windows.hpp"
#include "tempcert/bounds.hpp"
#include "tempcert/error.hpp"
#include "tempcert/exact_vector.hpp"
#include "tempcert/symbolic.hpp"

#include <algorithm>

namespace tempcert::every_n {

namespace {

// Offsets past this many from 0 are not searched (the maximiser, or the
// windows without it, would be too many to examine one by one).
constexpr long kMostOffset = 100000;
// The exact terms around the maximiser start at this many per side and
// double at most kDoublings times while the bracket is wider than rel.
constexpr long kFirstTerms = 16;
constexpr int kDoublings = 10;
// Windows beside the maximiser examined one by one (Lemma T4), at most.
constexpr long kMostWindows = 10000;

// p(a + s x) for the variable x (s = +1 or -1).
Poly shifted(const Poly &p, const Rational &a, int s) {
    const Poly arg = Poly(a) + Poly::x() * Rational(s);
    Poly r;
    for (int k = p.degree(); k >= 0; --k)
        r = r * arg + Poly(p.coeff(static_cast<std::size_t>(k)));
    return r;
}

// The windows of a mask (proofs/every-n.md, "Windows"): l <= lo when
// l_free, else l = lo; r >= hi when r_free, else r = hi.
struct Ends {
    bool l_free = false;
    long lo = 0;
    bool r_free = false;
    long hi = 0;
};

Ends ends_of(Mask mask) {
    switch (mask) {
    case Mask::None:
        return {true, 0, true, 0};
    case Mask::Causal:
        return {true, 0, false, 0};
    case Mask::Strict:
        return {true, -1, false, -1};
    case Mask::Future:
        return {false, 0, true, 0};
    case Mask::StrictFuture:
        return {false, 1, true, 1};
    }
    return {};
}

// The best found over some windows: its bracket of the supremum, and the
// window [l, r] whose own threshold is above the lower end.
struct Found {
    Rational lo = 0, hi = 0;
    long l = 0, r = 0;
    bool any = false;
};

void keep(Found &into, const Found &f) {
    if (!f.any) return;
    if (!into.any || f.lo > into.lo) {
        into.lo = f.lo;
        into.l = f.l;
        into.r = f.r;
    }
    into.hi = into.any ? std::max(into.hi, f.hi) : f.hi;
    into.any = true;
}

class Solver {
  public:
    Solver(const WindowProfile &p, const CertifyOptions &o, const Rational &rel)
        : p_(p), o_(o), rel_(rel), c_(o.eps / (1 - o.eps)) {}

    // sup of thr over the windows of `e` (Lemmas T2, T4).
    Found solve(const Ends &e) {
        check_budget(o_.limits);
        if (!e.l_free && !e.r_free) return finite(e.lo, e.hi);
        const long d0 = maximiser(e);
        Found best = series(e, d0);
        if ((e.r_free && d0 - e.hi > kMostWindows) || (e.l_free && e.lo - d0 > kMostWindows))
            out_of_reach("more than 10^4 windows of offsets lie beside the maximiser at " +
                         std::to_string(d0));
        if (e.r_free) // windows ending before d0: the left end free or fixed
            for (long r = e.hi; r < d0; ++r)
                if (e.l_free || e.lo <= r)
                    keep(best, solve({e.l_free, std::min(e.lo, r), false, r}));
        if (e.l_free) // windows starting after d0
            for (long l = d0 + 1; l <= e.lo; ++l)
                if (e.r_free || l <= e.hi)
                    keep(best, solve({false, l, e.r_free, std::max(e.hi, l)}));
        return best;
    }

  private:
    const WindowProfile &p_;
    const CertifyOptions &o_;
    const Rational &rel_;
    const Rational c_; // eps / (1 - eps); k of them for k maximisers

    [[noreturn]] void out_of_reach(const std::string &why) const {
        throw Undecided("tight --every-n: layer 1 head " + std::to_string(p_.head + 1) + ": " +
                        why + " (proofs/every-n.md, Theorem T)");
    }

    Rational h(long d) const { return p_.h.at(Rational(d)); }

    // The unique maximiser of h over the union of the windows: searched
    // between the Cauchy bounds of h - h(d_ref), beyond which h is below
    // h(d_ref) (h falls along every unbounded side: plan_windows).
    long maximiser(const Ends &e) {
        const long lo_end = e.l_free ? -kMostOffset : e.lo, hi_end = e.r_free ? kMostOffset : e.hi;
        const long ref = std::clamp(0L, lo_end, hi_end);
        const Integer b = (p_.h - Poly(h(ref))).cauchy_bound();
        if (b > kMostOffset) out_of_reach("the maximiser search would pass offset 10^5");
        const long reach = b.convert_to<long>();
        std::optional<Rational> top;
        long best = ref;
        std::size_t holders = 0;
        for (long d = std::max(lo_end, -reach); d <= std::min(hi_end, reach); ++d) {
            if (d % 4096 == 0) check_budget(o_.limits);
            const Rational v = h(d);
            if (!top || v > *top) {
                top = v;
                best = d;
                holders = 1;
            } else if (v == *top) {
                ++holders;
            }
        }
        if (holders > 1)
            out_of_reach("the profile h has several maximisers over the offsets a query can see");
        return best;
    }

    // Gaps h* - h(d) over the window, with k the number of maximisers.
    std::vector<Rational> gaps(long l, long r, long d0, std::size_t &k) const {
        std::vector<Rational> d;
        Rational top = h(d0);
        for (long x = l; x <= r; ++x)
            top = std::max(top, h(x));
        k = 0;
        for (long x = l; x <= r; ++x) {
            Rational v = h(x);
            if (v == top)
                ++k;
            else
                d.push_back(top - v);
        }
        return d;
    }

    // One finite window (both ends fixed).
    Found finite(long l, long r) {
        if (l > r) return {};
        std::size_t k = 0;
        std::vector<Rational> d = gaps(l, r, l, k);
        if (k > 1 && p_.values_differ)
            out_of_reach("the window [" + std::to_string(l) + ", " + std::to_string(r) +
                         "] of offsets has tied maxima at positions that may carry different "
                         "values");
        Found f;
        f.any = true;
        f.l = l;
        f.r = r;
        if (d.empty()) return f; // threshold 0
        const Bracket b = profile_threshold(d, k, o_.eps, rel_, o_.precision.start);
        f.lo = b.lo;
        f.hi = b.hi;
        return f;
    }

    // One unbounded side: p(d0 + s m) = h(d0) - h(d0 + s m) as a
    // polynomial in m, and the M from which its steps are positive and do
    // not decrease (Lemma T3).
    struct Side {
        Poly p, step;
        long from = 0;
    };

    Side side(long d0, int s) const {
        Side out;
        out.p = Poly(h(d0)) - shifted(p_.h, Rational(d0), s);
        out.step = shifted(out.p, 1, 1) - out.p;
        const Poly step2 = shifted(out.step, 1, 1) - out.step;
        const Integer b = std::max(out.step.cauchy_bound(), step2.cauchy_bound()) + 1;
        if (b > kMostOffset) out_of_reach("the tail bound would start past offset 10^5");
        out.from = b.convert_to<long>();
        return out;
    }

    // X_D(beta) <= c with the exact terms within M of d0 and Lemma T3's
    // tail on each unbounded side, enclosed in MPFI at `prec`.
    Tri series_at_most(const std::vector<GapCount> &near, const std::vector<Side> &sides, long M,
                       const Rational &beta, Prec prec) const {
        Interval x(prec);
        for (const auto &g : near)
            x = add(x,
                    mul(exp(Interval(-beta * g.gap, prec), prec),
                        Rational(static_cast<long>(g.count)), prec),
                    prec);
        for (const Side &s : sides) {
            const Rational at = s.p.at(Rational(M)), step = s.step.at(Rational(M));
            const Interval first = exp(Interval(-beta * (at + step), prec), prec);
            const Interval rest = neg(expm1(Interval(-beta * step, prec), prec));
            x = add(x, div(first, rest, prec), prec);
        }
        return less_equal(x, c_);
    }

    // The windows containing d0 (Lemma T2): their supremum is the
    // threshold of the series over the whole union D.
    Found series(const Ends &e, long d0) {
        std::vector<Side> sides;
        long M = kFirstTerms;
        if (e.r_free) sides.push_back(side(d0, 1));
        if (e.l_free) sides.push_back(side(d0, -1));
        for (const Side &s : sides)
            M = std::max(M, s.from);
        // the finite window [d0 - M, d0 + M] within D is a window
        M = std::max(M, std::abs(d0) + std::abs(e.lo) + std::abs(e.hi) + 1);
        Found f;
        for (int k = 0; k <= kDoublings; ++k, M *= 2) {
            if (M > kMostOffset) break;
            const long l = e.l_free ? d0 - M : e.lo, r = e.r_free ? d0 + M : e.hi;
            std::size_t holders = 0;
            const std::vector<GapCount> near = group_gaps(gaps(l, r, d0, holders));
            if (near.empty()) return finite(l, r);
            // the finite window's own bracket: its lower end is a word's
            const Bracket b =
                profile_threshold(near, 1, o_.eps, rel_ / 4, o_.precision.start, Rational(0));
            Rational hi = b.hi;
            auto certifies = [&](const Rational &beta) {
                for (Prec prec = o_.precision.start; prec <= o_.precision.cap; prec *= 2) {
                    const Tri t = series_at_most(near, sides, M, beta, prec);
                    if (t != Tri::Unknown) return t == Tri::True;
                }
                return false;
            };
            // raised in steps of rel/8 from the finite window's upper end;
            // a tail too heavy for that takes more exact terms
            int up = 0;
            for (; up < 64 && !certifies(hi); ++up) {
                check_budget(o_.limits);
                hi += rel_ * hi / 8;
            }
            if (up == 64) continue;
            f = Found{b.lo, hi, l, r, true};
            if (hi - b.lo <= rel_ * hi) break;
        }
        if (!f.any) out_of_reach("the series needs terms past offset 10^5");
        return f;
    }
};

// W x for polynomial x.
std::vector<Poly> times(const Matrix &w, const std::vector<Poly> &x) {
    std::vector<Poly> out;
    for (const auto &row : w)
        out.push_back(row_times(row, x));
    return out;
}

std::vector<Poly> constant(const Vector &v) {
    std::vector<Poly> out;
    for (const auto &x : v)
        out.emplace_back(x);
    return out;
}

std::vector<Poly> plus(std::vector<Poly> a, const std::vector<Poly> &b) {
    for (std::size_t c = 0; c < a.size(); ++c)
        a[c] = a[c] + b[c];
    return a;
}

// h(i, d) = s(i, i + d) - s(i, i) as coefficients of i^t (each a
// polynomial in d); q and k are polynomials in i and j.
std::vector<Poly> profile_in_i_and_d(const std::vector<Poly> &q, const std::vector<Poly> &k) {
    std::vector<Poly> out;
    auto add_at = [&](std::size_t t, const Poly &p) {
        if (out.size() <= t) out.resize(t + 1);
        out[t] = out[t] + p;
    };
    for (std::size_t r = 0; r < q.size(); ++r) {
        // k(i + d) - k(i) = sum_m kappa_m ((i + d)^m - i^m), by powers of i
        std::vector<Poly> diff;
        for (int m = 0; m <= k[r].degree(); ++m) {
            Rational binom = 1; // C(m, t), t from m down
            for (int t = m; t >= 0; --t) {
                if (t < m) binom = binom * (t + 1) / (m - t);
                Poly dpow(k[r].coeff(static_cast<std::size_t>(m)) * binom);
                for (int e = 0; e < m - t; ++e)
                    dpow = dpow * Poly::x();
                if (t == m) continue; // i^m d^0: cancelled by - k(i)
                if (diff.size() <= static_cast<std::size_t>(t)) diff.resize(t + 1);
                diff[t] = diff[t] + dpow;
            }
        }
        for (int u = 0; u <= q[r].degree(); ++u)
            for (std::size_t t = 0; t < diff.size(); ++t)
                add_at(static_cast<std::size_t>(u) + t,
                       diff[t] * q[r].coeff(static_cast<std::size_t>(u)));
    }
    return out;
}

bool falls_on(const Poly &h, int side) {
    if (h.degree() < 1) return false;
    const bool odd = h.degree() % 2 == 1;
    return side > 0 ? h.lead() < 0 : (odd ? h.lead() > 0 : h.lead() < 0);
}

} // namespace

std::optional<WindowPlan> plan_windows(const Model &m, const CertifyOptions &o, std::string &why) {
    if (o.criterion != Criterion::Tv) {
        why = "Theorem T brackets the tv criterion's temperature";
        return std::nullopt;
    }
    if (!symbolic_applies(m, why)) return std::nullopt;
    if (m.has_bos()) {
        why = "Theorem T covers models without BOS";
        return std::nullopt;
    }
    std::size_t dim = 0;
    const std::optional<std::vector<Poly>> polys = position_polys(m, why, dim);
    if (!polys) return std::nullopt;
    const std::vector<Poly> &pos = *polys;
    WindowPlan plan;
    for (std::size_t hd = 0; hd < (m.layers.empty() ? 0 : m.layers[0].heads.size()); ++hd) {
        const Head &head = m.layers[0].heads[hd];
        const std::string name = "layer 1 head " + std::to_string(hd + 1);
        const Vector k0 = matvec(head.key, m.embedding.at(m.alphabet[0]));
        bool values_differ = false;
        for (const auto &sym : m.alphabet) {
            if (matvec(head.key, m.embedding.at(sym)) != k0) {
                why = name + "'s keys read the key symbols (Theorem T needs position-only scores)";
                return std::nullopt;
            }
            values_differ = values_differ || matvec(head.value, m.embedding.at(sym)) !=
                                                 matvec(head.value, m.embedding.at(m.alphabet[0]));
        }
        for (const Poly &v : times(head.value, pos))
            values_differ = values_differ || !v.is_constant();
        const std::vector<Poly> k = plus(constant(k0), times(head.key, pos));
        const Ends e = ends_of(head.mask);
        for (std::size_t a = 0; a < m.alphabet.size(); ++a) {
            const std::vector<Poly> q =
                plus(constant(matvec(head.query, m.embedding.at(m.alphabet[a]))),
                     times(head.query, pos));
            const std::vector<Poly> hid = profile_in_i_and_d(q, k);
            for (std::size_t t = 1; t < hid.size(); ++t)
                if (!hid[t].is_zero()) {
                    why = name + "'s scores are not a fixed profile of j - i (query " +
                          m.alphabet[a] + ": the profile's i^" + std::to_string(t) +
                          " coefficient is " + hid[t].text("d") + ")";
                    return std::nullopt;
                }
            WindowProfile p{hd, static_cast<int>(a), hid.empty() ? Poly() : hid[0], values_differ};
            if ((e.r_free && !falls_on(p.h, 1)) || (e.l_free && !falls_on(p.h, -1))) {
                why = name + "'s profile h(d) = " + p.h.text("d") +
                      " does not fall along every side the mask leaves open";
                return std::nullopt;
            }
            plan.profiles.push_back(std::move(p));
        }
    }
    return plan;
}

EveryNResult tight_every_n_windows(const Model &m, const CertifyOptions &o, const Rational &rel,
                                   const WindowPlan &plan) {
    Found best;
    const WindowProfile *attaining = nullptr;
    for (const WindowProfile &p : plan.profiles) {
        Solver s(p, o, rel);
        const Found f = s.solve(ends_of(m.layers[0].heads[p.head].mask));
        if (f.any && (!best.any || f.lo > best.lo)) attaining = &p;
        keep(best, f);
    }
    EveryNResult r;
    r.windows = true;
    r.beta_lo = best.lo;
    r.beta_hi = best.hi;
    r.converged = r.beta_hi - r.beta_lo <= rel * r.beta_hi;
    if (!attaining || best.lo <= 0) {
        r.note = "no window needs beta > 0 (proofs/every-n.md, Theorem T)";
        return r;
    }
    // the window [l, r] as a query: i = 1 - l where the left end moves
    // with i, else i = 1; n = i + r where the right end moves with n
    const Ends e = ends_of(m.layers[0].heads[attaining->head].mask);
    const long i = e.l_free ? 1 - best.l : 1, n = e.r_free ? i + best.r : i;
    Word w(static_cast<std::size_t>(n), attaining->symbol);
    Violation v;
    Prec used = 0;
    const BetaSpec lo = BetaSpec::parse(to_string(r.beta_lo), m.layers.size());
    if (certify_word_streamed(m, w, lo, o, v, used) == Tri::False) {
        r.lo_witness = v;
    } else {
        r.converged = false;
        r.note = "the window attaining the lower end was not refuted at beta_lo; ";
    }
    r.n_lower = static_cast<std::size_t>(n);
    r.note += "Theorem T of proofs/every-n.md: every query sees the profile h(j - i) through a "
              "window; beta_hi certifies the series over every window (with its tail bound) and "
              "the finitely many windows without the maximiser";
    return r;
}

} // namespace tempcert::every_n
