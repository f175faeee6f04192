// Symbolic minimum gap of a first-layer model with 4 symbols at n = 4096
// (issue 3: under a minute), and, side by side, exhaustive enumeration at the
// largest n it can do in similar time, for scale.
#include "tempcert/symbolic.hpp"

#include <benchmark/benchmark.h>

using namespace tempcert;

namespace {

const Model &four_symbols() {
    static const Model m = load_model_file(
        std::string(TEMPCERT_SOURCE_DIR) + "/cases/models/last-cd-is-d.json", Limits{});
    return m;
}

void BM_symbolic_gap(benchmark::State &state) {
    for (auto _ : state) {
        SymbolicReport r =
            analyse_symbolic(four_symbols(), static_cast<std::size_t>(state.range(0)), {});
        if (!r.gaps.min_gap || r.gaps.min_gap->exact() != 1)
            state.SkipWithError("wrong minimum gap");
    }
}

void BM_exhaustive_gap(benchmark::State &state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(min_gaps_exhaustive(
            four_symbols(), static_cast<std::size_t>(state.range(0)), Limits{}, {}));
}

} // namespace

BENCHMARK(BM_symbolic_gap)->Arg(1024)->Arg(4096)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_exhaustive_gap)->Arg(9)->Iterations(1)->Unit(benchmark::kSecond);

#include "tempcert/layerwise.hpp"

namespace {

void BM_layerwise(benchmark::State &state) {
    static const Model m = load_model_file(
        std::string(TEMPCERT_SOURCE_DIR) + "/cases/models/prev-a-earlier-b.json", Limits{});
    for (auto _ : state) {
        LayerwiseResult r = certify_layerwise(m, static_cast<std::size_t>(state.range(0)),
                                              Rational(1, 100), Limits{});
        if (!r.applies) state.SkipWithError("layerwise does not apply");
    }
}

} // namespace

BENCHMARK(BM_layerwise)->Arg(1000)->Arg(3000)->Iterations(1)->Unit(benchmark::kSecond);
