// The small checker's soft pieces against naive references (docs/minicheck.md):
// softmax against MPFR at 1024 bits, a feed-forward sublayer on a box
// against exact evaluation at points of the box, read-out judgements on
// enclosures that straddle their decision points, and the expression
// language's canonical rendering; and the layerwise gap's closed form over
// a value set against every sequence of that set, scored one by one.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "evaluate.hpp"
#include "offers.hpp"
#include "value_gap.hpp"

#include <mpfr.h>

#include <random>

using namespace minicheck;

namespace {

// 1 / sum_k exp(beta (s_k - s_j)) at 1024 bits, round to nearest: within
// 2^-1000 or so of the true weight, another formula than the checker's
Q reference_weight(const std::vector<Q> &s, const Q &beta, std::size_t j) {
    mpfr_t sum, term, q;
    mpfr_inits2(1024, sum, term, q, (mpfr_ptr) nullptr);
    mpfr_set_zero(sum, 1);
    for (const auto &sk : s) {
        Q x = beta * (sk - s[j]);
        mpfr_set_q(term, x.get_mpq_t(), MPFR_RNDN);
        mpfr_exp(term, term, MPFR_RNDN);
        mpfr_add(sum, sum, term, MPFR_RNDN);
    }
    mpfr_ui_div(q, 1, sum, MPFR_RNDN);
    Q out;
    mpfr_get_q(out.get_mpq_t(), q);
    mpfr_clears(sum, term, q, (mpfr_ptr) nullptr);
    return out;
}

Q small(std::mt19937 &rng, int range = 6) {
    std::uniform_int_distribution<int> num(-range, range), den(1, 3);
    Q q(num(rng), den(rng));
    q.canonicalize(); // gmpxx compares canonical fractions only
    return q;
}

} // namespace

TEST_CASE("softmax encloses the weights, narrowly") {
    std::mt19937 rng(7);
    const Q slack(1, Q(mpz_class(1) << 900).get_num());
    for (int trial = 0; trial < 300; ++trial) {
        std::size_t n = 1 + rng() % 8;
        std::vector<Q> s;
        for (std::size_t j = 0; j < n; ++j)
            s.push_back(j > 0 && rng() % 3 == 0 ? s[rng() % j] : small(rng)); // ties too
        Q beta(1 + static_cast<long>(rng() % 40), 1 + static_cast<long>(rng() % 4));
        std::vector<Iv> scores;
        for (const auto &x : s)
            scores.emplace_back(x, 128);
        std::vector<Iv> p = softmax(scores, Iv(beta, 128));
        for (std::size_t j = 0; j < n; ++j) {
            Q ref = reference_weight(s, beta, j);
            CHECK(p[j].lower() <= ref + slack);
            CHECK(ref - slack <= p[j].upper());
            CHECK(p[j].upper() - p[j].lower() <= Q(1, Q(mpz_class(1) << 100).get_num()));
        }
    }
}

TEST_CASE("softmax with one memo over many queries encloses each one's weights") {
    // the walk's use: one beta, many score vectors sharing distances
    std::mt19937 rng(9);
    const Q beta(7, 2), slack(1, Q(mpz_class(1) << 900).get_num());
    ExpMemo memo;
    for (int trial = 0; trial < 300; ++trial) {
        std::size_t n = 1 + rng() % 6;
        std::vector<Q> s;
        for (std::size_t j = 0; j < n; ++j)
            s.push_back(small(rng, 4));
        std::vector<Iv> scores;
        for (const auto &x : s)
            scores.emplace_back(x, 128);
        std::vector<Iv> p = softmax(scores, Iv(beta, 128), &memo);
        for (std::size_t j = 0; j < n; ++j) {
            Q ref = reference_weight(s, beta, j);
            CHECK(p[j].lower() <= ref + slack);
            CHECK(ref - slack <= p[j].upper());
        }
    }
    CHECK(memo.size() > 10); // the memo was used
}

