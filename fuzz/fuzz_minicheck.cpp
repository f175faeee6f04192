// libFuzzer target: the small checker (docs/minicheck.md) on arbitrary text.
// A first byte below 128: the rest is a certificate, checked against the
// bundled has-ab-two-layer model if that byte is 64 to 95 ('@' to '_'),
// against has-b otherwise (exhaustive ones
// at n at most 3, layerwise and perturbation ones within a small query
// budget, so that each run is short); otherwise the rest is a model file,
// read and hashed. Every input must end in a
// verdict or a Failure (exit 1, 2 or 3); any other exception escapes and
// libFuzzer reports it, as it reports crashes and sanitizer errors.
#include "claims.hpp"

#include <cstdint>
#include <string>

using namespace minicheck;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    static const Model has_b =
        load_model(read_file(std::string(TEMPCERT_SOURCE_DIR) + "/cases/models/has-b.json"));
    static const Model two_layer = load_model(
        read_file(std::string(TEMPCERT_SOURCE_DIR) + "/cases/models/has-ab-two-layer.json"));
    if (size == 0) return 0;
    std::string text(reinterpret_cast<const char *>(data) + 1, size - 1);
    try {
        if (data[0] < 128) {
            Limits limits;
            limits.max_n = 3;
            limits.max_words = 100;
            limits.prec_cap = 256;
            limits.max_queries = 200000;
            limits.max_values = 1000;
            (void)verify(parse_strict(text), data[0] >= 64 && data[0] < 96 ? two_layer : has_b,
                         limits);
        } else {
            (void)load_model(text);
        }
    } catch (const Failure &) {
    }
    return 0;
}
