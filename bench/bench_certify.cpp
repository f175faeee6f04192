// Exhaustive certification with and without prefix sharing, side by side in
// one run: the two-layer causal case has-ab-two-layer over {a, b}
// at n = 14 (32766 words), beta = 9, eps = 1/100, criterion tv. Both must
// certify; the benchmark fails otherwise.
#include "tempcert/certify.hpp"

#include <benchmark/benchmark.h>

using namespace tempcert;

namespace {

const Model &two_layer() {
    static const Model m = load_model_file(
        std::string(TEMPCERT_SOURCE_DIR) + "/cases/models/has-ab-two-layer.json", Limits{});
    return m;
}

void run(benchmark::State &state, bool prefix) {
    CertifyOptions o;
    o.n = static_cast<std::size_t>(state.range(0));
    o.eps = Rational(1, 100);
    o.allow_prefix = prefix;
    BetaSpec beta = BetaSpec::constant(Rational(9));
    for (auto _ : state) {
        CertifyResult r = certify_auto(two_layer(), beta, o);
        if (r.verdict != Verdict::Certified) state.SkipWithError("not certified");
        state.counters["words"] = static_cast<double>(r.words);
    }
}

void BM_certify_plain(benchmark::State &state) {
    run(state, false);
}
void BM_certify_prefix(benchmark::State &state) {
    run(state, true);
}

void BM_gaps_plain(benchmark::State &state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(
            min_gaps_plain(two_layer(), static_cast<std::size_t>(state.range(0)), Limits{}, {}));
}
void BM_gaps_prefix(benchmark::State &state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(
            min_gaps_prefix(two_layer(), static_cast<std::size_t>(state.range(0)), Limits{}));
}

} // namespace

BENCHMARK(BM_certify_plain)->Arg(14)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_certify_prefix)->Arg(14)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_gaps_plain)->Arg(14)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_gaps_prefix)->Arg(14)->Iterations(1)->Unit(benchmark::kSecond);