TEST_CASE("a feed-forward sublayer on a box contains its value at every point") {
    std::mt19937 rng(11);
    for (int trial = 0; trial < 300; ++trial) {
        std::size_t d = 1 + rng() % 3, h = 1 + rng() % 3;
        Vec centre, radius;
        for (std::size_t i = 0; i < d; ++i) {
            centre.push_back(small(rng));
            radius.push_back(rng() % 4 == 0 ? Q(0) : Q(1, 1 + static_cast<long>(rng() % 50)));
        }
        Ffn f;
        for (std::size_t k = 0; k < h; ++k) {
            Vec row;
            Q at_centre = 0;
            for (std::size_t i = 0; i < d; ++i) {
                row.push_back(small(rng, 3));
                at_centre += row.back() * centre[i];
            }
            f.w1.push_back(row);
            // half the units have their kink at the box's centre
            f.b1.push_back(rng() % 2 ? Q(-at_centre) : small(rng));
        }
        for (std::size_t c = 0; c < d; ++c) {
            Vec row;
            for (std::size_t k = 0; k < h; ++k)
                row.push_back(small(rng, 3));
            f.w2.push_back(row);
            f.b2.push_back(small(rng));
        }
        std::vector<Iv> box;
        for (std::size_t i = 0; i < d; ++i)
            box.emplace_back(centre[i] - radius[i], centre[i] + radius[i], 128);
        std::vector<Iv> y = soft_ffn(f, box, 128);
        for (int point = 0; point < 40; ++point) {
            Vec x;
            for (std::size_t i = 0; i < d; ++i) {
                long t =
                    point < 8 ? ((point >> i) & 1 ? 1 : -1) : static_cast<long>(rng() % 201) - 100;
                x.push_back(centre[i] + radius[i] * Q(t, point < 8 ? 1 : 100));
            }
            for (std::size_t c = 0; c < d; ++c) {
                Q exact = x[c] + f.b2[c];
                for (std::size_t k = 0; k < h; ++k) {
                    Q pre = f.b1[k];
                    for (std::size_t i = 0; i < d; ++i)
                        pre += f.w1[k][i] * x[i];
                    exact += f.w2[c][k] * (pre > 0 ? pre : Q(0));
                }
                CHECK(y[c].lower() <= exact);
                CHECK(exact <= y[c].upper());
            }
        }
    }
}

TEST_CASE("read-out judgements decide only what the enclosure decides") {
    Model linear, categorical;
    categorical.categorical = true;
    const Q tiny(1, Q(mpz_class(1) << 200).get_num()), eps(1, 10);
    auto iv = [](const Q &lo, const Q &hi) { return Iv(lo, hi, 128); };
    // decision, linear: the soft sign must be certain and agree
    CHECK(judge_readout(linear, {1}, {iv(tiny, 2 * tiny)}, eps, "decision", 128) == Tri::True);
    CHECK(judge_readout(linear, {-1}, {iv(-tiny, 0)}, eps, "decision", 128) == Tri::True);
    CHECK(judge_readout(linear, {1}, {iv(-2 * tiny, -tiny)}, eps, "decision", 128) == Tri::False);
    CHECK(judge_readout(linear, {-1}, {iv(-tiny, tiny)}, eps, "decision", 128) == Tri::Unknown);
    CHECK(judge_readout(linear, {1}, {iv(-tiny, tiny)}, eps, "decision", 128) == Tri::Unknown);
    CHECK(judge_readout(linear, {0}, {iv(1, 2)}, eps, "decision", 128) == Tri::Unknown);
    // decision, categorical: the soft label must be certainly on top
    CHECK(judge_readout(categorical, {1, 0}, {iv(Q(8, 10), Q(9, 10)), iv(Q(1, 10), Q(2, 10))}, eps,
                        "decision", 128) == Tri::True);
    CHECK(judge_readout(categorical, {1, 0}, {iv(Q(4, 10), Q(6, 10)), iv(Q(5, 10), Q(7, 10))}, eps,
                        "decision", 128) == Tri::Unknown);
    CHECK(judge_readout(categorical, {1, 0}, {iv(Q(1, 10), Q(2, 10)), iv(Q(8, 10), Q(9, 10))}, eps,
                        "decision", 128) == Tri::False);
    CHECK(judge_readout(categorical, {1, 1}, {iv(0, 1), iv(0, 1)}, eps, "decision", 128) ==
          Tri::True); // a hard tie: no output to keep
    // output: |y_S - y_H| <= eps on the whole enclosure
    CHECK(judge_readout(linear, {1}, {iv(Q(95, 100), Q(105, 100))}, eps, "output", 128) ==
          Tri::True);
    CHECK(judge_readout(linear, {1}, {iv(Q(85, 100), Q(95, 100))}, eps, "output", 128) ==
          Tri::Unknown);
    CHECK(judge_readout(linear, {1}, {iv(Q(7, 10), Q(8, 10))}, eps, "output", 128) == Tri::False);
    CHECK(judge_readout(linear, {1}, {iv(Q(12, 10), Q(13, 10))}, eps, "output", 128) == Tri::False);
}

