// The tight bracket of first-layer heads whose scores read no symbol, where
// features are irrational (sqrt, log): proofs/symbolic-gap.md, "Position-only
// scores with irrational features". Each query's score profile is the same in
// every word; Lemma 4 names its critical lengths; beta_hi is certified by
// outward-rounded sums at every critical configuration, beta_lo refuted by
// an evaluated word. Doubles only choose which beta to try.
#include "../eval/layer_ops.hpp"
#include "../gap/critical_lengths.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/error.hpp"

#include <mpfr.h>

#include <cmath>
#include <memory>

namespace tempcert {

namespace {

// W e for every embedding e (BOS's included) is one vector.
bool reads_no_symbol(const Matrix &w, const Model &m) {
    std::optional<Vector> first;
    for (const auto &[symbol, e] : m.embedding) {
        Vector v(w.size(), Rational(0));
        for (std::size_t r = 0; r < w.size(); ++r)
            for (std::size_t c = 0; c < e.size(); ++c)
                v[r] += w[r][c] * e[c];
        if (first && *first != v) return false;
        first = v;
    }
    return true;
}

// One head's queries and keys at every position (BOS at 0), exactly (with
// forms) and enclosed at prec.
struct HeadRows {
    std::vector<RealVector> q, k;
    std::vector<std::vector<Interval>> qe, ke;
};

HeadRows head_rows(const Model &m, const Head &head, std::size_t n, Prec prec) {
    HeadRows r;
    const Vector &word_symbol = m.embedding.at(m.alphabet.front());
    for (std::size_t p = 0; p <= n; ++p) {
        const bool bos = p == 0;
        if (bos && !m.has_bos()) {
            r.q.emplace_back(), r.k.emplace_back(), r.qe.emplace_back(), r.ke.emplace_back();
            continue;
        }
        RealVector x =
            detail::initial_activation(m, bos ? m.embedding.at(*m.bos) : word_symbol, p, n, prec);
        r.q.push_back(matvec(head.query, x, prec));
        r.k.push_back(matvec(head.key, x, prec));
        r.qe.emplace_back(), r.ke.emplace_back();
        for (const Real &v : r.q.back())
            r.qe.back().push_back(v.enclose(prec));
        for (const Real &v : r.k.back())
            r.ke.back().push_back(v.enclose(prec));
    }
    return r;
}

class Profiles {
  public:
    Profiles(const Model &m, const Head &head, std::size_t n, Prec prec)
        : m_(m), head_(head), n_(n), prec_(prec), rows_(head_rows(m, head, n, prec)) {}

    // s_ij enclosed; query i's row is computed once, when first asked for
    // (queries are taken one after another).
    const Interval &score(std::size_t i, std::size_t j) const {
        if (row_of_ != i) { // in place: a temporary per operation is most of the cost
            row_.assign(n_ + 1, Interval(prec_));
            Interval t(prec_);
            for (std::size_t p = m_.has_bos() ? 0 : 1; p <= n_; ++p)
                for (std::size_t r = 0; r < rows_.qe[i].size(); ++r) {
                    mpfi_mul(t.raw(), rows_.qe[i][r].raw(), rows_.ke[p][r].raw());
                    mpfi_add(row_[p].raw(), row_[p].raw(), t.raw());
                }
            row_of_ = i;
        }
        return row_[j];
    }

    // The sign of s_ij - s_il: disjoint enclosures, else the exact forms.
    int compare(std::size_t i, std::size_t j, std::size_t l) const {
        const Interval &a = score(i, j), &b = score(i, l);
        if (less(a, b) == Tri::True) return -1;
        if (less(b, a) == Tri::True) return 1;
        const Real x = dot_exact(i, j), y = dot_exact(i, l);
        if (equal(x, y, prec_) == Tri::True) return 0;
        if (less(x, y, prec_) == Tri::True) return -1;
        if (less(y, x, prec_) == Tri::True) return 1;
        throw Undecided("position-only scores: cannot order the scores of positions " +
                        std::to_string(j) + " and " + std::to_string(l) + " at query " +
                        std::to_string(i) + " (neither their enclosures nor exact forms do)");
    }

