// The certify question's method chooser (include/engine/tempcert/outcome.hpp):
// one for `certify` and for the certificate `tight -o` writes of its upper end.
#include "tempcert/enumerate.hpp"
#include "tempcert/error.hpp"
#include "tempcert/method.hpp"
#include "tempcert/outcome.hpp"

namespace tempcert {

CertifyMethodAsked certify_method_asked(const std::string &name) {
    if (name == "auto") return CertifyMethodAsked::Auto;
    if (name == "exhaustive") return CertifyMethodAsked::Exhaustive;
    if (name == "plain") return CertifyMethodAsked::Plain;
    if (name == "layerwise") return CertifyMethodAsked::Layerwise;
    throw InputError("", "--method",
                     "expected auto, exhaustive, plain or layerwise, got \"" + name + "\"");
}

CertifyAnswer certify_chosen(const Model &m, const std::string &model_file, CertifyOptions o,
                             CertifyMethodAsked asked, const UserBeta &user_beta) {
    o.allow_prefix = asked != CertifyMethodAsked::Plain;
    const bool beyond = count_words(m.alphabet.size(), o.n) > o.limits.max_words;
    if (asked == CertifyMethodAsked::Layerwise || (asked == CertifyMethodAsked::Auto && beyond)) {
        // computed once: it decides `auto` and is the result
        LayersChoice choice =
            choose_layers_method(m, o.n, o.eps, o.limits,
                                 user_beta ? LayersQuestion::GivenBeta : LayersQuestion::OwnBeta);
        if (choice.method == LayersMethod::ExactRounding) {
            const Rational own = choice.layerwise.beta_up;
            BetaChoice beta =
                user_beta ? *user_beta : BetaChoice{to_string(own), BetaSpec::constant(own)};
            return certify_layerwise_at(m, o, std::move(choice.layerwise), beta,
                                        user_beta ? "user" : "layerwise");
        }
        // without exact rounding, the perturbation argument: always when
        // layerwise is asked (which then says why it does not apply), for
        // auto where it applies, as `tight` takes it; else the word budget's
        // refusal below says what enumeration would cost
        if (asked == CertifyMethodAsked::Layerwise || choice.method == LayersMethod::Perturbation)
            return certify_perturbation_at(m, o, *choice.perturbation, choice.layerwise.failure,
                                           user_beta);
    }
    check_word_budget(m.alphabet.size(), o.n, o.limits.max_words);
    return certify_enumerating(m, model_file, o, user_beta);
}

// The method a certify answer's certificate names.
const char *certificate_method(const CertifyAnswer &a) {
    switch (a.index()) {
    case 0:
        return "exhaustive";
    case 1:
        return "layerwise";
    default:
        return "layerwise-perturbation";
    }
}

Verdict verdict_of(const CertifyAnswer &a) {
    return std::visit(
        [](const auto &c) -> Verdict {
            using T = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<T, CertifyOutcome>)
                return c.result.verdict;
            else if constexpr (std::is_same_v<T, LayerwiseCertifyOutcome>)
                return c.verdict.verdict;
            else
                return c.run.verdict;
        },
        a);
}

void write_certificate(CertifyAnswer &a, const std::string &path) {
    std::visit([&](auto &c) { write_certificate(c, path); }, a);
}

} // namespace tempcert

namespace tempcert {

// Where no certificate of beta_hi can be made (no certifying method
// reaches n, or certify does not certify it), the bracket stands without
// one: Undecided, which tight -o reports as "no certificate written" (exit
// 3) after printing the bracket. An interrupt still ends the command.
void write_upper_end_certificate(TightOutcome &t, const std::string &model_file,
                                 const CertifyOptions &o, const std::string &path) {
    const Rational &hi = t.result.beta_hi;
    BetaChoice beta{to_string(hi), BetaSpec::constant(hi)};
    std::optional<CertifyAnswer> a;
    try {
        a = certify_chosen(*t.model, model_file, o, CertifyMethodAsked::Auto, beta);
    } catch (const LimitError &e) {
        throw Undecided("no certificate written: certifying beta_hi " + to_string(hi) +
                        " for every word up to n: " + e.what());
    }
    if (verdict_of(*a) != Verdict::Certified)
        throw Undecided("no certificate written: certify at beta_hi " + to_string(hi) +
                        " did not certify it (" + certificate_method(*a) + ")");
    write_certificate(*a, path);
    t.written = path;
    t.written_method = certificate_method(*a);
}

} // namespace tempcert
