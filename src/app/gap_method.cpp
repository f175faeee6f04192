// The gap question's method chooser (include/engine/tempcert/method.hpp).
#include "tempcert/error.hpp"
#include "tempcert/method.hpp"
#include "tempcert/symbolic.hpp"

namespace tempcert {

GapMethodAsked gap_method_asked(const std::string &name) {
    if (name == "auto") return GapMethodAsked::Auto;
    if (name == "symbolic") return GapMethodAsked::Symbolic;
    if (name == "exhaustive") return GapMethodAsked::Exhaustive;
    if (name == "plain") return GapMethodAsked::Plain;
    throw InputError("", "--method",
                     "expected auto, symbolic, exhaustive or plain, got \"" + name + "\"");
}

GapReport min_gaps(const Model &m, std::size_t n, GapMethodAsked asked, const Limits &limits,
                   const PrecisionPolicy &precision) {
    std::string why_not;
    if (asked == GapMethodAsked::Auto)
        asked =
            symbolic_applies(m, why_not) ? GapMethodAsked::Symbolic : GapMethodAsked::Exhaustive;
    switch (asked) {
    case GapMethodAsked::Symbolic: {
        SymbolicOptions so; // gaps only; the limits (time, interrupt, threads, queries) apply
        so.limits = limits;
        so.precision = precision;
        return analyse_symbolic(m, n, so).gaps;
    }
    case GapMethodAsked::Plain:
        return min_gaps_plain(m, n, limits, precision);
    default:
        return min_gaps_exhaustive(m, n, limits, precision);
    }
}

} // namespace tempcert