TEST_CASE("expressions render as the canonical form writes them") {
    auto canon = [](const std::string &s) { return Expr::parse(s, "$").render(); };
    CHECK(canon("j / n") == "(j/n)");
    CHECK(canon("-3") == "(-3)");
    CHECK(canon("0.5*j") == "((1/2)*j)");
    CHECK(canon("1e3 + 2.5E-1") == "(1000+(1/4))");
    CHECK(canon("2^-1") == "(2^-1)");
    CHECK(canon("delta(j-1)*(n+1)") == "(delta((j-1))*(n+1))");
    CHECK(canon("log(n)") == "log(n)");
    CHECK(Expr::parse("(j-2)^2", "$").exact(5, 9, "$") == 9);
    CHECK(*parse_number("0123") == 123);
    CHECK(*parse_number("-0.125") == Q(-1, 8));
    CHECK(!parse_number("1/0"));
    CHECK(!parse_number(".5"));
    CHECK(!parse_number("1e-3", false));
    CHECK(!parse_number("1e12345"));
}

TEST_CASE("initial activations: the embedding plus every feature, BOS at position 0") {
    Model m = load_model(R"json({"format": "tempcert-model/1", "name": "t", "alphabet": ["a", "b"],
        "bos": "S", "width": 2,
        "embedding": {"a": [1, 0], "b": [0, 1], "S": ["1/2", "1/2"]},
        "positions": [{"dim": 0, "expr": "j + 1"}, {"dim": 1, "expr": "n - 2*j"},
                      {"dim": 1, "expr": "delta(j)"}],
        "layers": [{"heads": [], "ffn": {"w1": [[1, 0]], "w2": [[0], [0]]}}],
        "output": {"weights": [1, 0], "bias": 0}})json");
    std::vector<XVec> x = initial(m, {1, 0}); // "ba"
    REQUIRE(x.size() == 3);
    CHECK(x[0] == XVec{Q(3, 2), Q(7, 2)}); // S: (1/2 + 1, 1/2 + 2 + delta(0))
    CHECK(x[1] == XVec{Q(2), Q(1)});       // b at 1: (0 + 2, 1 + 2 - 2)
    CHECK(x[2] == XVec{Q(4), Q(-2)});      // a at 2: (1 + 3, 0 + 2 - 4)
    CHECK(positions(m, 2) == std::vector<std::size_t>{0, 1, 2});
}

namespace {

// The definition the closed form answers for: every sequence of values of
// S (BOS holding `bos`), every query, its maximum score minus the largest
// score below it, and whether the maximum is shared by different values.
ValueGap every_sequence(const Model &m, const Head &head, const std::vector<Vec> &S, const Vec *bos,
                        std::size_t n) {
    ValueGap out;
    for (std::size_t len = 1; len <= n; ++len) {
        std::vector<std::size_t> seq(len, 0);
        for (;;) {
            std::vector<Vec> x(len + 1), d(len + 1);
            for (std::size_t p : positions(m, len)) {
                d[p] = p == 0 ? *bos : S[seq[p - 1]];
                x[p] = d[p];
                Vec f = features_at(m, p, len);
                for (std::size_t c = 0; c < f.size(); ++c)
                    x[p][c] += f[c];
            }
            for (std::size_t i : positions(m, len)) {
                Vec q = mat_times(head.query, x[i]);
                std::vector<std::pair<Q, Vec>> seen; // score, W_V d
                for (std::size_t j : positions(m, len)) {
                    if (!mask_allows(head.mask, i, j)) continue;
                    Vec k = mat_times(head.key, x[j]);
                    Q s = 0;
                    for (std::size_t c = 0; c < k.size(); ++c)
                        s += q[c] * k[c];
                    seen.emplace_back(s, mat_times(head.value, d[j]));
                }
                if (seen.empty()) continue;
                Q top = std::max_element(seen.begin(), seen.end())->first;
                std::optional<Q> second;
                for (const auto &[s, v] : seen) {
                    if (s < top && (!second || s > *second)) second = s;
                    for (const auto &[t, w] : seen)
                        out.tie = out.tie || (s == top && t == top && v != w);
                }
                if (second && (!out.gap || top - *second < *out.gap)) out.gap = top - *second;
            }
            std::size_t p = len;
            while (p > 0 && seq[p - 1] + 1 == S.size())
                seq[--p] = 0;
            if (p == 0) break;
            ++seq[p - 1];
        }
    }
    return out;
}

Mat random_matrix(std::mt19937 &rng, std::size_t rows, std::size_t cols, int range) {
    Mat w(rows, Vec(cols));
    for (auto &row : w)
        for (auto &x : row)
            x = rng() % 3 == 0 ? Q(0) : small(rng, range);
    return w;
}

} // namespace

