// The tight (whole and per layer) and check answers rendered (include/engine/tempcert/outcome.hpp).
#include "tempcert/certificate.hpp"
#include "tempcert/error.hpp"
#include "tempcert/outcome.hpp"
#include "tempcert/word.hpp"

#include <sstream>

namespace tempcert {

namespace {

using Json = nlohmann::ordered_json;

// An empty profile: irrational scores. Layerwise (beyond enumeration): no
// profile and no model gap, shown as null in --json and left out of the text.
bool profiled(const TightResult &t) {
    return !t.profile.heads.empty();
}
bool gaps_known(const TightResult &t) {
    return t.gaps.method != GapMethod::Layerwise;
}

std::string lo_text(const TightResult &t) {
    return decimal_significant(t.beta_lo, 15, false);
}
std::string hi_text(const TightResult &t) {
    return decimal_significant(t.beta_hi, 15, true);
}
std::string min_gap_text(const TightResult &t) {
    return t.gaps.min_gap ? to_string(*t.gaps.min_gap) : std::string("inf");
}

} // namespace

Json to_json(const TightOutcome &o) {
    const Model &m = *o.model;
    const TightResult &t = o.result;
    const bool p = profiled(t), g = gaps_known(t);
    return {{"model", m.name},
            {"n", o.n},
            {"eps", to_string(o.eps)},
            {"criterion", to_string(o.criterion)},
            {"beta_lo", lo_text(t)},
            {"beta_hi", hi_text(t)},
            {"beta_lo_exact", to_string(t.beta_lo)},
            {"beta_hi_exact", to_string(t.beta_hi)},
            {"lo_witness",
             t.lo_witness ? Json(format_word(t.lo_witness->word, m.alphabet)) : Json(nullptr)},
            {"lo_violation", t.lo_witness ? violation_json(*t.lo_witness, m) : Json(nullptr)},
            {"kind", to_string(t.kind)},
            {"converged", t.converged},
            {"profile_bound", p ? Json(decimal_significant(t.profile.bound.hi, 15, true)) : Json()},
            {"profile_bound_bracket",
             p ? Json::array({decimal_significant(t.profile.bound.lo, 15, false),
                              decimal_significant(t.profile.bound.hi, 15, true)})
               : Json()},
            {"beta_gap", g ? Json(beta_shown_up(t.beta_gap)) : Json()},
            {"min_gap", g ? Json(min_gap_text(t)) : Json()},
            {"method", to_string(t.gaps.method)},
            {"certify_runs", t.certify_runs},
            {"note", t.note},
            {"proof", "proofs/tight-bracket.md"}};
}

std::string to_text(const TightOutcome &o) {
    const Model &m = *o.model;
    const TightResult &t = o.result;
    std::ostringstream out;
    out << "model " << m.name << ", n <= " << o.n << ", eps = " << to_string(o.eps)
        << ", criterion " << to_string(o.criterion) << "\n"
        << "tight beta in [" << lo_text(t) << ", " << hi_text(t) << "] (" << to_string(t.kind)
        << ")\n"
        << "  beta_hi " << hi_text(t) << ": certified for every word of length 1.." << o.n << "\n";
    if (t.lo_witness)
        out << "  beta_lo " << lo_text(t) << ": refuted by "
            << format_word(t.lo_witness->word, m.alphabet) << " (" << t.lo_witness->detail << ")\n";
    if (gaps_known(t)) {
        if (profiled(t))
            out << "  profile bound (hard scores, proofs/profile-bound.md): ["
                << decimal_significant(t.profile.bound.lo, 15, false) << ", "
                << decimal_significant(t.profile.bound.hi, 15, true) << "]\n";
        else
            out << "  profile bound: not computed (irrational scores)\n";
        out << "  Lemma GT beta_gap: " << beta_shown_up(t.beta_gap) << " (minimum gap "
            << min_gap_text(t) << ")\n";
    }
    if (!t.note.empty()) out << "  note: " << t.note << "\n";
    return out.str();
}

int exit_code(const TightOutcome &t) {
    return t.result.converged ? kExitOk : kExitUndecided;
}

Json to_json(const PerLayerTightOutcome &o) {
    const Model &m = *o.model;
    const PerLayerTight &t = o.result;
    Json layers = Json::array();
    for (const auto &l : t.layers) {
        if (!l.has_heads) {
            layers.push_back({{"layer", l.layer}, {"heads", false}});
            continue;
        }
        layers.push_back(
            {{"layer", l.layer},
             {"heads", true},
             {"beta_lo", decimal_significant(l.beta_lo, 15, false)},
             {"beta_hi", decimal_significant(l.beta_hi, 15, true)},
             {"beta_lo_exact", to_string(l.beta_lo)},
             {"beta_hi_exact", to_string(l.beta_hi)},
             {"lo_witness",
              l.lo_witness ? Json(format_word(l.lo_witness->word, m.alphabet)) : Json(nullptr)},
             {"lo_violation", l.lo_witness ? violation_json(*l.lo_witness, m) : Json(nullptr)},
             {"converged", l.converged},
             {"note", l.note}});
    }
    return {{"model", m.name},
            {"n", o.n},
            {"eps", to_string(o.eps)},
            {"criterion", to_string(o.criterion)},
            {"joint_beta_hi", decimal_significant(t.joint_hi, 15, true)},
            {"per_layer", layers},
            {"beta", t.betas.text()},
            {"whole_model", to_string(t.whole.verdict)},
            {"converged", t.converged},
            {"certify_runs", t.certify_runs},
            {"proof", "proofs/tight-bracket.md"}};
}

std::string to_text(const PerLayerTightOutcome &o) {
    const Model &m = *o.model;
    const PerLayerTight &t = o.result;
    std::ostringstream out;
    out << "model " << m.name << ", n <= " << o.n << ", eps = " << to_string(o.eps)
        << ", criterion tv, one beta per layer\n"
        << "  one beta for all layers: certified at " << decimal_significant(t.joint_hi, 15, true)
        << "; then each layer's lowered in turn, the others as they stand\n";
    for (const auto &l : t.layers) {
        out << "  layer " << l.layer << ": ";
        if (!l.has_heads) {
            out << "no heads\n";
            continue;
        }
        out << "beta in [" << decimal_significant(l.beta_lo, 15, false) << ", "
            << decimal_significant(l.beta_hi, 15, true) << "] (bracket)";
        if (l.lo_witness)
            out << "; beta_lo refuted by " << format_word(l.lo_witness->word, m.alphabet) << " ("
                << l.lo_witness->detail << ")";
        if (!l.note.empty()) out << "; note: " << l.note;
        out << "\n";
    }
    out << "whole model at beta = (";
    for (const auto &l : t.layers)
        out << (l.layer > 1 ? ", " : "")
            << decimal_significant(l.has_heads ? l.beta_hi : t.joint_hi, 15, true);
    out << "): " << to_string(t.whole.verdict) << " for every word of length 1.." << o.n
        << " (exact values: --json)\n";
    return out.str();
}

int exit_code(const PerLayerTightOutcome &t) {
    return t.result.converged && t.result.whole.verdict == Verdict::Certified ? kExitOk
                                                                              : kExitUndecided;
}

Json to_json(const CheckAnswer &c) {
    return {{"certificate", c.certificate},     {"accepted", c.outcome.accepted},
            {"malformed", c.outcome.malformed}, {"reason", c.outcome.reason},
            {"method", c.outcome.method},       {"words", c.outcome.words}};
}

std::string to_text(const CheckAnswer &c) {
    return c.outcome.malformed ? std::string() : verdict_line(c.certificate, c.outcome) + "\n";
}

int exit_code(const CheckAnswer &c) {
    return c.outcome.malformed ? kExitBadInput : c.outcome.accepted ? kExitOk : kExitRefuted;
}

} // namespace tempcert
