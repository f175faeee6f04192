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

// By Theorem T or L (no certificate kind covers them): every n at or above
// the supremum's certified upper end; below its refuted lower end, the
// first failure within the length of the word that refutes it; between
// the two, undecided.
HorizonResult horizon_by_bracket(const Model &m, const CertifyOptions &o, const BetaChoice &beta,
                                 const Rational &beta_value, const EveryNResult &sup) {
    const char *theorem = sup.by_layers ? "L" : "T";
    if (beta_value >= sup.beta_hi) {
        HorizonResult h;
        h.every_n = true;
        h.every_n_theorem = theorem;
        h.methods = {HorizonMethod::Symbolic};
        return h;
    }
    CertifyOptions upto = o;
    upto.n = sup.lo_witness && beta_value <= sup.beta_lo ? sup.lo_witness->word.size() : o.n;
    HorizonResult h = horizon(m, beta.second, upto);
    if (!h.first_failure && !h.undecided)
        h.undecided = "beta lies within the supremum's bracket [" +
                      to_decimal(sup.beta_lo, 10, false) + ", " +
                      to_decimal(sup.beta_hi, 10, true) + "] (proofs/every-n.md, Theorem " +
                      theorem + ")";
    return h;
}

} // namespace

HorizonResult horizon_every_n(const Model &m, const std::string &model_file,
                              const CertifyOptions &o, const BetaChoice &beta,
                              const Rational &beta_value) {
    EveryNResult sup = tight_every_n(m, o, Rational(1, 1000000), false);
    if (!sup.bounded) {
        // Lemma E3: the word family needs ln((n-2)(1-eps)/(3 eps)) * rate,
        // above beta from about n* on; horizon up to n* finds the first failure
        const double star = growth_failure_length(o.eps, sup.growth_rate, beta_value);
        CertifyOptions upto = o;
        if (!(star < static_cast<double>(o.limits.max_n))) {
            HorizonResult h = horizon(m, beta.second, upto);
            h.undecided = "no constant beta certifies every length (" + sup.note +
                          "): the first failure is past --max-n";
            return h;
        }
        upto.n = static_cast<std::size_t>(star);
        return horizon(m, beta.second, upto);
    }
    if (sup.windows || sup.by_layers) return horizon_by_bracket(m, o, beta, beta_value, sup);
    EveryNCertifyOutcome c = certify_every_n(m, model_file, o, beta, beta_value);
    if (c.verdict == Verdict::Certified) {
        HorizonResult h;
        h.every_n = true;
        h.every_n0 = c.tail.n0;
        h.methods = {HorizonMethod::Symbolic};
        return h;
    }
    // the shortest failure: horizon up to the refuting word's length, or
    // what horizon up to o.n certifies
    CertifyOptions upto = o;
    if (c.counterexample) upto.n = c.counterexample->word.size();
    HorizonResult h = horizon(m, beta.second, upto);
    if (!h.first_failure && !h.undecided) h.undecided = "every n is not certified: " + c.reason;
    return h;
}

Json to_json(const HorizonOutcome &o) {
    const Model &m = *o.model;
    const HorizonResult &h = o.result;
    if (h.every_n)
        return {{"model", m.source},
                {"beta", o.beta},
                {"eps", to_string(o.eps)},
                {"criterion", to_string(o.criterion)},
                {"max_n", nullptr},
                {"certified_up_to", "every"},
                {"every_n", true},
                {"n0", h.every_n_theorem.empty() ? Json(h.every_n0) : Json()},
                {"first_failure", nullptr},
                {"undecided", nullptr},
                {"method", h.every_n_theorem == "T"   ? "every-n-windows"
                           : h.every_n_theorem == "L" ? "every-n-layers"
                                                      : "every-n"},
                {"words", 0}};
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
    if (!h.every_n_theorem.empty()) {
        out << "certified for every n (beta " << o.beta << ", eps " << to_string(o.eps) << ", "
            << to_string(o.criterion) << ", Theorem " << h.every_n_theorem
            << " of proofs/every-n.md: beta is at least the supremum's certified upper "
               "end; no certificate kind covers it yet)\n";
        return out.str();
    }
    if (h.every_n) {
        out << "certified for every n (beta " << o.beta << ", eps " << to_string(o.eps) << ", "
            << to_string(o.criterion) << ", method every-n: the tail bound from position "
            << h.every_n0 << ", certify's argument below it; proofs/every-n.md)\n";
        return out.str();
    }
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