TEST_CASE("the layerwise gap over a value set is the least over every sequence of it") {
    std::mt19937 rng(11);
    const char *features[] = {"j", "j/n", "2*j - 3", "(j + 1)/(n + 1)", "n - j"};
    const Mask masks[] = {Mask::None, Mask::Causal, Mask::Strict, Mask::Future, Mask::StrictFuture};
    int with_gap = 0, with_tie = 0;
    for (int trial = 0; trial < 400; ++trial) {
        Model m;
        m.width = 3; // coordinate 2 holds the positional feature
        m.features.push_back({2, Expr::parse(features[rng() % 5], "$"), "$"});
        Head head;
        head.kind = Kind::Average;
        head.mask = masks[rng() % 5];
        head.query = random_matrix(rng, 2, 3, 2);
        head.key = random_matrix(rng, 2, 3, 2);
        head.value = random_matrix(rng, 1, 3, 1);
        head.value[0][2] = 0; // values never read a feature (a precondition)
        std::vector<Vec> S;
        for (std::size_t k = 0; k < 2 + rng() % 2; ++k)
            S.push_back({small(rng, 2), small(rng, 2), 0});
        std::optional<Vec> bos;
        if (rng() % 2) bos = Vec{small(rng, 2), small(rng, 2), 0};
        if (bos) m.bos = "S";
        const std::size_t n = 1 + rng() % 4;
        ValueGap closed;
        try {
            closed = value_gap(m, head, S, bos ? &*bos : nullptr, n, 1u << 30, "$");
        } catch (const Failure &f) {
            FAIL(f.what);
        }
        ValueGap brute = every_sequence(m, head, S, bos ? &*bos : nullptr, n);
        INFO("trial " << trial);
        CHECK(closed.gap.has_value() == brute.gap.has_value());
        if (closed.gap && brute.gap) CHECK(*closed.gap == *brute.gap);
        CHECK(closed.tie == brute.tie);
        with_gap += brute.gap.has_value();
        with_tie += brute.tie;
    }
    CHECK(with_gap > 200); // the comparison is not vacuous
    CHECK(with_tie > 20);
}

TEST_CASE("a mask's seen positions are the ones mask_allows lets through") {
    for (Mask mask : {Mask::None, Mask::Causal, Mask::Strict, Mask::Future, Mask::StrictFuture})
        for (long len = 1; len <= 6; ++len)
            for (long i = 0; i <= len; ++i) {
                auto [first, last] = seen_positions(mask, i, len);
                for (long j = 1; j <= len; ++j)
                    CHECK((first <= j && j <= last) == mask_allows(mask,
                                                                   static_cast<std::size_t>(i),
                                                                   static_cast<std::size_t>(j)));
            }
}

TEST_CASE("a key whose positional part is not affine is outside the class (exit 3)") {
    Model m;
    m.width = 2;
    m.features.push_back({1, Expr::parse("j^2", "$"), "$"});
    Head head{Kind::Average, Mask::Causal, "", "", {{1, 0}}, {{0, 1}}, {{1, 0}}, {{1}, {0}}};
    try {
        value_gap(m, head, {{1, 0}, {0, 0}}, nullptr, 4, 1u << 30, "$.layers[0].heads[0]");
        FAIL("expected a Failure");
    } catch (const Failure &f) {
        CHECK(f.code == 3);
        CHECK(f.what.find("not affine") != std::string::npos);
    }
    head.key = {{1, 0}}; // a key that does not read j^2: affine (constant) in j
    CHECK_NOTHROW(value_gap(m, head, {{1, 0}, {0, 0}}, nullptr, 4, 1u << 30, "$"));
}

