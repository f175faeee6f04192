// libFuzzer target: the LTL parser, and for small formulas the compiler,
// checked against the direct semantics on every word up to length 4 (3 for
// models of more than 8 layers; a mismatch aborts: it is a wrong model, not
// just a crash).
#include "tempcert/enumerate.hpp"
#include "tempcert/error.hpp"
#include "tempcert/eval.hpp"
#include "tempcert/ltl.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace tempcert;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size > 200) return 0;
    static const std::vector<std::string> abc{"a", "b", "c"};
    try {
        Formula f = Formula::parse(std::string(reinterpret_cast<const char *>(data), size), abc);
        (void)f.to_string();
        if (f.nodes().size() > 12) return 0;
        for (auto pe : {PositionEncoding::Unbounded, PositionEncoding::Bounded}) {
            Model m = compile_formula(f, pe, false);
            // nested counting compiles into a dozen layers or more: words up
            // to 3 then (3 s under ASan at 4, a timeout on a loaded machine)
            const std::size_t longest = m.layers.size() > 8 ? 3 : 4;
            for_each_word(3, longest, [&](const Word &w) {
                Tri got = evaluate_hard(m, w).outputs.back().accept;
                if (got != (f.accepts(w) ? Tri::True : Tri::False)) std::abort();
                return true;
            });
        }
    } catch (const InputError &) {
    }
    return 0;
}
