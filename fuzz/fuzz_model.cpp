// libFuzzer target: the model loader, then one hard and one soft evaluation
// of whatever loads. Bad input must end in InputError, LimitError or
// Undecided: anything else (a crash, a sanitizer report, another exception)
// is a bug.
#include "tempcert/error.hpp"
#include "tempcert/eval.hpp"

#include <cstdint>
#include <string>

using namespace tempcert;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    Limits lim;
    lim.max_width = 16;
    lim.max_entries = 4000;
    lim.max_layers = 4;
    lim.max_heads = 4;
    lim.max_alphabet = 8;
    lim.max_number_chars = 60;
    try {
        Model m =
            load_model_text(std::string(reinterpret_cast<const char *>(data), size), "fuzz", lim);
        (void)model_sha256(m);
        Word w{0, static_cast<int>(m.alphabet.size() - 1), 0};
        PrecisionPolicy p{128, 256};
        Trace h = evaluate_hard(m, w, p);
        (void)evaluate_soft(m, w, BetaSpec::parse("3", m.layers.size()), h,
                            SoftOptions{p, Rational(1, 1000)});
    } catch (const InputError &) {
    } catch (const LimitError &) {
    } catch (const Undecided &) {
    }
    return 0;
}