namespace {

// Every configuration of the query's offers (one offer per position) with
// TV = 1/2 sum |p - u| against the uniform weights on its maximising set,
// enclosed at 256 bits: the largest TV's lower and upper ends.
std::pair<Q, Q> worst_configuration(const Query &q, const Q &beta) {
    std::vector<std::vector<Q>> offers;
    for (const Run &r : q.runs)
        for (long j = r.first; j <= r.last; ++j) {
            if (static_cast<std::size_t>(j) >= offers.size()) offers.resize(j + 1);
            offers[j].push_back(q.alpha[r.value] + q.c * j);
        }
    std::vector<std::vector<Q>> positions;
    for (auto &o : offers)
        if (!o.empty()) positions.push_back(o);
    Q lo = 0, hi = 0;
    std::vector<std::size_t> pick(positions.size(), 0);
    for (;;) {
        std::vector<Q> s;
        for (std::size_t j = 0; j < positions.size(); ++j)
            s.push_back(positions[j][pick[j]]);
        const Q top = *std::max_element(s.begin(), s.end());
        const long m = std::count(s.begin(), s.end(), top);
        Iv z(0, 256);
        std::vector<Iv> w;
        for (const Q &x : s) {
            w.push_back(exp(Iv(Q(beta * (x - top)), 256)));
            z = z + w.back();
        }
        Iv tv(0, 256);
        for (std::size_t j = 0; j < s.size(); ++j)
            tv = tv + abs(w[j] / z - Iv(s[j] == top ? Q(1, m) : Q(0), 256));
        tv = Q(1, 2) * tv;
        lo = std::max(lo, tv.lower());
        hi = std::max(hi, tv.upper());
        std::size_t j = 0;
        while (j < pick.size() && ++pick[j] == positions[j].size())
            pick[j++] = 0;
        if (j == pick.size()) break;
    }
    return {lo, hi};
}

bool judged_within(const Query &q, const Q &beta, const Q &eps) {
    std::uint64_t weights = 1u << 30;
    // one memo over every query and beta of the test, as a head's queries
    // share one: its exponents are the exact arguments, whatever beta
    static ExpMemo memo;
    try {
        judge_profile(q, beta, eps, 1024, weights, memo, "$");
        return true;
    } catch (const Failure &f) {
        REQUIRE(f.code == 1);
        return false;
    }
}

} // namespace

TEST_CASE("the profile judge against every configuration of a query") {
    std::mt19937 rng(5);
    int within = 0, refused = 0;
    for (int trial = 0; trial < 1000; ++trial) {
        Query q;
        const std::size_t values = 1 + rng() % 3;
        const bool integral = rng() % 2 == 0; // offers of two values meet at one score
        for (std::size_t v = 0; v < values; ++v)
            q.alpha.push_back(integral ? Q(static_cast<long>(rng() % 9) - 4) : small(rng, 4));
        q.c = rng() % 3 == 0 ? Q(0)
              : integral     ? Q(static_cast<long>(rng() % 2) * 2 - 1)
                             : small(rng, 2);
        const long len = 1 + static_cast<long>(rng() % 6);
        const long own = 1 + static_cast<long>(rng() % len);
        const bool bos = rng() % 3 == 0;
        q.runs.push_back({own, own, rng() % values}); // the query's own position
        if (bos) q.runs.push_back({0, 0, rng() % values});
        for (std::size_t v = 0; v < values; ++v) { // free blocks on either side
            if (own > 1) q.runs.push_back({1, own - 1, v});
            if (own < len) q.runs.push_back({own + 1, len, v});
        }
        // the floor: the largest least offer over the positions
        for (long j = bos ? 0 : 1; j <= len; ++j) {
            std::optional<Q> least;
            for (const Run &r : q.runs)
                if (r.first <= j && j <= r.last) {
                    Q s = q.alpha[r.value] + q.c * j;
                    if (!least || s < *least) least = s;
                }
            if (!q.any || *least > q.floor) q.floor = *least;
            q.any = true;
        }
        const Q beta(1 + static_cast<long>(rng() % 30), 1 + static_cast<long>(rng() % 8));
        auto [lo, hi] = worst_configuration(q, beta);
        INFO("trial " << trial);
        // eps just above the worst TV: within; just below: refused
        const Q above = hi * Q(1000000001, 1000000000), below = lo * Q(999999999, 1000000000);
        if (above > 0 && above < 1) {
            CHECK(judged_within(q, beta, above));
            ++within;
        }
        if (below > Q(1, 1000000)) {
            CHECK(!judged_within(q, beta, below));
            ++refused;
        }
    }
    CHECK(within > 500); // both sides are reached
    CHECK(refused > 500);
}

