// The profile bound (docs/semantics.md; proofs/profile-bound.md): for one query with
// maximising set M (k = |M|) and gaps d_j > 0 to the other allowed
// positions, TV(softmax_beta, uniform on M) = X / (k + X) with
// X(beta) = sum_j exp(-beta d_j), which is <= eps exactly when
// X(beta) <= c = k eps / (1 - eps). X decreases strictly, so the threshold is
// its unique root; the bound of a head is the largest threshold over all
// inputs and queries. For a single-layer model under tv it is the tight
// inverse temperature.
#include "tempcert/bounds.hpp"
#include "tempcert/error.hpp"

#include <algorithm>

namespace tempcert {

namespace {

// Tri for X(beta) <= c, at `prec`, raising precision to the cap.
Tri x_at_most(const std::vector<Rational> &d, const Rational &beta, const Rational &c, Prec prec) {
    for (Prec p = prec; p <= 8 * prec; p *= 2) {
        Interval x(p);
        Interval b(beta, p);
        for (const auto &dj : d)
            x = add(x, exp(neg(mul(b, dj, p)), p), p);
        Tri t = less_equal(x, c);
        if (t != Tri::Unknown) return t;
    }
    return Tri::Unknown;
}

} // namespace

Bracket profile_threshold(const std::vector<Rational> &d, std::size_t k, const Rational &eps,
                          const Rational &rel, Prec prec) {
    Rational c = Rational(static_cast<long>(k)) * eps / (1 - eps);
    if (Rational(static_cast<long>(d.size())) <= c) return {0, 0}; // X(0) = |d| <= c
    // Upper start: X(beta) <= |d| exp(-beta dmin) <= c once
    // beta >= ln(|d| / c) / dmin (the Lemma GT argument).
    Rational dmin = *std::min_element(d.begin(), d.end());
    Interval start = div(log(Interval(Rational(static_cast<long>(d.size())) / c, prec), prec),
                         Interval(dmin, prec), prec);
    Rational hi = round_decimal(start.upper_exact(), 30, true), lo = 0;
    if (x_at_most(d, hi, c, prec) != Tri::True)
        throw Undecided("profile bound: cannot certify X(beta) <= c at the Lemma GT start");
    while (hi - lo > rel * hi) {
        Rational mid = round_decimal((lo + hi) / 2, 30, true);
        if (mid >= hi || mid <= lo) break;
        Tri t = x_at_most(d, mid, c, prec);
        if (t == Tri::True)
            hi = mid;
        else if (t == Tri::False)
            lo = mid;
        else
            break; // X(mid) = c to working precision: the bracket stays sound
    }
    return {lo, hi};
}

const HeadProfile *ProfileReport::attaining() const {
    const HeadProfile *top = nullptr;
    for (const auto &h : heads)
        if (h.witness && (!top || h.bound.hi > top->bound.hi)) top = &h;
    return top;
}

ProfileReport profile_bound_plain(const Model &m, std::size_t n, const Rational &eps,
                                  const Rational &rel, const Limits &limits,
                                  const PrecisionPolicy &policy) {
    check_word_budget(m.alphabet.size(), n, limits.max_words);
    ProfileReport r;
    for (std::size_t l = 0; l < m.layers.size(); ++l)
        for (std::size_t h = 0; h < m.layers[l].heads.size(); ++h)
            r.heads.push_back(HeadProfile{l + 1, h + 1, {0, 0}, std::nullopt});
    for_each_word(m.alphabet.size(), n, [&](const Word &w) {
        check_budget(limits);
        Trace t = evaluate_hard(m, w, policy);
        std::size_t idx = 0;
        for (std::size_t l = 0; l < t.layers.size(); ++l)
            for (std::size_t h = 0; h < t.layers[l].heads.size(); ++h, ++idx) {
                HeadProfile &hp = r.heads[idx];
                for (const auto &q : t.layers[l].heads[h].queries) {
                    if (!q.gap) continue;
                    if (!q.gap->is_exact())
                        throw Undecided("profile bound: irrational scores are not supported");
                    Rational top = q.scores[0].exact();
                    for (const auto &s : q.scores)
                        top = std::max(top, s.exact());
                    std::vector<Rational> d;
                    for (const auto &s : q.scores)
                        if (s.exact() != top) d.push_back(top - s.exact());
                    std::size_t k = q.argmax.size();
                    // Skip queries whose threshold is certainly below the current lower end.
                    Rational c = Rational(static_cast<long>(k)) * eps / (1 - eps);
                    if (hp.bound.lo > 0 && x_at_most(d, hp.bound.lo, c, policy.start) == Tri::True)
                        continue;
                    // max over queries of thresholds in [lo_q, hi_q] lies in
                    // [max lo_q, max hi_q]; the witness attains the max lower end.
                    Bracket b = profile_threshold(d, k, eps, rel, policy.start);
                    if (!hp.witness || b.lo > hp.bound.lo) {
                        hp.bound.lo = b.lo;
                        hp.witness = Witness{w, l + 1, h + 1, q.query, q.argmax, q.runner_up};
                    }
                    hp.bound.hi = std::max(hp.bound.hi, b.hi);
                }
            }
        return true;
    });
    for (const auto &hp : r.heads) {
        r.bound.lo = std::max(r.bound.lo, hp.bound.lo);
        r.bound.hi = std::max(r.bound.hi, hp.bound.hi);
    }
    return r;
}

} // namespace tempcert
