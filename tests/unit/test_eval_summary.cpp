// eval --summary (src/eval/summary_eval.cpp) against the full traces of
// evaluate_hard and evaluate_soft: each head's least gap, largest TV and
// their queries, the bound on every TV and the read-outs, on random one-
// and multi-layer models.
#include "helpers.hpp"
#include "random_deep_model.hpp"
#include "random_model.hpp"
#include "tempcert/eval.hpp"

#include <doctest/doctest.h>

#include <random>

using namespace tempcert;
using namespace tempcert::test;

namespace {

Rational summary_lower(const Real &r) {
    return r.is_exact() ? r.exact() : r.interval()->lower_exact();
}

Rational summary_upper(const Real &r) {
    return r.is_exact() ? r.exact() : r.interval()->upper_exact();
}

// The extremes a full trace shows, computed the plain way.
HeadExtremes extremes_of(const HeadTrace &hard, const HeadTrace *soft) {
    HeadExtremes e;
    for (const auto &q : hard.queries) {
        if (!q.allowed.empty()) ++e.queries;
        if (q.gap && (!e.least_gap || summary_lower(*q.gap) < summary_lower(*e.least_gap))) {
            e.least_gap = *q.gap;
            e.least_gap_query = q.query;
        }
    }
    if (soft)
        for (const auto &q : soft->queries)
            if (q.tv && (!e.tv || summary_lower(*q.tv) > summary_lower(*e.tv))) {
                e.tv = *q.tv;
                e.tv_query = q.query;
            }
    return e;
}

void same_outputs(const std::vector<OutputValue> &a, const std::vector<OutputValue> &b) {
    REQUIRE(a.size() == b.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
        CHECK(a[k].position == b[k].position);
        CHECK(to_string(a[k].y) == to_string(b[k].y));
        CHECK(a[k].accept == b[k].accept);
        CHECK(a[k].decoded == b[k].decoded);
    }
}

// The summary on `threads` threads against the full traces (on one).
void compare_on(const Model &m, const Word &w, const BetaSpec &beta, unsigned threads = 1) {
    SoftOptions o;
    Trace hard = evaluate_hard(m, w);
    Trace soft = evaluate_soft(m, w, beta, hard, o);
    Run run;
    run.threads = threads;
    Limits limits;
    limits.run = &run;
    o.precision.budget = &limits;
    EvalSummary s = evaluate_summary(m, w, beta, o);
    REQUIRE(s.soft);
    CHECK(s.n == w.size());
    CHECK(s.soft->prec == soft.prec);
    CHECK(s.soft->width_reached == soft.width_reached);
    same_outputs(s.hard.outputs, hard.outputs);
    same_outputs(s.soft->outputs, soft.outputs);
    REQUIRE(s.heads.size() == m.layers.size());
    for (std::size_t l = 0; l < m.layers.size(); ++l)
        for (std::size_t h = 0; h < m.layers[l].heads.size(); ++h) {
            const HeadExtremes &got = s.heads[l][h];
            HeadExtremes want = extremes_of(hard.layers[l].heads[h], &soft.layers[l].heads[h]);
            CHECK(got.queries == want.queries);
            REQUIRE(got.least_gap.has_value() == want.least_gap.has_value());
            if (want.least_gap) {
                CHECK(to_string(*got.least_gap) == to_string(*want.least_gap));
                CHECK(got.least_gap_query == want.least_gap_query);
            }
            REQUIRE(got.tv.has_value() == want.tv.has_value());
            if (!want.tv) continue;
            CHECK(to_string(*got.tv) == to_string(*want.tv));
            CHECK(got.tv_query == want.tv_query);
            // tv_max encloses the largest TV: at least every lower end, at
            // most the largest upper end
            REQUIRE(got.tv_max);
            for (const auto &q : soft.layers[l].heads[h].queries)
                if (q.tv) CHECK(summary_upper(*q.tv) <= summary_upper(*got.tv_max));
            CHECK(summary_lower(*got.tv) <= summary_lower(*got.tv_max));
        }
}

} // namespace

TEST_CASE("eval --summary: the same extremes and read-outs as the full traces") {
    std::mt19937 rng(7);
    const char *betas[] = {"1", "3", "7/2", "10"};
    int compared = 0;
    for (unsigned seed = 1; seed <= 60; ++seed) {
        Model m = load_model_text(seed % 2 ? random_deep_model_json(seed) : random_model_json(seed),
                                  "random", Limits{});
        for (int trial = 0; trial < 3; ++trial) {
            std::size_t n = std::uniform_int_distribution<std::size_t>(1, 7)(rng);
            Word w(n);
            for (auto &c : w)
                c = static_cast<int>(
                    std::uniform_int_distribution<std::size_t>(0, m.alphabet.size() - 1)(rng));
            BetaSpec beta = BetaSpec::parse(betas[(seed + trial) % 4], m.layers.size());
            compare_on(m, w, beta);
            ++compared;
        }
    }
    CHECK(compared == 180);
}

TEST_CASE("eval --summary: hard only, and a refuting word's largest TV above eps") {
    Model m = load_case("earlier-b-strict");
    // b a^9: the last query averages over the one b before it at beta = 2,
    // far from its hard weights; the soft model is asked for nothing else
    Word w(10, 0);
    w[0] = 1;
    EvalSummary hard_only = evaluate_summary(m, w, std::nullopt);
    CHECK(!hard_only.soft);
    REQUIRE(hard_only.heads.size() == 1);
    CHECK(hard_only.heads[0][0].queries == 9); // strict: position 1 has none
    REQUIRE(hard_only.heads[0][0].least_gap);
    CHECK(hard_only.heads[0][0].least_gap->exact() == Rational(1));
    CHECK(!hard_only.heads[0][0].tv);
    EvalSummary s = evaluate_summary(m, w, BetaSpec::parse("2", 1));
    REQUIRE(s.heads[0][0].tv);
    CHECK(summary_lower(*s.heads[0][0].tv) > Rational(1, 2));
    CHECK(s.heads[0][0].tv_query == 10);
}

TEST_CASE("eval --summary on 3 threads: the same as the full traces on longer words") {
    // words longer than the 64 blocks a head's queries are cut into, so
    // that blocks hold several queries and their merge decides between them
    std::mt19937 rng(11);
    int compared = 0;
    for (unsigned seed = 1; seed <= (reduced() ? 6u : 16u); ++seed) {
        CAPTURE(seed);
        Model m = load_model_text(seed % 2 ? random_deep_model_json(seed) : random_model_json(seed),
                                  "random", Limits{});
        const std::size_t n = std::uniform_int_distribution<std::size_t>(65, 150)(rng);
        Word w(n);
        for (auto &c : w)
            c = static_cast<int>(
                std::uniform_int_distribution<std::size_t>(0, m.alphabet.size() - 1)(rng));
        compare_on(m, w, BetaSpec::parse(seed % 3 ? "3" : "10", m.layers.size()), 3);
        ++compared;
    }
    CHECK(compared >= 6);
}
