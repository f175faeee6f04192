// The double-interval filter and threads (proofs/double-filter.md), side by side in one run:
//  * one softmax per score vector of m scores: unsound plain double, the
//    filter (outward-rounded double intervals), MPFI at 128 bits;
//  * TV on a support of m scores that differ: the filter's k expm1 calls
//    against the pairwise k^2 it made before;
//  * exhaustive certification of has-ab-two-layer (two layers, causal and
//    strict masks, feed-forward) over {a, b} at n = 16, beta = 9,
//    eps = 1/100, tv: the plain MPFI path with no prefix sharing, prefix
//    sharing in MPFI, prefix sharing with the filter on 1 and 2 threads.
// Every certification must certify; the benchmark fails otherwise.
#include "../src/eval/attention_ops.hpp"
#include "../src/eval/soft_filter.hpp"
#include "run_with_threads.hpp"
#include "tempcert/certify.hpp"

#include <benchmark/benchmark.h>

#include <cmath>
#include <random>

using namespace tempcert;

namespace {

std::vector<Rational> scores(std::size_t m) {
    std::mt19937 rng(1);
    std::vector<Rational> s;
    for (std::size_t j = 0; j < m; ++j)
        s.push_back(Rational(static_cast<long>(rng() % 1000), 97));
    return s;
}

// The unsound reference: what a float implementation would do.
void BM_softmax_double(benchmark::State &state) {
    auto q = scores(static_cast<std::size_t>(state.range(0)));
    std::vector<double> s, w(q.size());
    for (const auto &x : q)
        s.push_back(x.convert_to<double>());
    const double beta = 9;
    for (auto _ : state) {
        double top = s[0];
        for (double x : s)
            top = std::max(top, x);
        double sum = 0;
        for (std::size_t j = 0; j < s.size(); ++j)
            sum += w[j] = std::exp(beta * (s[j] - top));
        for (double &x : w)
            x /= sum;
        benchmark::DoNotOptimize(w.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_softmax_filter(benchmark::State &state) {
    auto q = scores(static_cast<std::size_t>(state.range(0)));
    detail::DVector s;
    for (const auto &x : q)
        s.push_back(to_dinterval(x));
    const DInterval beta = DInterval::point(9);
    detail::DSoftmax sm; // storage reused, as the prefix evaluator does
    for (auto _ : state) {
        detail::softmax_filter(s, beta, sm);
        benchmark::DoNotOptimize(sm.weights.data());
    }
    state.SetItemsProcessed(state.iterations() * state.range(0));
}

// TV against the uniform weights on a support of all m positions whose
// scores differ in their enclosures (1/3 10^-15 apart, as a later layer's
// soft scores around one hard maximum): tv_filter's spread terms.
detail::DSoftmax support_scores(std::size_t m, std::vector<char> &support) {
    detail::DVector s;
    for (std::size_t j = 0; j < m; ++j)
        s.push_back(to_dinterval(Rational(static_cast<long>(j % 7), 3000000000000000L)));
    support.assign(m, 1);
    return detail::softmax_filter(s, DInterval::point(9));
}

void BM_tv_filter(benchmark::State &state) {
    std::vector<char> support;
    const detail::DSoftmax sm = support_scores(static_cast<std::size_t>(state.range(0)), support);
    for (auto _ : state)
        benchmark::DoNotOptimize(detail::tv_filter(support, sm));
    state.SetItemsProcessed(state.iterations() * state.range(0));
}

// The same TV by the pairwise spreads e_j expm1(beta (s_i - s_j)) that
// tv_filter summed before (k^2 expm1 calls): the side-by-side reference.
DInterval tv_pairwise(const std::vector<char> &on_support, const detail::DSoftmax &sm) {
    DInterval on = DInterval::point(0), off = DInterval::point(0);
    std::size_t k = 0;
    for (std::size_t a = 0; a < on_support.size(); ++a) {
        if (on_support[a])
            (on = add_exact_zero(on, sm.e[a]), ++k);
        else
            off = add_exact_zero(off, sm.e[a]);
    }
    DInterval denom = DInterval::point(static_cast<double>(k)) * (on + off), sum = share(off, on);
    for (std::size_t j = 0; j < on_support.size(); ++j) {
        if (!on_support[j]) continue;
        DInterval spread = DInterval::point(0);
        for (std::size_t i = 0; i < on_support.size(); ++i)
            if (i != j && on_support[i])
                spread = add_exact_zero(spread, sm.e[j] * expm1(sm.beta * (sm.s[i] - sm.s[j])));
        sum = sum + abs(add_exact_zero(off, spread)) / denom;
    }
    return sum * DInterval::point(0.5);
}

void BM_tv_pairwise_reference(benchmark::State &state) {
    std::vector<char> support;
    const detail::DSoftmax sm = support_scores(static_cast<std::size_t>(state.range(0)), support);
    for (auto _ : state)
        benchmark::DoNotOptimize(tv_pairwise(support, sm));
    state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_softmax_mpfi(benchmark::State &state) {
    auto q = scores(static_cast<std::size_t>(state.range(0)));
    RealVector s(q.begin(), q.end());
    const Real beta(9L);
    for (auto _ : state) {
        detail::Softmax sm = detail::softmax(s, beta, 128);
        benchmark::DoNotOptimize(sm.weights.data());
    }
    state.SetItemsProcessed(state.iterations() * state.range(0));
}

// Exact dot products of 16 small rationals (a model row times an
// activation): Real's machine-integer path against GMP rationals.
std::pair<Vector, std::vector<Rational>> dot_inputs() {
    std::mt19937 rng(3);
    Vector row;
    std::vector<Rational> x;
    for (int k = 0; k < 16; ++k) {
        row.push_back(Rational(static_cast<long>(rng() % 7) - 3, static_cast<long>(rng() % 3) + 1));
        x.push_back(Rational(static_cast<long>(rng() % 20), static_cast<long>(rng() % 4) + 1));
    }
    return {row, x};
}

void BM_exact_dot_small(benchmark::State &state) {
    auto [row, x] = dot_inputs();
    RealVector xr(x.begin(), x.end());
    for (auto _ : state)
        benchmark::DoNotOptimize(dot(row, xr, 128));
}

void BM_exact_dot_gmp(benchmark::State &state) {
    auto [row, x] = dot_inputs();
    for (auto _ : state) {
        Rational sum = 0;
        for (std::size_t k = 0; k < row.size(); ++k)
            if (row[k] != 0 && x[k] != 0) sum += row[k] * x[k];
        benchmark::DoNotOptimize(sum);
    }
}

const Model &two_layer() {
    static const Model m = load_model_file(
        std::string(TEMPCERT_SOURCE_DIR) + "/cases/models/has-ab-two-layer.json", Limits{});
    return m;
}

void certify(benchmark::State &state, bool prefix, bool filter, unsigned threads) {
    CertifyOptions o;
    o.n = static_cast<std::size_t>(state.range(0));
    o.eps = Rational(1, 100);
    o.allow_prefix = prefix;
    o.filter = filter;
    o.limits.run = run_with_threads(threads);
    BetaSpec beta = BetaSpec::constant(Rational(9));
    for (auto _ : state) {
        CertifyResult r = certify_auto(two_layer(), beta, o);
        if (r.verdict != Verdict::Certified) state.SkipWithError("not certified");
        state.counters["words"] = static_cast<double>(r.words);
        state.counters["fallbacks"] = static_cast<double>(r.filter_fallbacks);
    }
}

void BM_certify16_plain_mpfi(benchmark::State &s) {
    certify(s, false, false, 1);
}
void BM_certify16_prefix_mpfi(benchmark::State &s) {
    certify(s, true, false, 1);
}
void BM_certify16_filter_1thread(benchmark::State &s) {
    certify(s, true, true, 1);
}
void BM_certify16_filter_2threads(benchmark::State &s) {
    certify(s, true, true, 2);
}

} // namespace

BENCHMARK(BM_exact_dot_small);
BENCHMARK(BM_exact_dot_gmp);
BENCHMARK(BM_softmax_double)->Arg(16)->Arg(1024);
BENCHMARK(BM_softmax_filter)->Arg(16)->Arg(1024);
BENCHMARK(BM_softmax_mpfi)->Arg(16)->Arg(1024);
BENCHMARK(BM_tv_filter)->Arg(16)->Arg(1024);
BENCHMARK(BM_tv_pairwise_reference)->Arg(16)->Arg(1024);
BENCHMARK(BM_certify16_plain_mpfi)->Arg(16)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_certify16_prefix_mpfi)->Arg(16)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_certify16_filter_1thread)->Arg(16)->Iterations(3)->Unit(benchmark::kSecond);
BENCHMARK(BM_certify16_filter_2threads)->Arg(16)->Iterations(3)->Unit(benchmark::kSecond);
