// Reading a model with many positional features (docs/reliability.md, Long steps obey Ctrl-C): the
// JSON library's callback parser, which tempcert used before and which
// scans a container's elements after each element ends, against
// parse_json_strict (a SAX handler over the library's DOM builder), on an
// array of N positional-feature objects as `import tracr` writes them
// (N = 10,001 positions x 39 coordinates is about 390,000). Then the whole
// model load of such a file.
#include "model/json_source.hpp"
#include "tempcert/model.hpp"

#include <benchmark/benchmark.h>

#include <string>

using namespace tempcert;

namespace {

// {"positions": [{"dim": k, "expr": "(v)*delta(j-p)"}, ...]} with N entries.
std::string positions_json(std::size_t n) {
    std::string s = "{\"positions\": [";
    for (std::size_t i = 0; i < n; ++i)
        s += std::string(i ? ", " : "") + "{\"dim\": " + std::to_string(i % 39) +
             ", \"expr\": \"(" + std::to_string(i * 7919 % 100003) + "/1048576)*delta(j-" +
             std::to_string(i / 39) + ")\"}";
    return s + "]}";
}

void BM_parse_callback(benchmark::State &state) {
    const std::string text = positions_json(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) {
        OJson doc = OJson::parse(text, [](int, OJson::parse_event_t, OJson &) { return true; });
        benchmark::DoNotOptimize(doc);
    }
}

void BM_parse_strict(benchmark::State &state) {
    const std::string text = positions_json(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) {
        OJson doc = parse_json_strict(text, "bench.json");
        benchmark::DoNotOptimize(doc);
    }
}

// A whole model: has-b's layers with N positional features on 4 coordinates.
void BM_load_model(benchmark::State &state) {
    const std::size_t n = static_cast<std::size_t>(state.range(0));
    std::string features;
    for (std::size_t i = 0; i < n; ++i)
        features += std::string(i ? ", " : "") + "{\"dim\": " + std::to_string(i % 4) +
                    ", \"expr\": \"(" + std::to_string(i % 1000 + 1) + "/1024)*delta(j-" +
                    std::to_string(i / 4) + ")\"}";
    const std::string text =
        "{\"format\": \"tempcert-model/1\", \"name\": \"bench\", \"alphabet\": [\"a\", \"b\"], "
        "\"bos\": null, \"width\": 4, \"embedding\": {\"a\": [1, 0, 0, 0], \"b\": [0, 1, 0, 0]}, "
        "\"positions\": [" +
        features +
        "], \"layers\": [], "
        "\"output\": {\"position\": \"last\", \"weights\": [0, 1, 0, 0], \"bias\": \"-1/2\"}}";
    for (auto _ : state) {
        Model m = load_model_text(text, "bench.json", Limits{});
        if (m.positions.size() != n) state.SkipWithError("wrong feature count");
    }
}

} // namespace

BENCHMARK(BM_parse_callback)->Arg(10000)->Arg(40000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_parse_strict)
    ->Arg(10000)
    ->Arg(40000)
    ->Arg(390000)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_load_model)->Arg(40000)->Arg(390000)->Iterations(1)->Unit(benchmark::kMillisecond);
