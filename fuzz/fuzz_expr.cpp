// libFuzzer target: the expression parser and evaluator (positional
// features and beta).
#include "tempcert/error.hpp"
#include "tempcert/expr.hpp"

#include <cstdint>
#include <string>

using namespace tempcert;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size > 256) return 0;
    try {
        Expr e = Expr::parse(std::string(reinterpret_cast<const char *>(data), size));
        (void)e.canonical();
        for (long j = 0; j <= 3; ++j) {
            try {
                (void)e.eval(Rational(j), Rational(3), 128);
            } catch (const ExprError &) {
            } catch (const Undecided &) {
            }
        }
    } catch (const ExprError &) {
    }
    return 0;
}