namespace {

// A random model the walk applies to: two layers of causal or strict heads
// (rightmost, leftmost or average), a feed-forward sublayer, features in j
// alone, BOS or not, a linear read-out at the last position.
Model random_backward_model(std::mt19937 &rng) {
    Model m;
    m.alphabet = {"a", "b"};
    m.width = 4;
    if (rng() % 2) m.bos = "S";
    for (std::size_t k = 0; k < 3; ++k)
        m.embedding.push_back({small(rng, 2), small(rng, 2), 0, 0});
    const char *features[] = {"j", "1/(j + 1)", "j*j - 3*j", "delta(j - 1)"};
    m.features.push_back({2, Expr::parse(features[rng() % 4], "$"), "$"});
    const Kind kinds[] = {Kind::Leftmost, Kind::Rightmost, Kind::Average};
    for (int l = 0; l < 2; ++l) {
        Layer layer;
        Head head;
        head.kind = kinds[rng() % 3];
        head.mask = rng() % 2 ? Mask::Causal : Mask::Strict;
        head.query = random_matrix(rng, 2, 4, 2);
        head.key = random_matrix(rng, 2, 4, 2);
        head.value = random_matrix(rng, 1, 4, 1);
        head.output = random_matrix(rng, 4, 1, 1);
        head.output[3][0] = 1;
        layer.heads.push_back(head);
        if (rng() % 2)
            layer.ffn = Ffn{random_matrix(rng, 2, 4, 1),
                            random_matrix(rng, 4, 2, 1),
                            {small(rng, 1), small(rng, 1)},
                            Vec(4, 0)};
        m.layers.push_back(layer);
    }
    m.weights = {0, 0, 0, 1};
    m.bias = small(rng, 1);
    return m;
}

} // namespace

TEST_CASE("the prefix walk's last position is the whole word's, hard and soft") {
    std::mt19937 rng(23);
    int compared = 0, tv_compared = 0;
    for (int trial = 0; trial < 60; ++trial) {
        Model m = random_backward_model(rng);
        REQUIRE(looks_back_only(m));
        const std::vector<Iv> betas{Iv(Q(3 + rng() % 5), 128), Iv(Q(3 + rng() % 5), 128)};
        PrefixWalk walk(m, betas, 128);
        Word w;
        auto visit = [&](auto &&self) -> void {
            walk.extend(w);
            const std::size_t p = w.size();
            HardWord whole = evaluate_hard(m, w);
            SoftWord soft = evaluate_soft(m, w, whole, betas, 128, true);
            Q hi = 0, lo = 0;
            for (std::size_t l = 0; l < 2; ++l)
                for (std::size_t i = p == 1 ? 0 : p; i <= p; ++i) {
                    const auto &a = walk.hard().queries[l][0][i];
                    const auto &qs = whole.queries[l][0]; // as long as its last query
                    const std::optional<HardQuery> b =
                        i < qs.size() ? qs[i] : std::optional<HardQuery>();
                    INFO("trial " << trial << " layer " << l << " query " << i);
                    REQUIRE(a.has_value() == b.has_value());
                    if (!a) continue;
                    CHECK(a->allowed == b->allowed);
                    CHECK(a->argmax == b->argmax);
                    CHECK(a->gap == b->gap);
                    CHECK(a->runner_up == b->runner_up);
                    CHECK(a->compare == b->compare);
                    ++compared;
                    const Iv &t = *soft.tv[l][0][i];
                    hi = std::max(hi, t.upper());
                    lo = std::max(lo, t.lower());
                }
            // the walk's TVs at the new queries are the whole word's: eps
            // just above the largest holds, just below it does not
            const Q delta(1, 1000000);
            CHECK(walk.judge_last(w, hi + delta, "tv").verdict == Tri::True);
            if (lo > delta) {
                CHECK(walk.judge_last(w, lo - delta, "tv").verdict == Tri::False);
                ++tv_compared;
            }
            if (p == 4) return;
            for (std::size_t c = 0; c < 2; ++c) {
                w.push_back(c);
                self(self);
                w.pop_back();
            }
        };
        for (std::size_t c = 0; c < 2; ++c) {
            w.assign(1, c);
            visit(visit);
        }
    }
    CHECK(compared > 3000);
    CHECK(tv_compared > 500);
}

