// Symbolic minimum gap of a first-layer model with 4 symbols at n = 4096:
// the general scan (O(i |Sigma|) per query) against the affine closed form,
// each on 1 and 2 threads, and exhaustive enumeration at the largest n it
// can do in similar time, for scale. The profile bound of has-b (keys
// constant in the key position) by its closed form against the general
// scan at n = 1024 and 4096. The profile bound of first-is-a-bounded with
// the closed form's double filter and without it. Layerwise certification of the
// three-layer rounded case at n = 1000, 10000 and 100000 on 1 and 2 threads.
#include "run_with_threads.hpp"
#include "tempcert/every_n.hpp"
#include "tempcert/layerwise.hpp"
#include "tempcert/symbolic.hpp"

#include <benchmark/benchmark.h>

using namespace tempcert;

namespace {

const Model &four_symbols() {
    static const Model m = load_model_file(
        std::string(TEMPCERT_SOURCE_DIR) + "/cases/models/last-cd-is-d.json", Limits{});
    return m;
}

// Args: n, threads, closed form (0 or 1).
void BM_symbolic_gap(benchmark::State &state) {
    SymbolicOptions o;
    o.limits.run = run_with_threads(static_cast<unsigned>(state.range(1)));
    o.closed_form = state.range(2) != 0;
    for (auto _ : state) {
        SymbolicReport r =
            analyse_symbolic(four_symbols(), static_cast<std::size_t>(state.range(0)), o);
        if (!r.gaps.min_gap || r.gaps.min_gap->exact() != 1)
            state.SkipWithError("wrong minimum gap");
        if (r.closed_form_heads != (o.closed_form ? 1u : 0u))
            state.SkipWithError("closed form not used as asked");
    }
}

// The profile bound (what `tight` computes) over every query of every
// length up to n, one thread, with the closed forms (the bound over a
// symbol's maxima) or the general scan alone. Args: n, closed form (0 or 1).
void BM_symbolic_profile(benchmark::State &state) {
    SymbolicOptions o;
    o.limits.run = run_with_threads(1);
    o.eps = Rational(1, 100);
    o.rel = Rational(1, 1000000);
    o.closed_form = state.range(1) != 0;
    for (auto _ : state) {
        SymbolicReport r =
            analyse_symbolic(four_symbols(), static_cast<std::size_t>(state.range(0)), o);
        if (r.profile.bound.hi <= 0) state.SkipWithError("no profile bound");
    }
}

// The profile bound of has-b, one thread. Args: n, closed form (0 or 1).
void BM_constant_key_profile(benchmark::State &state) {
    static const Model m =
        load_model_file(std::string(TEMPCERT_SOURCE_DIR) + "/cases/models/has-b.json", Limits{});
    SymbolicOptions o;
    o.limits.run = run_with_threads(1);
    o.eps = Rational(1, 100);
    o.rel = Rational(1, 1000000);
    o.closed_form = state.range(1) != 0;
    for (auto _ : state) {
        SymbolicReport r = analyse_symbolic(m, static_cast<std::size_t>(state.range(0)), o);
        if (r.profile.bound.hi <= 0) state.SkipWithError("no profile bound");
        if (r.closed_form_heads != (o.closed_form ? 1u : 0u))
            state.SkipWithError("closed form not used as asked");
    }
}

// The profile bound of first-is-a-bounded (feature j/n: every length has
// its own tables, so every query of every length is scanned), one thread,
// with the closed form's double filter or without it (every exact step).
// Args: n, filter (0 or 1).
void BM_bounded_profile(benchmark::State &state) {
    static const Model m = load_model_file(
        std::string(TEMPCERT_SOURCE_DIR) + "/cases/models/first-is-a-bounded.json", Limits{});
    SymbolicOptions o;
    o.limits.run = run_with_threads(1);
    o.eps = Rational(1, 100);
    o.rel = Rational(1, 1000000);
    o.filter = state.range(1) != 0;
    for (auto _ : state) {
        SymbolicReport r = analyse_symbolic(m, static_cast<std::size_t>(state.range(0)), o);
        if (r.profile.bound.hi <= 0) state.SkipWithError("no profile bound");
        if (r.closed_form_heads != 1u) state.SkipWithError("closed form not used");
    }
}

void BM_exhaustive_gap(benchmark::State &state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(min_gaps_exhaustive(
            four_symbols(), static_cast<std::size_t>(state.range(0)), Limits{}, {}));
}

// Args: n, threads.
void BM_layerwise(benchmark::State &state) {
    static const Model m = load_model_file(
        std::string(TEMPCERT_SOURCE_DIR) + "/cases/models/prev-a-earlier-b.json", Limits{});
    Limits lim;
    lim.run = run_with_threads(static_cast<unsigned>(state.range(1)));
    for (auto _ : state) {
        LayerwiseResult r =
            certify_layerwise(m, static_cast<std::size_t>(state.range(0)), Rational(1, 100), lim);
        if (!r.applies) state.SkipWithError("layerwise does not apply");
    }
}

// The layerwise need with profiles of every-a-after-b-bounded (features j/n:
// every length has its own position tables, its layer-1 and layer-4 heads
// scan every query of every length), one thread. Arg: n.
void BM_layerwise_bounded(benchmark::State &state) {
    static const Model m = load_model_file(
        std::string(TEMPCERT_SOURCE_DIR) + "/cases/models/every-a-after-b-bounded.json", Limits{});
    Limits lim;
    lim.run = run_with_threads(1);
    for (auto _ : state) {
        LayerwiseResult r = certify_layerwise(m, static_cast<std::size_t>(state.range(0)),
                                              Rational(1, 100), lim, true);
        if (!r.applies) state.SkipWithError("layerwise does not apply");
    }
}

} // namespace

