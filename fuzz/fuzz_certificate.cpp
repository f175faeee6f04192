// libFuzzer target: the certificate checker on arbitrary text against the
// bundled has-b model (n limited to 3 so that each run is short). It must
// never crash nor throw anything but the input-error kinds; a rejection is
// the normal answer. (Soundness of acceptance is tested by tests/cli/tamper.sh.)
#include "tempcert/certificate.hpp"
#include "tempcert/error.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace tempcert;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    static const Model m =
        load_model_file(std::string(TEMPCERT_SOURCE_DIR) + "/cases/models/has-b.json", Limits{});
    Limits lim;
    lim.max_n = 3; // keeps each run short
    lim.max_words = 100;
    try {
        CheckOutcome out =
            check_certificate_text(std::string(reinterpret_cast<const char *>(data), size), "fuzz",
                                   m, lim, PrecisionPolicy{128, 256});
        (void)out;
    } catch (const InputError &) {
    } catch (const LimitError &) {
    } catch (const Undecided &) {
    }
    return 0;
}
