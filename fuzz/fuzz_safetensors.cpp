// libFuzzer target for the safetensors reader (docs/import.md): any byte string
// either parses, and then every tensor decodes or is refused with
// InputError, or is refused with InputError; nothing else escapes, and a
// file that parses has tensors that tile its buffer exactly.
#include "tempcert/error.hpp"
#include "tempcert/safetensors.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace tempcert;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    std::string bytes(reinterpret_cast<const char *>(data), size);
    try {
        SafetensorsFile f = parse_safetensors(bytes, "fuzz.safetensors");
        std::size_t covered = 0;
        for (const auto &[name, t] : f.tensors) {
            covered += t.end - t.begin;
            if (t.end - t.begin != t.elements() * dtype_width(t.dtype)) std::abort();
            try {
                if (tensor_values(f, name).size() != t.elements()) std::abort();
            } catch (const InputError &) {
            }
        }
        if (covered != f.data.size()) std::abort();
    } catch (const InputError &) {
    }
    return 0;
}
