// The certificate checker against the certifier, side by side in one run
// (proofs/certificate.md): has-ab-two-layer over {a, b} at n = 14 (32766 words),
// beta = 9, eps = 1/100, criterion tv, certify with its filter and prefix
// sharing, then check of the certificate it wrote (the checker's own soft
// model and prefix walk). Threads: the argument (1 or 2) for both.
#include "run_with_threads.hpp"
#include "tempcert/certificate.hpp"
#include "tempcert/check.hpp"

#include <benchmark/benchmark.h>

using namespace tempcert;

namespace {

const Model &two_layer() {
    static const Model m = load_model_file(
        std::string(TEMPCERT_SOURCE_DIR) + "/cases/models/has-ab-two-layer.json", Limits{});
    return m;
}

CertifyOptions options(unsigned threads) {
    CertifyOptions o;
    o.n = 14;
    o.eps = Rational(1, 100);
    o.limits.run = run_with_threads(threads);
    return o;
}

// The certificate certify writes for the case, as text.
std::string certificate_text(unsigned threads) {
    CertifyOptions o = options(threads);
    GapReport gaps = min_gaps_exhaustive(two_layer(), o.n, o.limits, o.precision);
    CertifyResult r = certify_auto(two_layer(), BetaSpec::constant(Rational(9)), o);
    CertificateInput in{&two_layer(), "has-ab-two-layer.json", o, "9", "user", nullptr, &gaps, &r};
    return certificate_json(in).dump(2);
}

void BM_certify(benchmark::State &state) {
    const unsigned threads = static_cast<unsigned>(state.range(0));
    for (auto _ : state) {
        CertifyOptions o = options(threads);
        GapReport gaps = min_gaps_exhaustive(two_layer(), o.n, o.limits, o.precision);
        CertifyResult r = certify_auto(two_layer(), BetaSpec::constant(Rational(9)), o);
        if (r.verdict != Verdict::Certified) state.SkipWithError("not certified");
        benchmark::DoNotOptimize(gaps);
    }
}

void BM_check(benchmark::State &state) {
    const unsigned threads = static_cast<unsigned>(state.range(0));
    const std::string text = certificate_text(threads);
    for (auto _ : state) {
        Limits limits;
        limits.run = run_with_threads(threads);
        CheckOutcome out = check_certificate_text(text, "bench", two_layer(), limits, {});
        if (!out.accepted) state.SkipWithError(out.reason.c_str());
    }
}

} // namespace

BENCHMARK(BM_certify)->Arg(1)->Arg(2)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();
BENCHMARK(BM_check)->Arg(1)->Arg(2)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();
