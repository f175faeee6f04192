// libFuzzer target: the small checker (docs/minicheck.md) on arbitrary text.
// A first byte below 128: the rest is a certificate, checked against the
// bundled has-b model (n at most 3, so that each run is short); otherwise
// the rest is a model file, read and hashed. Every input must end in a
// verdict or a Failure (exit 1, 2 or 3); any other exception escapes and
// libFuzzer reports it, as it reports crashes and sanitizer errors.
#include "claims.hpp"

#include <cstdint>
#include <string>

using namespace minicheck;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    static const Model has_b =
        load_model(read_file(std::string(TEMPCERT_SOURCE_DIR) + "/cases/models/has-b.json"));
    if (size == 0) return 0;
    std::string text(reinterpret_cast<const char *>(data) + 1, size - 1);
    try {
        if (data[0] < 128) {
            Limits limits;
            limits.max_n = 3;
            limits.max_words = 100;
            limits.prec_cap = 256;
            (void)verify(parse_strict(text), has_b, limits);
        } else {
            (void)load_model(text);
        }
    } catch (const Failure &) {
    }
    return 0;
}
