// A head's least gap over a value set; see value_gap.hpp.
#include "value_gap.hpp"
#include "forward.hpp"
#include "offers.hpp"

#include <algorithm>
#include <set>
#include <tuple>

namespace minicheck {
Vec mat_times(const Mat &w, const Vec &x) {
    Vec out(w.size(), 0);
    for (std::size_t r = 0; r < w.size(); ++r)
        for (std::size_t c = 0; c < x.size(); ++c)
            if (w[r][c] != 0) out[r] += w[r][c] * x[c];
    return out;
}

std::pair<long, long> seen_positions(Mask mask, long i, long len) {
    switch (mask) {
    case Mask::None:
        return {1, len};
    case Mask::Causal:
        return {1, std::min(i, len)};
    case Mask::Strict:
        return {1, std::min(i - 1, len)};
    case Mask::Future:
        return {std::max(i, 1L), len};
    case Mask::StrictFuture:
        return {std::max(i + 1, 1L), len};
    }
    return {1, 0};
}

long clamped(const mpz_class &x, long lo, long hi) {
    if (x < lo) return lo;
    if (x > hi) return hi;
    return x.get_si();
}

mpz_class floor_of(const Q &x) {
    mpz_class r;
    mpz_fdiv_q(r.get_mpz_t(), x.get_num_mpz_t(), x.get_den_mpz_t());
    return r;
}

mpz_class ceil_of(const Q &x) {
    mpz_class r;
    mpz_cdiv_q(r.get_mpz_t(), x.get_num_mpz_t(), x.get_den_mpz_t());
    return r;
}

Line::Line(const Q &d, const Q &slope) : delta(d), c(slope) {
    if (c == 0) return;
    Q root = -delta / c;
    below = c > 0 ? floor_of(root) : ceil_of(root);
    integral_root = root.get_den() == 1;
}

std::optional<Q> Line::least_positive(long lo, long hi) const {
    if (lo > hi) return std::nullopt;
    if (c == 0) return delta > 0 ? std::optional<Q>(delta) : std::nullopt;
    long k = c > 0 ? std::max(lo, clamped(below + 1, lo, hi + 1))
                   : std::min(hi, clamped(below - 1, lo - 1, hi));
    if (k < lo || k > hi) return std::nullopt;
    return delta + c * k;
}

bool Line::zero_in(long lo, long hi) const {
    if (lo > hi) return false;
    if (c == 0) return delta == 0;
    return integral_root && below >= lo && below <= hi;
}

Q dot(const Vec &a, const Vec &b) {
    Q acc = 0;
    for (std::size_t c = 0; c < a.size(); ++c)
        acc += a[c] * b[c];
    return acc;
}

namespace {
// What the head reads of each distinct value, W_Q d, W_K d and W_V d;
// the first `free` are S's, then BOS's when there is one.
struct Reads {
    std::vector<Vec> q, k, v;
    std::size_t free = 0;
};

Reads reads_of(const Head &head, const std::vector<Vec> &S, const Vec *bos) {
    Reads r;
    std::set<std::tuple<Vec, Vec, Vec>> seen;
    auto add = [&](const Vec &d) {
        r.q.push_back(mat_times(head.query, d));
        r.k.push_back(mat_times(head.key, d));
        r.v.push_back(mat_times(head.value, d));
    };
    for (const Vec &d : S)
        if (seen.emplace(mat_times(head.query, d), mat_times(head.key, d), mat_times(head.value, d))
                .second)
            add(d);
    r.free = r.q.size();
    if (bos) add(*bos);
    return r;
}

// At one length: W_K P(j) = k0 + j dk for every position j (checked, one
// position at a time: nothing of size n is kept; outside this checker's
// class otherwise). W_Q P(i) is computed per query (query_part).
struct Positional {
    Vec k0, dk;
};

Positional positional(const Model &m, const Head &head, std::size_t len, const std::string &path) {
    Positional t;
    const std::size_t first = m.bos ? 0 : 1;
    t.k0 = mat_times(head.key, features_at(m, first, len));
    t.dk = Vec(t.k0.size(), 0);
    if (len > first) {
        const Vec next = mat_times(head.key, features_at(m, first + 1, len));
        for (std::size_t c = 0; c < t.k0.size(); ++c)
            t.dk[c] = next[c] - t.k0[c];
    }
    for (std::size_t c = 0; c < t.k0.size(); ++c)
        t.k0[c] -= Q(static_cast<unsigned long>(first)) * t.dk[c];
    for (std::size_t j = first; j <= len; ++j) {
        const Vec kp = mat_times(head.key, features_at(m, j, len));
        for (std::size_t c = 0; c < t.k0.size(); ++c)
            if (kp[c] != t.k0[c] + Q(static_cast<unsigned long>(j)) * t.dk[c])
                unsupported(path, "the key's positional part is not affine in the position (j = " +
                                      std::to_string(j) + ", n = " + std::to_string(len) +
                                      "); this checker's gap needs scores alpha + c j");
    }
    return t;
}

// W_Q P(i): the query's positional part at position i of length len.
Vec query_part(const Model &m, const Head &head, long i, std::size_t len) {
    return mat_times(head.query, features_at(m, static_cast<std::size_t>(i), len));
}

Query query_at(const Head &head, const Reads &r, const Positional &t, const Vec &qp, long i,
               std::size_t a, long len, bool bos) {
    Query out;
    Vec q = r.q[a];
    for (std::size_t c = 0; c < q.size(); ++c)
        q[c] += qp[c];
    out.c = dot(q, t.dk);
    const Q base = dot(q, t.k0);
    for (const Vec &k : r.k)
        out.alpha.push_back(dot(q, k) + base);
    auto lift_floor = [&](const Q &least) {
        if (!out.any || least > out.floor) out.floor = least;
        out.any = true;
    };
    auto single = [&](long j, std::size_t value) {
        out.runs.push_back({j, j, value});
        lift_floor(out.alpha[value] + out.c * j);
    };
    auto block = [&](long first, long last) {
        if (first > last) return;
        Q least;
        for (std::size_t s = 0; s < r.free; ++s) {
            out.runs.push_back({first, last, s});
            Q at = out.alpha[s] + out.c * (out.c >= 0 ? last : first);
            if (s == 0 || at < least) least = at;
        }
        lift_floor(least);
    };
    if (bos && mask_allows(head.mask, static_cast<std::size_t>(i), 0)) single(0, r.free);
    auto [first, last] = seen_positions(head.mask, i, len);
    if (i >= 1 && first <= i && i <= last) {
        block(first, i - 1);
        single(i, a);
        block(i + 1, last);
    } else {
        block(first, last);
    }
    return out;
}

// The positions of run u whose offer is at least the floor.
std::pair<long, long> at_floor(const Query &q, const Run &u) {
    const Q &alpha = q.alpha[u.value];
    long first = u.first, last = u.last;
    if (q.c == 0) return alpha >= q.floor ? std::make_pair(first, last) : std::make_pair(1L, 0L);
    Q bound = (q.floor - alpha) / q.c; // offers >= floor: j >= bound (c > 0), j <= bound (c < 0)
    if (q.c > 0) first = clamped(ceil_of(bound), first, last + 1);
    if (q.c < 0) last = clamped(floor_of(bound), first - 1, last);
    return {first, last};
}

// Folds one query into `out`: every pair of offers at different positions,
// the first of which can be the maximum.
void fold(const Query &q, const Reads &r, ValueGap &out) {
    const std::size_t values = r.q.size();
    std::vector<std::optional<Line>> diffs(values * values);
    for (const Run &u : q.runs) {
        auto [first, last] = at_floor(q, u);
        if (first > last) continue;
        for (const Run &v : q.runs) {
            auto &d = diffs[u.value * values + v.value];
            if (!d) d.emplace(q.alpha[u.value] - q.alpha[v.value], q.c);
            const long lo = first - v.last, hi = last - v.first; // k = j_u - j_v != 0
            const bool differ = r.v[u.value] != r.v[v.value];
            for (auto [a, b] :
                 {std::make_pair(lo, std::min(hi, -1L)), std::make_pair(std::max(lo, 1L), hi)}) {
                auto g = d->least_positive(a, b);
                if (g && (!out.gap || *g < *out.gap)) out.gap = g;
                out.tie = out.tie || (differ && d->zero_in(a, b));
            }
        }
    }
}
} // namespace

ValueGap value_gap(const Model &m, const Head &head, const std::vector<Vec> &S, const Vec *bos,
                   std::size_t n, std::uint64_t budget, const std::string &path,
                   const ProfileRequest *profile) {
    const Reads r = reads_of(head, S, bos);
    bool uses_n = false;
    for (const auto &f : m.features)
        uses_n = uses_n || f.expr.uses(Expr::Op::N);
    // a backward-looking query's offers do not depend on later positions:
    // the query at the end of each length stands for all longer ones
    const bool last_only = !uses_n && (head.mask == Mask::Causal || head.mask == Mask::Strict);
    const double k = static_cast<double>(r.q.size()), dn = static_cast<double>(n);
    const double queries = (last_only ? dn : dn * (dn + 1) / 2) * k;
    if (queries * (1 + k * k) > static_cast<double>(budget))
        unsupported(path, "re-deriving its gap would examine more than --max-queries " +
                              std::to_string(budget) + " offers");
    // the profile judge: about n k maxima per query, each a few geometric
    // sums per value
    if (profile && queries * (dn + 1) * k * 4 * k > static_cast<double>(budget / 20))
        unsupported(path, "judging its profile would take more than --max-queries / 20 = " +
                              std::to_string(budget / 20) + " weights");
    // a query examined at the end of length len stands for every longer
    // length when last_only: judged at the least beta over those
    std::vector<Q> beta;
    std::uint64_t weights = budget / 20; // profile terms, each an exp
    if (profile) {                       // only now: n of them, affordable within the budget above
        beta = profile->lower_betas();
        for (std::size_t len = n; last_only && len-- > 1;)
            beta[len] = std::min(beta[len], beta[len + 1]);
    }
    ValueGap out;
    ExpMemo memo;
    auto examine = [&](const Query &q, std::size_t len, long i) {
        fold(q, r, out);
        if (profile)
            judge_profile(q, beta[len], profile->eps, profile->prec_cap, weights, memo,
                          path + ": the query at position " + std::to_string(i) + " of length " +
                              std::to_string(len));
    };
    Positional shared;
    if (!uses_n) shared = positional(m, head, n, path);
    for (std::size_t len = 1; len <= n; ++len) {
        Positional own;
        if (uses_n) own = positional(m, head, len, path);
        const Positional &t = uses_n ? own : shared;
        const long l = static_cast<long>(len);
        if (bos && (!last_only || len == 1))
            examine(query_at(head, r, t, query_part(m, head, 0, len), 0, r.free, l, true), len, 0);
        for (long i = last_only ? l : 1; i <= l; ++i) {
            const Vec qp = query_part(m, head, i, len);
            for (std::size_t a = 0; a < r.free; ++a)
                examine(query_at(head, r, t, qp, i, a, l, bos != nullptr), len, i);
        }
    }
    return out;
}
} // namespace minicheck
