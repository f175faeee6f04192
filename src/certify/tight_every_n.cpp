// `tempcert tight --every-n` (proofs/every-n.md): the supremum over every
// length of the tight inverse temperature, bracketed by a tight bracket at
// a finite length (the queries below n0) and the tail bound (every query at
// n0 or beyond, at every length), or shown unbounded with its growth law.
#include "every_n_layers.hpp"
#include "every_n_poly.hpp"
#include "every_n_tail.hpp"
#include "every_n_windows.hpp"
#include "tempcert/error.hpp"
#include "tempcert/every_n.hpp"
#include "tempcert/symbolic.hpp"

#include <cmath>

namespace tempcert {

std::string every_n_out_of_scope(const Model &m, const CertifyOptions &o) {
    if (o.criterion != Criterion::Tv)
        return "every-n brackets the tv criterion's temperature (--criterion tv)";
    std::string why;
    if (!symbolic_applies(m, why)) return why;
    for (const auto &f : m.positions)
        if (!every_n::poly_in_j(f.expr, why))
            return "the feature at dim " + std::to_string(f.dim) +
                   " is not a polynomial in j: " + why;
    if (!m.layers.empty())
        for (std::size_t h = 0; h < m.layers[0].heads.size(); ++h) {
            const Mask mask = m.layers[0].heads[h].mask;
            if (mask != Mask::Causal && mask != Mask::Strict)
                return "layer 1 head " + std::to_string(h + 1) + "'s mask is " + to_string(mask) +
                       "; every-n covers causal and strict masks";
        }
    return "";
}

std::string every_n_windows_out_of_scope(const Model &m, const CertifyOptions &o) {
    std::string why;
    return every_n::plan_windows(m, o, why) ? std::string() : why;
}

std::string every_n_unavailable(const Model &m, const CertifyOptions &o) {
    if (every_n_by_layers(m))
        return o.criterion == Criterion::Tv
                   ? ""
                   : "every-n brackets the tv criterion's temperature (--criterion tv)";
    std::string why = every_n_out_of_scope(m, o);
    if (!why.empty() && every_n_windows_out_of_scope(m, o).empty()) why.clear(); // Theorem T
    return why;
}

namespace {

// Whether `meets(prec)` is certified True at rising precision (start,
// doubled up to the cap): False and an Unknown at the cap both count as not
// certified.
template <class Meets> bool certified_rising(const CertifyOptions &o, Meets &&meets) {
    for (Prec prec = o.precision.start;; prec *= 2) {
        check_budget(o.limits);
        const Tri t = meets(std::min(prec, o.precision.cap));
        if (t != Tri::Unknown) return t == Tri::True;
        if (prec >= o.precision.cap) return false;
    }
}

// The least beta (to rel, upward) at which the tail bound certifies eps:
// bisection on rationals, each decision taken only on an enclosure wholly
// on one side (proofs/every-n.md, "Computation").
Rational tail_beta(const every_n::TailPlan &plan, const CertifyOptions &o, const Rational &rel,
                   Rational start) {
    auto certifies = [&](const Rational &beta) {
        return certified_rising(
            o, [&](Prec prec) { return every_n::tail_meets(plan, beta, o.eps, prec); });
    };
    bool all_zero = true;
    for (const auto &s : plan.sums)
        for (const auto &t : s)
            all_zero = all_zero && t.kind == every_n::Term::Kind::Zero;
    if (all_zero) return 0;
    Rational lo = 0, hi = start > 0 ? start : Rational(1);
    for (int k = 0; !certifies(hi); ++k) {
        check_budget(o.limits);
        if (k == 64)
            throw Undecided("tight --every-n: the tail bound does not meet eps at any beta up to " +
                            to_decimal(hi, 3, true));
        lo = hi;
        hi *= 2;
    }
    while (hi - lo > rel * hi / 4) {
        check_budget(o.limits);
        const Rational mid = (lo + hi) / 2;
        (certifies(mid) ? hi : lo) = mid;
    }
    return hi;
}

TightResult finite_bracket(const Model &m, const CertifyOptions &o, std::size_t n,
                           const Rational &rel) {
    CertifyOptions at = o;
    at.n = n;
    return tight_symbolic(m, at, rel);
}

// A rational at most ln(x) (x >= 1), from an MPFI enclosure.
Rational log_down(std::size_t x, Prec prec) {
    return log(Interval(static_cast<long>(x), prec), prec).lower_exact();
}

// Lemma E4: the least C (to rel, upward) of the envelope (ln n + C)/dm.
// Conditions 1 and 2 bound C below by tight brackets under n0; condition 3
// is bisected as the tail bound is.
void add_envelope(EveryNResult &r, const every_n::TailPlan &plan, const Model &m,
                  const CertifyOptions &o, const Rational &rel, bool excess) {
    const Rational dm = 1 / r.growth_rate;
    const Prec prec = o.precision.start;
    // 1 and 2: C >= dm H_n - ln n for n < n0, and dm H_{n0-1} - ln n0
    Rational c = 0;
    for (std::size_t n = 1; n < plan.n0; ++n) {
        check_budget(o.limits);
        const Rational h = finite_bracket(m, o, n, rel).beta_hi;
        c = std::max(c, dm * h - log_down(n, prec));
        if (n + 1 == plan.n0) c = std::max(c, dm * h - log_down(plan.n0, prec));
    }
    // 3, monotone in C: the unbounded terms fall and beta(n0) rises
    const Rational ln_n0 = log_down(plan.n0, prec);
    auto meets = [&](const Rational &cc) {
        return certified_rising(o, [&](Prec p) {
            return every_n::envelope_meets(plan, cc, dm, (ln_n0 + cc) / dm, o.eps, p);
        });
    };
    Rational lo = c, hi = c + 1;
    for (int k = 0; !meets(hi); ++k) {
        check_budget(o.limits);
        if (k == 64) throw Undecided("tight --every-n: no envelope constant found");
        lo = hi;
        hi = c + (hi - c) * 2;
    }
    if (!meets(c)) {
        while (hi - lo > rel * hi / 4) {
            check_budget(o.limits);
            const Rational mid = (lo + hi) / 2;
            (meets(mid) ? hi : lo) = mid;
        }
        c = hi;
    }
    // shown to 9 decimals, rounded up (a larger C only raises the envelope)
    const Rational scaled = c * Rational(1000000000);
    Integer up = numerator(scaled) / denominator(scaled); // toward zero; c >= 0
    if (Rational(up) < scaled) up += 1;
    const Rational shown(up, Integer(1000000000));
    r.envelope_c = shown;
    // (ln n + C) * rate, the rate parenthesised when a fraction ("/ 1/3"
    // would read as "/ 1 / 3")
    const Rational rate = 1 / dm;
    r.beta_expr = "(log(n) + " + to_decimal(shown, 9, true) + ") * " +
                  (is_integer(rate) ? to_string(rate) : "(" + to_string(rate) + ")");
    // the excess over tight(n) at 10^3, and at 10^4 where the keys are flat
    // in the key position (the profile bound's closed form: 0.3 s for
    // earlier-b-strict; with a slope the scan is cubic, and a 3-symbol model
    // took 4 min 40 s at 10^4)
    for (std::size_t n : {std::size_t(1000), std::size_t(10000)}) {
        if (!excess || n > o.limits.max_n || (n > 1000 && !plan.flat_keys)) continue;
        check_budget(o.limits);
        const TightResult t = finite_bracket(m, o, n, rel);
        if (t.beta_hi <= 0) continue;
        const double env =
            (std::log(double(n)) + shown.convert_to<double>()) / dm.convert_to<double>();
        r.envelope_excess.push_back({n, env / t.beta_hi.convert_to<double>() - 1});
    }
}

EveryNResult unbounded(const every_n::TailPlan &plan) {
    EveryNResult r;
    r.bounded = false;
    r.n0 = plan.n0;
    r.growth = "log n";
    r.growth_witnesses = plan.growth;
    Rational least = plan.growth.front().delta;
    for (const auto &g : plan.growth)
        least = std::min(least, g.delta);
    r.growth_rate = 1 / least;
    r.note = "no constant beta: the need grows like ln(n) / " + to_string(least) +
             " (proofs/every-n.md, Lemma E3)";
    return r;
}

} // namespace

double growth_failure_length(const Rational &eps, const Rational &rate, const Rational &beta) {
    const double e = eps.convert_to<double>();
    return 3 * e / (1 - e) * std::exp(beta.convert_to<double>() / rate.convert_to<double>()) + 4;
}

namespace {

// One plan per model, all with one n0 (at least n0_min): the Cauchy bounds
// of each set the common n0, and a plan made at a larger n0_min keeps it.
std::vector<every_n::TailPlan> plans_at_one_n0(const std::vector<Model> &models,
                                               const CertifyOptions &o, std::size_t n0_min) {
    for (;;) {
        std::vector<every_n::TailPlan> plans;
        std::size_t n0 = n0_min;
        for (const Model &v : models) {
            plans.push_back(every_n::plan_tail(v, o, n0_min));
            n0 = std::max(n0, plans.back().n0);
        }
        if (std::all_of(plans.begin(), plans.end(), [&](const auto &p) { return p.n0 == n0; }))
            return plans;
        n0_min = n0;
    }
}

// What the tail covers: the model itself (version 1), or by layers each
// head's virtual model (Theorem L), every one in version 1's scope.
std::vector<Model> tail_models(const Model &m, const CertifyOptions &o) {
    if (!every_n_by_layers(m)) {
        if (std::string why = every_n_out_of_scope(m, o); !why.empty()) {
            if (every_n_windows_out_of_scope(m, o).empty())
                why += "; tight --every-n brackets it by Theorem T, for which no certificate kind "
                       "exists yet";
            throw Undecided("certify --every-n: " + why + " (proofs/every-n.md, \"Scope\")");
        }
        return {m};
    }
    std::vector<Model> models;
    try {
        models = every_n::virtual_models(m, o);
    } catch (const Undecided &e) {
        throw Undecided(std::string("certify --every-n: ") + e.what());
    }
    for (const Model &v : models)
        if (const std::string why = every_n_out_of_scope(v, o); !why.empty())
            throw Undecided("certify --every-n by layers: " + v.name + ": " + why +
                            " (the tail of an every-n certificate covers version 1's scope, "
                            "proofs/every-n.md)");
    return models;
}

} // namespace

EveryNTail every_n_tail_at(const Model &m, const CertifyOptions &o, const Rational &beta) {
    const std::vector<Model> models = tail_models(m, o);
    if (beta <= 0) throw Undecided("certify --every-n: beta must be positive");
    // no heads at all (by layers, every head has its virtual model)
    if (!every_n_by_layers(m) && (m.layers.empty() || m.layers[0].heads.empty()))
        return {true, 1, 0, "", std::nullopt};
    // the least n0 whose tail certifies: the smaller n0, the smaller the
    // finite part (and its certificate) that covers the rest
    std::size_t first = 0;
    for (std::size_t n0_min = 2;; n0_min *= 2) {
        const std::vector<every_n::TailPlan> plans = plans_at_one_n0(models, o, n0_min);
        const std::size_t n0 = plans.front().n0;
        for (const auto &plan : plans)
            if (!plan.growth.empty()) {
                const EveryNResult u = unbounded(plan);
                EveryNTail t{false, n0, 0, u.note, u.growth_rate};
                return t;
            }
        if (first == 0) first = n0;
        if (n0 - 1 > o.n)
            return {false, first, 0,
                    "the tail bound does not certify beta " + to_string(beta) +
                        " with the tail starting at any position up to --n " + std::to_string(o.n) +
                        " (tight --every-n gives the least beta it certifies)",
                    std::nullopt};
        std::size_t terms = 0;
        bool all = true;
        for (const auto &plan : plans) {
            all = all && certified_rising(o, [&](Prec prec) {
                      return every_n::tail_meets(plan, beta, o.eps, prec);
                  });
            terms += plan.terms();
        }
        if (all) return {true, n0, terms, "", std::nullopt};
    }
}

namespace {

// Version 1 (Lemmas E1-E4 and the Theorem of proofs/every-n.md).
EveryNResult tight_every_n_tail(const Model &m, const CertifyOptions &o, const Rational &rel,
                                bool envelope_excess) {
    EveryNResult r;
    if (m.layers.empty() || m.layers[0].heads.empty()) {
        r.converged = true;
        r.note = "the model has no heads: every beta works at every length";
        return r;
    }
    for (std::size_t n0_min = 16;; n0_min *= 2) {
        const every_n::TailPlan plan = every_n::plan_tail(m, o, n0_min);
        if (!plan.growth.empty()) {
            EveryNResult u = unbounded(plan);
            if (plan.n0 - 1 <= o.n) add_envelope(u, plan, m, o, rel, envelope_excess);
            return u;
        }
        if (plan.n0 - 1 > o.n)
            throw Undecided("tight --every-n: the tail bound starts at position " +
                            std::to_string(plan.n0) + ", past --n " + std::to_string(o.n) +
                            " (the longest length examined exactly)");
        TightResult fin = finite_bracket(m, o, plan.n0 - 1, rel);
        r.n0 = plan.n0;
        r.n_finite = r.n_lower = plan.n0 - 1;
        r.finite_hi = fin.beta_hi;
        r.tail_hi = tail_beta(plan, o, rel, fin.beta_hi);
        r.tail_terms = plan.terms();
        r.beta_hi = std::max(fin.beta_hi, r.tail_hi);
        r.beta_lo = fin.beta_lo;
        r.lo_witness = fin.lo_witness;
        r.converged =
            r.beta_hi - r.beta_lo <= rel * r.beta_hi && (fin.lo_witness || r.beta_lo == 0);
        const bool tail_binds = r.tail_hi > fin.beta_hi;
        if (r.converged || !tail_binds || 2 * plan.n0 - 1 > o.n) break;
    }
    r.note = r.tail_hi > r.finite_hi
                 ? "the tail bound sets beta_hi (queries at positions >= n0, every length)"
                 : "the finite bracket sets beta_hi; the tail bound certifies every longer word "
                   "below it";
    return r;
}

} // namespace

EveryNResult tight_every_n(const Model &m, const CertifyOptions &o, const Rational &rel,
                           bool envelope_excess) {
    // version 1 where its scope holds; Theorem T where version 1 is out of
    // scope (a mask that looks forward, keys not affine) and T's holds;
    // Theorem L where heads lie past layer 1
    if (every_n_by_layers(m)) return every_n::tight_every_n_layers(m, o, rel);
    std::string why_windows;
    const std::optional<every_n::WindowPlan> windows = every_n::plan_windows(m, o, why_windows);
    if (std::string why = every_n_out_of_scope(m, o); !why.empty()) {
        if (windows) return every_n::tight_every_n_windows(m, o, rel, *windows);
        // one reason when both versions stop at the same condition
        if (why.find(why_windows) == std::string::npos) why += "; and Theorem T: " + why_windows;
        throw Undecided("tight --every-n: " + why + " (proofs/every-n.md, \"Scope\")");
    }
    try {
        return tight_every_n_tail(m, o, rel, envelope_excess);
    } catch (const Undecided &e) {
        if (!windows) throw;
        return every_n::tight_every_n_windows(m, o, rel, *windows);
    }
}

} // namespace tempcert