// ---- sums of square roots (proofs/irrational-ties.md) ---------------------------

namespace {

// A random sum c_0 + sum_k c_k sqrt(u_k / d_k) with radicands chosen so that
// squares and square classes repeat (4, 8 = 4*2, 18 = 9*2, 1/2 ...), built
// both as a SqrtSum and, independently, in MPFR at 2048 bits.
struct Both {
    SqrtSum exact;
    Q reference; // within 2^-2000 or so of the value
};

Both random_sum(std::mt19937 &rng) {
    static const int radicands[] = {1, 2, 3, 4, 6, 8, 9, 12, 18, 50, 72, 98};
    mpfr_t acc, t;
    mpfr_inits2(2048, acc, t, (mpfr_ptr) nullptr);
    Q c0 = small(rng);
    SqrtSum x(c0);
    mpfr_set_q(acc, c0.get_mpq_t(), MPFR_RNDN);
    std::uniform_int_distribution<int> pick(0, 11), dpick(1, 3), terms(0, 3);
    for (int k = terms(rng); k > 0; --k) {
        Q c = small(rng), u(radicands[pick(rng)], dpick(rng));
        u.canonicalize();
        x = x + c * SqrtSum::sqrt_of(u);
        mpfr_set_q(t, u.get_mpq_t(), MPFR_RNDN);
        mpfr_sqrt(t, t, MPFR_RNDN);
        mpfr_mul_q(t, t, c.get_mpq_t(), MPFR_RNDN);
        mpfr_add(acc, acc, t, MPFR_RNDN);
    }
    Both b{x, 0};
    mpfr_get_q(b.reference.get_mpq_t(), acc);
    mpfr_clears(acc, t, (mpfr_ptr) nullptr);
    return b;
}

int reference_sign(const Q &q) { // zero within the reference's error counts as zero
    const Q tiny = Q(1) / Q(mpz_class(1) << 1900);
    return q > tiny ? 1 : q < -tiny ? -1 : 0;
}

} // namespace

TEST_CASE("sums of square roots: exact equality and signs against MPFR at 2048 bits") {
    std::mt19937 rng(20261207);
    int zeros = 0, nonzero = 0;
    for (int round = 0; round < 3000; ++round) {
        Both a = random_sum(rng), b = random_sum(rng);
        const std::pair<SqrtSum, Q> pairs[] = {{a.exact - b.exact, a.reference - b.reference},
                                               {a.exact * b.exact, a.reference * b.reference}};
        for (const auto &[x, ref] : pairs) {
            CHECK(x.sign() == reference_sign(ref));
            CHECK((x == 0) == (reference_sign(ref) == 0));
            Iv e = x.enclose(256);
            CHECK((e.at_least(ref - Q(1, 1000000)) && e.at_most(ref + Q(1, 1000000))));
            (reference_sign(ref) == 0 ? zeros : nonzero)++;
        }
        CHECK((a.exact < b.exact) == (reference_sign(a.reference - b.reference) < 0));
    }
    CHECK(zeros > 100); // the draw meets equal values by different routes
    CHECK(nonzero > 1000);
}

TEST_CASE("sums of square roots: identities hold exactly") {
    auto s = [](long p, long q = 1) { return SqrtSum::sqrt_of(Q(p, q)); };
    CHECK(s(8) == SqrtSum(2) * s(2));
    CHECK(s(2) * s(3) == s(6));
    CHECK(s(1, 2) == s(2) * SqrtSum(Q(1, 2)));
    CHECK(s(2) * s(8) == 4);
    CHECK((s(2) + s(3)) * (s(2) + s(3)) == 5 + SqrtSum(2) * s(6));
    CHECK(s(50).inverse("x") == s(2) * SqrtSum(Q(1, 10)));
    CHECK(s(2) + s(3) != s(5));
    CHECK(SqrtSum(Q(141421, 100000)) < s(2));
    CHECK(s(2) < Q(141422, 100000));
    CHECK((1 - SqrtSum(43) * s(1850).inverse("x")).text() == "1 + (-43/1850)*sqrt(1850)");
}