    // The query's critical lengths (Lemma 4): one for masks that look back;
    // the walk is symbolic.cpp's, its scores ordered by compare().
    std::vector<std::size_t> critical_lengths(std::size_t i) const {
        const std::size_t n0 = std::max<std::size_t>(i, 1);
        if (head_.mask == Mask::Causal || head_.mask == Mask::Strict) return {n0};
        std::vector<std::size_t> out;
        detail::lengths_before_rises(
            head_.mask, i, n0, n_, m_.has_bos(),
            [&](std::size_t j) {
                return Ordered{this, i, j};
            },
            out);
        out.push_back(n_);
        return out;
    }

    // The maximising positions of query i at length len (empty: none allowed).
    std::vector<std::size_t> argmax(std::size_t i, std::size_t len) const {
        std::vector<std::size_t> best;
        for (std::size_t j : allowed_positions(head_.mask, i, len, m_.has_bos())) {
            const int c = best.empty() ? 1 : compare(i, j, best.front());
            if (c > 0) best = {j};
            if (c == 0) best.push_back(j);
        }
        return best;
    }

    std::size_t allowed_count(std::size_t i, std::size_t len) const {
        return allowed_positions(head_.mask, i, len, m_.has_bos()).size();
    }

  private:
    // Query i's score at j, ordered by compare() (the critical-length walk).
    struct Ordered {
        const Profiles *pr;
        std::size_t i, j;
        bool operator<(const Ordered &o) const { return pr->compare(i, j, o.j) < 0; }
        bool operator>(const Ordered &o) const { return pr->compare(i, j, o.j) > 0; }
    };

    const Model &m_;
    const Head &head_;
    std::size_t n_;
    Prec prec_;
    HeadRows rows_;
    mutable std::size_t row_of_ = SIZE_MAX;
    mutable std::vector<Interval> row_;

