// certify by enumeration, its certificate and its renderings
// (include/engine/tempcert/outcome.hpp).
#include "render_parts.hpp"
#include "tempcert/certificate.hpp"
#include "tempcert/error.hpp"
#include "tempcert/method.hpp"
#include "tempcert/outcome.hpp"
#include "tempcert/rational.hpp"
#include "tempcert/word.hpp"

#include <sstream>

namespace tempcert {

namespace {

// The slack eps - value of a certified binding, never below 0: certified
// means the quantity is at most eps, though the enclosure kept for display
// (at the working precision) may reach a little past it (docs/reliability.md, Numbers).
Rational safe_slack(const Rational &eps, const Rational &value) {
    return value <= eps ? Rational(eps - value) : Rational(0);
}

// A certificate states an irrational least gap by its exact form in square
// roots of rationals (docs/certificates.md); a gap without one (log
// features, or a form past the caps of form.hpp) gets its verdict, but no
// certificate.
void refuse_irrational_gaps(const GapReport &gaps) {
    for (const auto &h : gaps.heads)
        if (h.min_gap && !h.min_gap->is_exact() && !stated_form(*h.min_gap))
            throw LimitError("no certificate written: layer " + std::to_string(h.layer) + " head " +
                             std::to_string(h.head) +
                             " has an irrational least gap with no exact form in square roots "
                             "of rationals, which a certificate states (without -o the verdict "
                             "is printed)");
}

// tempcert-check reads a counterexample's enclosure as decimals with an
// exponent of at most 4 digits; one whose ends are further from 1 (a
// decision read-out below 1e-9999, say) gets its verdict, but no
// certificate the checker would refuse as malformed.
void refuse_unreadable_values(const CertifyResult &r, const CertJson &doc) {
    if (!r.counterexample) return;
    const Violation &v = *r.counterexample;
    const bool form = v.quantity != "tv" && stated_form(v.hard_value).has_value();
    if (v.quantity != "tv" && !v.hard_value.is_exact() && !form)
        throw LimitError("no certificate written: the counterexample's hard value is irrational "
                         "with no exact form in square roots of rationals, which a certificate "
                         "states; without -o the verdict is printed");
    const CertJson &cx = doc["counterexample"];
    for (const char *key : {"value", "hard_y"}) {
        // an exact form in square roots is an expression, read as one
        if (!cx.contains(key) || (std::string(key) == "hard_y" && form)) continue;
        const CertJson &val = cx[key];
        for (const CertJson &end : val.is_array() ? val : CertJson::array({val})) {
            std::string why;
            if (!parse_rational_scientific(end.get<std::string>(), why, 4000))
                throw LimitError("no certificate written: the counterexample's " +
                                 std::string(key) + " " + end.get<std::string>() +
                                 " is not a number the certificate format carries (" + why +
                                 "); without -o the verdict is printed");
        }
    }
}

const Binding *shown_binding(const CertifyOutcome &c) {
    return c.result.verdict == Verdict::Certified ? c.result.binding() : nullptr;
}

// "binding: ...": where a certified claim is tightest, and its slack.
std::string binding_text(const Binding &bind, const CertifyOutcome &c) {
    const CertifyOptions &o = c.options;
    std::ostringstream out;
    out << "binding: "
        << (bind.layer ? "layer " + std::to_string(bind.layer) + " head " +
                             std::to_string(bind.head) + " query "
                       : std::string("read-out at position "))
        << bind.query << " on " << format_word(bind.word, c.model->alphabet) << ", "
        << to_string(o.criterion) << " <= " << decimal_significant(bind.value, 6, true)
        << " against eps " << to_string(o.eps)
        << (bind.value <= o.eps
                ? " (slack >= " + decimal_significant(safe_slack(o.eps, bind.value), 6, false) + ")"
                : std::string(" (slack >= 0: this enclosure reaches eps; the criterion was "
                              "decided at a higher precision)"))
        << (c.result.binding_exact ? ""
                                   : " [largest of the near-maximal places the filter kept; "
                                     "--no-filter for the exact choice]")
        << "\n";
    return out.str();
}

} // namespace

CertifyOutcome certify_enumerating(const Model &m, const std::string &model_file,
                                   const CertifyOptions &o, const UserBeta &user_beta) {
    CertifyOutcome c;
    c.model = &m;
    c.model_file = model_file;
    c.options = o;
    c.gaps = o.allow_prefix ? min_gaps_exhaustive(m, o.n, o.limits, o.precision)
                            : min_gaps_plain(m, o.n, o.limits, o.precision);
    c.beta_gap = model_beta_gap(c.gaps, o.eps, o.precision.start);
    if (user_beta) {
        c.beta = user_beta->first;
        c.beta_source = "user";
        c.result = certify_auto(m, user_beta->second, o);
    } else {
        c.beta = to_string(beta_to_certify(c.beta_gap));
        c.beta_source = "beta_gap";
        c.result = certify_auto(m, BetaSpec::parse(c.beta, m.layers.size()), o);
    }
    return c;
}

CertJson certificate_of(const CertifyOutcome &c) {
    CertificateInput in;
    in.model = c.model;
    in.model_file = c.model_file;
    in.options = c.options;
    in.beta_spec = c.beta;
    in.beta_source = c.beta_source;
    in.beta_gap = c.beta_source == "beta_gap" ? &c.beta_gap : nullptr;
    in.gaps = &c.gaps;
    in.result = &c.result;
    return certificate_json(in);
}

void write_certificate(CertifyOutcome &c, const std::string &path) {
    if (c.result.verdict == Verdict::Undecided) return;
    refuse_irrational_gaps(c.gaps);
    const CertJson doc = certificate_of(c);
    refuse_unreadable_values(c.result, doc);
    write_json_file(path, doc, &c.options.limits);
    c.written = path;
}

nlohmann::ordered_json to_json(const CertifyOutcome &c) {
    const CertifyResult &r = c.result;
    CertJson out = certificate_of(c);
    out["min_gap"] = out["gaps"]["min_gap"];
    if (out["gaps"].contains("min_gap_enclosure")) // beside an irrational gap's exact form
        out["min_gap_enclosure"] = out["gaps"]["min_gap_enclosure"];
    out["filter"] = {{"used", c.options.filter && r.method == "exhaustive-prefix"},
                     {"decided", r.filter_decided},
                     {"fallbacks", r.filter_fallbacks}};
    if (const Binding *bind = shown_binding(c))
        out["binding"] = {
            {"layer", bind->layer},
            {"head", bind->head},
            {"query", bind->query},
            {"word", format_word(bind->word, c.model->alphabet)},
            {"value_up", decimal_significant(bind->value, 12, true)},
            {"slack", decimal_significant(safe_slack(c.options.eps, bind->value), 12, false)},
            {"exact_choice", r.binding_exact}};
    return out;
}

std::string to_text(const CertifyOutcome &c) {
    const Model &m = *c.model;
    const CertifyOptions &o = c.options;
    const CertifyResult &r = c.result;
    std::ostringstream out;
    out << app::claim_line(m, o.n, o.eps, o.criterion) << ", method " << r.method << "\n";
    out << "minimum gap " << app::gap_text(c.gaps.min_gap);
    if (!c.beta_gap.trivial)
        out << "; Lemma GT beta_gap = " << c.beta_gap.exact << " <= " << c.beta_gap.beta_decimal_up;
    out << "\nbeta = "
        << (c.beta_source != "beta_gap" ? c.beta
            : c.beta_gap.trivial
                ? c.beta + " (beta_gap is 0: every beta > 0 meets Lemma GT; 1 is certified)"
                : c.beta_gap.beta_decimal_up + " (beta_gap, rounded up)")
        << ", " << r.words << " words checked\n";
    if (r.filter_decided + r.filter_fallbacks > 0)
        out << "filter: " << r.filter_decided << " nodes decided in double intervals, "
            << r.filter_fallbacks << " re-judged by the exact and MPFI path\n";
    if (r.counterexample)
        out << "counterexample: " << format_word(r.counterexample->word, m.alphabet) << ": "
            << r.counterexample->detail << "\n";
    if (r.undecided && r.verdict == Verdict::Undecided)
        out << "undecided at " << o.precision.cap
            << " bits: " << format_word(r.undecided->word, m.alphabet) << ": "
            << r.undecided->detail << "\n";
    const Binding *bind = shown_binding(c);
    if (bind && bind->value > 0) out << binding_text(*bind, c);
    out << "verdict: " << to_string(r.verdict) << "\n";
    if (c.written) out << "certificate written to " << *c.written << "\n";
    return out.str();
}

int exit_code(Verdict v) {
    switch (v) {
    case Verdict::Certified:
        return kExitOk;
    case Verdict::Refuted:
        return kExitRefuted;
    case Verdict::Undecided:
        return kExitUndecided;
    }
    return kExitUndecided;
}

int exit_code(const CertifyOutcome &c) {
    return exit_code(c.result.verdict);
}

} // namespace tempcert
