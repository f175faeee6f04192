// certify --every-n: the tail bound from n0 on and a finite certificate for
// the words up to n0 - 1 (proofs/every-n.md, Theorem), and its certificate
// (docs/certificates.md, "every-n").
#include "render_parts.hpp"
#include "tempcert/error.hpp"
#include "tempcert/outcome.hpp"
#include "tempcert/word.hpp"

#include <sstream>

namespace tempcert {

namespace {

using Json = nlohmann::ordered_json;

// The longest words the refutation search below beta's need examines.
constexpr std::size_t kRefutationSearch = 256;
// With no constant beta, the longest refuting word searched for.
constexpr std::size_t kGrowthSearch = 20000;

CertJson finite_certificate(const CertifyAnswer &a) {
    return std::visit(
        [](const auto &c) -> CertJson {
            using T = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<T, CertifyOutcome>) {
                return certificate_of(c);
            } else if constexpr (std::is_same_v<T, LayerwiseCertifyOutcome>) {
                return layerwise_certificate_json(*c.model, c.model->source, c.analysis, c.options,
                                                  c.beta, c.beta_source);
            } else {
                return perturbation_certificate_json(*c.model, c.model->source, c.run, c.options,
                                                     c.beta, c.beta_source);
            }
        },
        a);
}

} // namespace

EveryNCertifyOutcome certify_every_n(const Model &m, const std::string &model_file,
                                     const CertifyOptions &o, const BetaChoice &beta,
                                     const Rational &beta_value) {
    EveryNCertifyOutcome c;
    c.model = &m;
    c.options = o;
    c.beta = beta.first;
    c.tail = every_n_tail_at(m, o, beta_value);
    // the words up to n0 - 1: by layers where that argument certifies
    // (no enumeration, quick to check), else certify's own chooser
    CertifyOptions at = o;
    at.n = std::max<std::size_t>(c.tail.n0, 2) - 1;
    if (c.tail.certified) {
        try {
            c.finite = certify_chosen(m, model_file, at, CertifyMethodAsked::Layerwise, beta);
        } catch (const Undecided &) {
        }
        // by layers (Theorem L) the finite part is the layerwise argument's:
        // its value sets are what the tail's virtual models read
        if ((!c.finite || verdict_of(*c.finite) != Verdict::Certified) && !every_n_by_layers(m)) {
            try {
                c.finite = certify_chosen(m, model_file, at, CertifyMethodAsked::Auto, beta);
            } catch (const LimitError &) { // over --max-words: the search below still runs
                check_budget(o.limits);    // but the deadline and Ctrl-C end the command
            }
        }
        if (c.finite && verdict_of(*c.finite) == Verdict::Certified) {
            c.verdict = Verdict::Certified;
            return c;
        }
    }
    // not certified: tight's lower-end word at up to kRefutationSearch
    // positions (with no constant beta, at the length from which Lemma E3's
    // word family needs more than beta), judged at beta itself
    at.n = std::min(o.n, kRefutationSearch);
    if (c.tail.growth_rate) {
        const double star = growth_failure_length(o.eps, *c.tail.growth_rate, beta_value);
        at.n = star < double(o.limits.max_n) && star < double(kGrowthSearch)
                   ? static_cast<std::size_t>(star)
                   : 0;
    }
    if (at.n == 0) {
        c.verdict = Verdict::Undecided;
        c.reason = c.tail.shortfall + "; the word that refutes beta is longer than " +
                   std::to_string(std::min<std::size_t>(kGrowthSearch, o.limits.max_n));
        return c;
    }
    TightResult t = every_n_by_layers(m) ? tight_by_layers(m, at, Rational(1, 1000000000))
                                         : tight_symbolic(m, at, Rational(1, 1000000000));
    Violation v;
    Prec used = 0;
    if (t.lo_witness && beta_value <= t.beta_lo &&
        certify_word(m, t.lo_witness->word, beta.second, at, v, used) == Tri::False) {
        c.verdict = Verdict::Refuted;
        c.counterexample = v;
        c.reason = "a word of length " + std::to_string(v.word.size()) + " refutes it";
        return c;
    }
    c.verdict = Verdict::Undecided;
    c.reason =
        !c.tail.certified
            ? c.tail.shortfall + "; no word up to length " + std::to_string(at.n) + " refutes it"
            : "the finite part (n <= " + std::to_string(std::max<std::size_t>(c.tail.n0, 2) - 1) +
                  ") is not certified, and no word up to length " + std::to_string(at.n) +
                  " refutes it";
    return c;
}

CertJson certificate_of(const EveryNCertifyOutcome &c) {
    if (c.verdict != Verdict::Certified || !c.finite)
        throw LimitError("no certificate written: " + c.reason);
    const Model &m = *c.model;
    CertJson doc;
    doc["format"] = "tempcert-certificate/1";
    doc["tool"] = std::string("tempcert ") + TEMPCERT_VERSION;
    doc["model"] = {{"name", m.name}, {"sha256", model_sha256(m)}, {"file", m.source}};
    doc["n"] = "every";
    doc["eps"] = to_string(c.options.eps);
    doc["criterion"] = to_string(c.options.criterion);
    doc["method"] = "every-n";
    doc["beta"] = {{"spec", c.beta}, {"source", "user"}};
    doc["verdict"] = "certified";
    doc["n0"] = c.tail.n0;
    doc["tail_terms"] = c.tail.terms;
    doc["finite"] = finite_certificate(*c.finite);
    doc["proofs"] = {"proofs/every-n.md"};
    return doc;
}

Json to_json(const EveryNCertifyOutcome &c) {
    return {
        {"model", c.model->name},
        {"n", "every"},
        {"eps", to_string(c.options.eps)},
        {"criterion", to_string(c.options.criterion)},
        {"method", "every-n"},
        {"beta", c.beta},
        {"verdict", to_string(c.verdict)},
        {"n0", c.tail.n0},
        {"tail_terms", c.tail.terms},
        {"finite_method", c.finite ? Json(certificate_method(*c.finite)) : Json()},
        {"reason", c.reason},
        {"counterexample", c.counterexample ? violation_json(*c.counterexample, *c.model) : Json()},
        {"certificate", c.written ? Json(*c.written) : Json()},
        {"proof", "proofs/every-n.md"}};
}

std::string to_text(const EveryNCertifyOutcome &c) {
    std::ostringstream out;
    out << "model " << c.model->name << ", every n, eps = " << to_string(c.options.eps)
        << ", criterion " << to_string(c.options.criterion) << "\n"
        << "beta = " << c.beta << "\n"
        << "verdict: " << to_string(c.verdict) << "\n";
    if (c.verdict == Verdict::Certified)
        out << "  every word of every length: the "
            << (c.finite ? certificate_method(*c.finite) : "") << " argument for lengths up to "
            << c.tail.n0 - 1 << ", the tail bound (proofs/every-n.md, " << c.tail.terms
            << " terms) for every query at position " << c.tail.n0 << " or beyond\n";
    else
        out << "  reason: " << c.reason << "\n";
    if (c.counterexample)
        out << "  counterexample: " << format_word(c.counterexample->word, c.model->alphabet)
            << " (" << c.counterexample->detail << ")\n";
    if (c.written)
        out << "certificate written to " << *c.written
            << " (verified by the small checker before it was written)\n";
    return out.str();
}

int exit_code(const EveryNCertifyOutcome &c) {
    return exit_code(c.verdict);
}

} // namespace tempcert