// The profile bound of the quadratic lookup (Args: n, mode, model). Mode 0
// every length in rationals, 1 critical lengths in rationals, 2 critical
// lengths with the scores in machine integers (proofs/symbolic-gap.md,
// Lemma 5); model 0 no mask, 1 causal (one length per query: modes 1 and 2
// differ by the integers alone).
void BM_position_only_profile(benchmark::State &state) {
    static const char *names[] = {"quadratic-lookup", "quadratic-lookup-causal"};
    const Model m = load_model_file(std::string(TEMPCERT_SOURCE_DIR) + "/cases/literature/" +
                                        names[state.range(2)] + ".json",
                                    Limits{});
    SymbolicOptions o;
    o.limits.run = run_with_threads(1);
    o.eps = Rational(1, 100);
    o.rel = Rational(1, 1000000);
    o.critical_lengths = state.range(1) != 0;
    o.integer_scores = state.range(1) == 2;
    const bool critical = o.critical_lengths && state.range(2) == 0;
    for (auto _ : state) {
        SymbolicReport r = analyse_symbolic(m, static_cast<std::size_t>(state.range(0)), o);
        if (r.profile.bound.hi <= 0) state.SkipWithError("no profile bound");
        if (r.critical_length_heads != (critical ? 1u : 0u))
            state.SkipWithError("critical lengths not used as asked");
        if ((r.integer_queries > 0) != o.integer_scores)
            state.SkipWithError("integer scores not used as asked");
    }
}

// tight --every-n on the bundled single-layer cases in its scope
// (proofs/every-n.md), one thread, beside tight at n = 1000 and 10^4 on
// the same model. Args: case (0 has-b, 1 last-cd-is-d, 2 prev-is-a-bos,
// 3 earlier-b-strict), n (0: every n).
void BM_tight_every_n(benchmark::State &state) {
    static const char *names[] = {"has-b", "last-cd-is-d", "prev-is-a-bos", "earlier-b-strict"};
    const Model m = load_model_file(std::string(TEMPCERT_SOURCE_DIR) + "/cases/models/" +
                                        names[state.range(0)] + ".json",
                                    Limits{});
    CertifyOptions o;
    o.limits.run = run_with_threads(1);
    o.eps = Rational(1, 100);
    const Rational rel(1, 1000000);
    for (auto _ : state) {
        if (state.range(1) == 0) {
            o.n = kEveryNLongestExact;
            EveryNResult r = tight_every_n(m, o, rel);
            if (r.bounded && !r.converged) state.SkipWithError("not converged");
        } else {
            o.n = static_cast<std::size_t>(state.range(1));
            TightResult r = tight_symbolic(m, o, rel);
            if (!r.converged) state.SkipWithError("not converged");
        }
    }
    state.SetLabel(names[state.range(0)]);
}

BENCHMARK(BM_tight_every_n)
    ->ArgsProduct({{0, 1, 2, 3}, {0, 1000, 10000}})
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_layerwise_bounded)
    ->Arg(500)
    ->Arg(1000)
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_symbolic_gap)
    ->Args({4096, 1, 0})
    ->Args({4096, 2, 0})
    ->Args({4096, 1, 1})
    ->Args({4096, 2, 1})
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_symbolic_profile)
    ->Args({400, 0})
    ->Args({400, 1})
    ->Args({1600, 0})
    ->Args({1600, 1})
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_constant_key_profile)
    ->Args({1024, 0})
    ->Args({1024, 1})
    ->Args({4096, 0})
    ->Args({4096, 1})
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_bounded_profile)
    ->Args({300, 0})
    ->Args({300, 1})
    ->Args({600, 0})
    ->Args({600, 1})
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_exhaustive_gap)->Arg(9)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_layerwise)
    ->Args({1000, 1})
    ->Args({10000, 1})
    ->Args({10000, 2})
    ->Args({100000, 1})
    ->Args({100000, 2})
    ->Iterations(3)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_position_only_profile)
    ->Args({100, 0, 0})
    ->Args({100, 1, 0})
    ->Args({200, 0, 0})
    ->Args({200, 1, 0})
    ->Args({1000, 1, 0})
    ->Args({1000, 2, 0})
    ->Args({10000, 2, 0})
    ->Args({1000, 1, 1})
    ->Args({1000, 2, 1})
    ->Args({4000, 1, 1})
    ->Args({4000, 2, 1})
    ->Args({10000, 2, 1})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
