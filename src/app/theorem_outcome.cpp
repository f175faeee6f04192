// The theorem catalogue and the theorem answers rendered
// (include/engine/tempcert/outcome.hpp).
#include "tempcert/error.hpp"
#include "tempcert/outcome.hpp"

#include <sstream>

namespace tempcert {

const std::vector<TheoremEntry> &theorem_catalogue() {
    static const std::vector<TheoremEntry> entries = {
        {"gap-lemma", "proofs/lemma-gt.md", "--n N --gap G --eps E [--beta B]",
         "beta >= ln((N-1)(1-eps)/eps)/gamma gives TV <= eps, tight on the extremal profile; with "
         "--beta, whether B suffices for every profile with N positions and gap gamma"},
        {"profile-vs-gap", "proofs/profile-bound.md", "MODEL --n N --eps E",
         "every head's profile bound is at most Lemma GT's beta_gap, with the ratio"},
        {"ltl-unbounded-pe", "proofs/ltl-construction.md",
         "FORMULA --alphabet a,b --range 2..64 --eps E [--beta B]",
         "compiled with features j, one constant beta certifies every n in the range (layerwise); "
         "with --beta, whether B does"},
        {"ltl-temperature-scaling", "proofs/ltl-construction.md",
         "FORMULA --alphabet a,b --range 2..64 --eps E [--scale S]",
         "compiled with features j/n, beta(n) = n ln((n-1)(1-eps)/eps) (times S) certifies every "
         "n; the tight beta(n) and its fitted growth"},
        {"counting-temperature", "proofs/counting-construction.md",
         "FORMULA --alphabet a,b --range 2..64 --eps E [--scale S]",
         "a counting formula's comparisons have gaps 1/(2(n+1)): beta(n) = 2(n+1) "
         "ln(n(1-eps)/eps) (times S) certifies every n; the tight beta(n) and its fitted growth"},
        {"ahat-simulation", "proofs/lemma-gt.md, proofs/layerwise.md",
         "MODEL --n N --eps E [--beta B]",
         "beta from the model's minimum gap (per layer for rounded multi-layer models) certifies "
         "every word up to n; with --beta, whether B does"},
    };
    return entries;
}

nlohmann::ordered_json to_json(const TheoremAnswer &t) {
    return {{"theorem", t.id},
            {"confirmed", t.outcome.confirmed},
            {"facts", t.outcome.lines},
            {"counterexample", t.outcome.counterexample}};
}

std::string to_text(const TheoremAnswer &t) {
    std::ostringstream out;
    for (const auto &l : t.outcome.lines)
        out << "  " << l << "\n";
    if (!t.outcome.confirmed) out << "counterexample: " << t.outcome.counterexample << "\n";
    out << "theorem " << t.id << ": " << (t.outcome.confirmed ? "confirmed" : "counterexample")
        << "\n";
    return out.str();
}

int exit_code(const TheoremAnswer &t) {
    return t.outcome.confirmed ? kExitOk : kExitRefuted;
}

nlohmann::ordered_json to_json(const TheoremList &) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto &t : theorem_catalogue())
        list.push_back({{"id", t.id},
                        {"proof", t.proof},
                        {"usage", std::string("tempcert theorem ") + t.id + " " + t.params},
                        {"claim", t.claim}});
    return list;
}

std::string to_text(const TheoremList &) {
    std::ostringstream out;
    for (const auto &t : theorem_catalogue())
        out << t.id << "  (" << t.proof << ")\n    tempcert theorem " << t.id << " " << t.params
            << "\n    " << t.claim << "\n";
    return out.str();
}

} // namespace tempcert