    Real dot_exact(std::size_t i, std::size_t j) const {
        Real s(0L);
        for (std::size_t r = 0; r < rows_.q[i].size(); ++r)
            s = add(s, mul(rows_.q[i][r], rows_.k[j][r], prec_), prec_);
        return s;
    }
};

// A gap's enclosure as doubles rounded outward: 16 bytes where an MPFI
// interval takes about 100 (n = 1000 holds 10^6 of them).
struct GapEnds {
    double lo, hi;
};

// One critical configuration: its gaps, and where it is.
struct Config {
    std::size_t head = 0, query = 0, length = 0, k = 1;
    std::vector<GapEnds> gaps; // filled in a pass, then released
    std::vector<std::size_t> argmax;
    double estimate = -1; // of its threshold in doubles; -1: below an earlier one
};

// The gaps of configuration c (argmax set known) from its query's scores,
// rounded outward into doubles; with g, the head's least gap and its
// witness follow. Recomputed in each pass: n = 10^4 would hold 10^8 gaps.
void fill(const Profiles &pr, const Model &m, Config &c, Prec prec, HeadGap *g) {
    const Head &head = m.layers[0].heads[c.head];
    c.gaps.clear();
    const Interval top = pr.score(c.query, c.argmax.front()); // a copy: the row moves
    for (std::size_t j : allowed_positions(head.mask, c.query, c.length, m.has_bos())) {
        if (std::find(c.argmax.begin(), c.argmax.end(), j) != c.argmax.end()) continue;
        const Interval gap = sub(top, pr.score(c.query, j), prec);
        c.gaps.push_back(
            {mpfr_get_d(&gap.raw()->left, MPFR_RNDD), mpfr_get_d(&gap.raw()->right, MPFR_RNDU)});
        if (!(c.gaps.back().lo > 0))
            throw Undecided("position-only scores: a gap at query " + std::to_string(c.query) +
                            " is not shown positive");
        if (g && (!g->min_gap || less(gap, *g->min_gap->interval()) == Tri::True)) {
            g->min_gap = Real(gap);
            g->witness = Witness{Word(c.length, 0), 1, c.head + 1, c.query, c.argmax, j};
        }
    }
}

// sum e^{-beta d} at beta in doubles: a choice, not a claim.
double sum_at(const Config &c, double beta) {
    double x = 0;
    for (const GapEnds &d : c.gaps)
        x += std::exp(-beta * d.lo);
    return x;
}

// The threshold of sum e^{-beta d} = target in doubles: a choice, not a claim.
double estimate(const Config &c, double target) {
    if (static_cast<double>(c.gaps.size()) <= target) return 0;
    double least = INFINITY;
    for (const GapEnds &d : c.gaps)
        least = std::min(least, d.lo);
    double lo = 0, hi = std::log(static_cast<double>(c.gaps.size()) / target) / least;
    for (int step = 0; step < 200 && hi - lo > 1e-12 * hi; ++step) {
        const double mid = (lo + hi) / 2;
        (sum_at(c, mid) > target ? lo : hi) = mid;
    }
    return hi;
}

// X = sum e^{-beta d} at beta against target: True when X <= target for
// every gap in its enclosure, False when X > target for every one.
Tri within(const Config &c, const Rational &beta, const Rational &target, Prec prec) {
    const Interval minus_beta = neg(Interval(beta, prec));
    Interval x(prec), t(prec);
    for (const GapEnds &d : c.gaps) {       // in place, as in score()
        mpfi_interv_d(t.raw(), d.lo, d.hi); // doubles are exact at prec >= 53
        mpfi_mul(t.raw(), t.raw(), minus_beta.raw());
        mpfi_exp(t.raw(), t.raw());
        mpfi_add(x.raw(), x.raw(), t.raw());
    }
    return less_equal(x, target);
}

} // namespace

bool position_scores_apply(const Model &m, const CertifyOptions &o, std::string &why_not) {
    why_not.clear();
    if (o.criterion != Criterion::Tv)
        why_not = "the criterion is not tv";
    else if (m.layers.empty() || m.layers[0].heads.empty())
        why_not = "layer 1 has no heads";
    else if (m.features_use_n())
        why_not = "a feature reads n";
    for (std::size_t l = 1; why_not.empty() && l < m.layers.size(); ++l)
        if (!m.layers[l].heads.empty()) why_not = "a layer after the first has heads";
    for (std::size_t h = 0; why_not.empty() && h < m.layers[0].heads.size(); ++h) {
        const Head &head = m.layers[0].heads[h];
        if (!reads_no_symbol(head.query, m) || !reads_no_symbol(head.key, m))
            why_not = "head " + std::to_string(h + 1) + "'s scores read the symbols";
    }
    return why_not.empty();
}

TightResult tight_position_scores(const Model &m, const CertifyOptions &o, const Rational &rel) {
    std::string why;
    if (!position_scores_apply(m, o, why))
        throw Undecided("position-only scores do not apply: " + why);
    const Prec prec = o.precision.start;
    const Rational factor = o.eps / (1 - o.eps);
    TightResult t;
    t.gaps = empty_gap_report(m, o.n);
    t.gaps.method = GapMethod::Symbolic;
    std::vector<Config> configs;
    double best = 0; // the largest estimate so far
    // each query examines at least its last length's gaps, in each pass
    const double examined = static_cast<double>(o.n + 1) *
                            static_cast<double>(max_allowed(Mask::None, o.n, m.has_bos())) *
                            static_cast<double>(m.layers[0].heads.size()) / 2;
    if (examined > static_cast<double>(o.limits.max_queries))
        throw LimitError("position-only scores would examine about " +
                         std::to_string(static_cast<long long>(examined)) +
                         " score gaps or more, above --max-queries " +
                         std::to_string(o.limits.max_queries) + " (n^2 / 2 per head at least)");
    std::vector<std::unique_ptr<Profiles>> profiles;
    // the last queries first: in the lookups this method serves their
    // thresholds are the largest, so the estimates below skip most others
    for (std::size_t h = 0; h < m.layers[0].heads.size(); ++h) {
        const Head &head = m.layers[0].heads[h];
        profiles.push_back(std::make_unique<Profiles>(m, head, o.n, prec));
        const Profiles &pr = *profiles.back();
        for (std::size_t i = o.n + 1; i-- > (m.has_bos() ? 0 : 1);)
            for (std::size_t len : pr.critical_lengths(i)) {
                check_budget(o.limits);
                Config c{h, i, len, 1, {}, pr.argmax(i, len), -1};
                if (c.argmax.empty()) continue;
                c.k = c.argmax.size();
                if (c.k > 1 && head.kind != AttnKind::Average)
                    throw Undecided("position-only scores: layer 1 head " + std::to_string(h + 1) +
                                    " ties positions at query " + std::to_string(i) +
                                    ", which a unique-hard head cannot simulate here");
                fill(pr, m, c, prec, &t.gaps.heads[h]);
                if (c.gaps.empty()) continue;
                // the largest estimate chooses beta, the checks below decide: a
                // configuration whose sum at the largest estimate so far is
                // within its target cannot raise it (one pass, no bisection)
                const double target = static_cast<double>(factor) * static_cast<double>(c.k);
                c.estimate =
                    !configs.empty() && sum_at(c, best) <= target ? -1 : estimate(c, target);
                best = std::max(best, c.estimate);
                c.gaps = {}; // recomputed where needed
                configs.push_back(std::move(c));
            }
        const HeadGap &g = t.gaps.heads[h];
        if (g.min_gap && (!t.gaps.min_gap ||
                          less(*g.min_gap->interval(), *t.gaps.min_gap->interval()) == Tri::True))
            t.gaps.min_gap = g.min_gap;
    }
    t.beta_gap = model_beta_gap(t.gaps, o.eps, prec);
    t.kind = BracketKind::Threshold;
    if (configs.empty()) {
        t.note = "no query needs beta > 0";
        return t;
    }
    auto target_of = [&](const Config &c) {
        return static_cast<double>(factor) * static_cast<double>(c.k);
    };
    std::size_t top = 0;
    for (std::size_t c = 0; c < configs.size(); ++c)
        if (configs[c].estimate > configs[top].estimate) top = c;
    const double r = std::max(static_cast<double>(rel) / 4, 1e-12);
    double hi = configs[top].estimate * (1 + r);
    for (int round = 0;; ++round) {
        std::optional<std::size_t> failing;
        for (std::size_t c = 0; c < configs.size() && !failing; ++c) {
            check_budget(o.limits);
            Config &cf = configs[c];
            fill(*profiles[cf.head], m, cf, prec, nullptr);
            if (within(cf, Rational(hi), factor * cf.k, prec) != Tri::True) failing = c;
            if (cf.estimate < 0 && failing) cf.estimate = estimate(cf, target_of(cf));
            cf.gaps = {};
        }
        if (!failing) break;
        if (round >= 8)
            throw Undecided("position-only scores: beta_hi not certified after 8 rounds");
        const double e = configs[*failing].estimate;
        top = e > configs[top].estimate ? *failing : top;
        hi = std::max(hi * (1 + 4 * r), e * (1 + r));
    }
    t.beta_hi = Rational(hi);
    // beta_lo: below the top configuration's threshold, refuted by its word
    Config &c = configs[top];
    fill(*profiles[c.head], m, c, prec, nullptr);
    double lo = c.estimate * (1 - r);
    while (lo > 0 && within(c, Rational(lo), factor * c.k, prec) != Tri::False)
        lo *= 1 - 4 * r;
    t.beta_lo = Rational(lo);
    HeadProfile hp{1,
                   c.head + 1,
                   {t.beta_lo, t.beta_hi},
                   Witness{Word(c.length, 0), 1, c.head + 1, c.query, c.argmax, std::nullopt}};
    t.profile.heads.push_back(hp);
    t.profile.bound = {t.beta_lo, t.beta_hi};
    Violation v;
    if (judge_first_layer_witness(m, *hp.witness, BetaSpec::parse(to_string(t.beta_lo), 1), o, v) ==
        Tri::False) {
        t.lo_witness = v;
        t.certify_runs = 1;
    }
    t.converged = t.lo_witness && t.beta_hi - t.beta_lo <= rel * t.beta_hi;
    t.note = "position-only scores in enclosures (proofs/symbolic-gap.md): beta_hi certified at " +
             std::to_string(configs.size()) + " critical configurations";
    return t;
}

} // namespace tempcert
