// The horizon answer rendered (include/engine/tempcert/outcome.hpp).
#include "tempcert/certificate.hpp"
#include "tempcert/error.hpp"
#include "tempcert/outcome.hpp"
#include "tempcert/word.hpp"

#include <sstream>

namespace tempcert {

namespace {

using Json = nlohmann::ordered_json;

// A counterexample as certificates write it (violation_json), with its length.
Json failure_json(const Violation &v, const Model &m) {
    Json j{{"n", v.word.size()}};
    j.update(violation_json(v, m));
    return j;
}

} // namespace

Json to_json(const HorizonOutcome &o) {
    const Model &m = *o.model;
    const HorizonResult &h = o.result;
    return {{"model", m.source},
            {"beta", o.beta},
            {"eps", to_string(o.eps)},
            {"criterion", to_string(o.criterion)},
            {"max_n", h.max_n},
            {"certified_up_to", h.certified_up_to},
            {"first_failure", h.first_failure ? failure_json(*h.first_failure, m) : Json()},
            {"undecided", h.undecided ? Json(*h.undecided) : Json()},
            {"method", h.methods_text()},
            {"words", h.words}};
}

std::string to_text(const HorizonOutcome &o) {
    const Model &m = *o.model;
    const HorizonResult &h = o.result;
    std::ostringstream out;
    out << "certified up to n = " << h.certified_up_to << " of " << h.max_n << " (beta " << o.beta
        << ", eps " << to_string(o.eps) << ", " << to_string(o.criterion) << ", method "
        << (h.methods.empty() ? "none" : h.methods_text()) << ")\n";
    if (h.first_failure)
        out << "first failure: n = " << h.first_failure->word.size() << ", word "
            << format_word(h.first_failure->word, m.alphabet) << ": " << h.first_failure->detail
            << "\n";
    if (h.undecided)
        out << "undecided beyond n = " << h.certified_up_to << ": " << *h.undecided << "\n";
    return out.str();
}

int exit_code(const HorizonOutcome &) {
    return kExitOk;
}

} // namespace tempcert
