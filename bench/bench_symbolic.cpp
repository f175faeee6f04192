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
