// The tight (whole and per layer) and check answers rendered (include/engine/tempcert/outcome.hpp).
#include "../eval/first_layer_query.hpp"
#include "render_parts.hpp"
#include "tempcert/certificate.hpp"
#include "tempcert/error.hpp"
#include "tempcert/outcome.hpp"
#include "tempcert/word.hpp"

#include <sstream>

namespace tempcert {

namespace {

using Json = nlohmann::ordered_json;

// An empty profile: irrational scores, or no heads. Layerwise (beyond enumeration): no
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

} // namespace

Json to_json(const TightOutcome &o) {
    const Model &m = *o.model;
    const TightResult &t = o.result;
    const bool p = profiled(t), g = gaps_known(t);
    Json j{{"model", m.name},
           {"n", o.n},
           {"eps", to_string(o.eps)},
           {"criterion", to_string(o.criterion)}};
    app::add_bracket_json(j, t.beta_lo, t.beta_hi, t.lo_witness, m);
    j.update(Json{
        {"kind", to_string(t.kind)},
        {"converged", t.converged},
        {"profile_bound", p ? Json(decimal_significant(t.profile.bound.hi, 15, true)) : Json()},
        {"profile_bound_bracket",
         p ? Json::array({decimal_significant(t.profile.bound.lo, 15, false),
                          decimal_significant(t.profile.bound.hi, 15, true)})
           : Json()},
        {"beta_gap", g ? Json(beta_shown_up(t.beta_gap)) : Json()},
        {"min_gap", g ? Json(app::gap_text(t.gaps.min_gap)) : Json()},
        {"method", to_string(t.gaps.method)},
        {"certify_runs", t.certify_runs},
        {"note", t.note},
        {"proof", "proofs/tight-bracket.md"},
        {"certificate", o.written ? Json(*o.written) : Json()},
        {"certificate_method", o.written ? Json(o.written_method) : Json()},
        {"certificate_not_written", o.not_written.empty() ? Json() : Json(o.not_written)}});
    return j;
}

std::string to_text(const TightOutcome &o) {
    const Model &m = *o.model;
    const TightResult &t = o.result;
    std::ostringstream out;
    out << app::claim_line(m, o.n, o.eps, o.criterion) << "\n"
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
        else if (detail::first_heads_layer(m) == m.layers.size())
            out << "  profile bound: none (the model has no heads: every beta works)\n";
        else
            out << "  profile bound: not computed (irrational scores)\n";
        out << "  Lemma GT beta_gap: " << beta_shown_up(t.beta_gap) << " (minimum gap "
            << app::gap_text(t.gaps.min_gap) << ")\n";
    }
    if (!t.note.empty()) out << "  note: " << t.note << "\n";
    if (o.written)
        out << "  certificate of beta_hi written to " << *o.written << " (" << o.written_method
            << "; the small checker verified it)\n";
    if (!o.not_written.empty()) out << "  " << o.not_written << "\n";
    return out.str();
}

int exit_code(const TightOutcome &t) {
    return t.result.converged && t.not_written.empty() ? kExitOk : kExitUndecided;
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
        Json layer{{"layer", l.layer}, {"heads", true}};
        app::add_bracket_json(layer, l.beta_lo, l.beta_hi, l.lo_witness, m);
        Json at = Json::array();
        for (const auto &b : l.refuted_at)
            at.push_back(to_string(b));
        layer["refuted_at_betas"] = at;
        layer["converged"] = l.converged;
        layer["note"] = l.note;
        layers.push_back(layer);
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
            {"passes", t.passes},
            {"stable", t.stable},
            {"certify_runs", t.certify_runs},
            {"proof", "proofs/tight-bracket.md"}};
}

namespace {
std::string beta_list(const std::vector<Rational> &betas) {
    std::string out;
    for (const auto &b : betas)
        out += (out.empty() ? "" : ", ") + decimal_significant(b, 15, false);
    return out;
}
} // namespace

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
        if (l.lo_witness) {
            out << "; beta_lo refuted by " << format_word(l.lo_witness->word, m.alphabet) << " ("
                << l.lo_witness->detail << ")";
            if (!t.stable) out << " at beta = (" << beta_list(l.refuted_at) << ")";
        }
        if (!l.note.empty()) out << "; note: " << l.note;
        out << "\n";
    }
    out << "  " << t.passes << (t.passes == 1 ? " pass" : " passes")
        << (t.stable ? ", the last moving no layer: each beta_lo is refuted with the other layers "
                       "at the final betas\n"
                     : " without settling: each beta_lo holds at the betas it names\n");
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
            {"method", c.outcome.method},       {"words", c.outcome.words},
            {"claim", c.outcome.claim}};
}

std::string to_text(const CheckAnswer &c) {
    return c.outcome.malformed ? std::string() : verdict_line(c.certificate, c.outcome) + "\n";
}

int exit_code(const CheckAnswer &c) {
    return c.outcome.malformed ? kExitBadInput : c.outcome.accepted ? kExitOk : kExitRefuted;
}

} // namespace tempcert
