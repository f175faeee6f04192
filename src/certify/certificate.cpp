// Writing certificates (docs/certificates.md). Every number is written exactly ("p/q")
// and, where a reader wants a decimal, also rounded in the safe direction.
#include "tempcert/certificate.hpp"
#include "tempcert/error.hpp"
#include "tempcert/output.hpp"

#include <cstdio>
#include <fstream>

namespace tempcert {

namespace {

CertJson real_text(const Real &r) {
    if (r.is_exact()) return to_string(r.exact());
    return CertJson::array({r.interval()->lower_decimal(), r.interval()->upper_decimal()});
}

// An exact value: "p/q", or an irrational one as its stated form (the
// small checker compares either exactly); without a form its enclosure,
// which no checker reads as exact (write_certificate refuses it).
CertJson exact_text(const Real &r) {
    const std::optional<std::string> text = stated_form(r);
    return text ? CertJson(*text) : real_text(r);
}

// A least gap: exact_text, or "inf"; an irrational one with its enclosure
// beside it (min_gap_enclosure).
void put_gap(CertJson &obj, const std::optional<Real> &gap) {
    obj["min_gap"] = gap ? exact_text(*gap) : CertJson("inf");
    if (gap && stated_form(*gap)) obj["min_gap_enclosure"] = real_text(*gap);
}

} // namespace

std::optional<std::string> stated_form(const Real &r) {
    const Form *form = r.is_exact() ? nullptr : r.stored_form();
    return form ? form->expression() : std::nullopt;
}

CertJson witness_json(const Witness &w, const Model &m) {
    return {{"word", format_word(w.word, m.alphabet)},
            {"layer", w.layer},
            {"head", w.head},
            {"query", w.query},
            {"argmax", w.argmax},
            {"runner_up", w.runner_up ? CertJson(*w.runner_up) : CertJson(nullptr)}};
}

CertJson violation_json(const Violation &v, const Model &m) {
    CertJson j{{"word", format_word(v.word, m.alphabet)}, {"quantity", v.quantity}};
    if (v.quantity == "tv") {
        j["layer"] = v.layer;
        j["head"] = v.head;
        j["query"] = v.query;
    } else {
        j["position"] = v.query;
        j["hard_y"] = exact_text(v.hard_value);
    }
    j["value"] = real_text(v.value);
    j["detail"] = v.detail;
    return j;
}

CertJson gaps_json(const GapReport &g, const Model &m, const Rational &eps, Prec prec) {
    CertJson heads = CertJson::array();
    for (const auto &h : g.heads) {
        GapBound b = lemma_gt(h.max_allowed, h.min_gap, eps, prec);
        CertJson head{{"layer", h.layer},
                      {"head", h.head},
                      {"kind", to_string(h.kind)},
                      {"mask", to_string(h.mask)}};
        put_gap(head, h.min_gap);
        head["N"] = h.max_allowed;
        head["witness"] = h.witness ? witness_json(*h.witness, m) : CertJson(nullptr);
        head["ties"] = h.tie ? witness_json(*h.tie, m) : CertJson(nullptr);
        head["beta_gap_up"] = to_string(b.beta_up);
        head["beta_gap_decimal_up"] = b.beta_decimal_up;
        heads.push_back(std::move(head));
    }
    CertJson out;
    put_gap(out, g.min_gap);
    out["heads"] = heads;
    return out;
}

CertJson certificate_json(const CertificateInput &in) {
    const Model &m = *in.model;
    const CertifyResult &r = *in.result;
    CertJson beta{{"spec", in.beta_spec}, {"source", in.beta_source}};
    if (in.beta_gap) {
        beta["exact"] = in.beta_gap->exact;
        beta["decimal_up"] = in.beta_gap->beta_decimal_up;
        beta["tau_decimal_down"] = in.beta_gap->tau_decimal_down;
    }
    CertJson doc;
    doc["format"] = "tempcert-certificate/1";
    doc["tool"] = std::string("tempcert ") + TEMPCERT_VERSION;
    doc["model"] = {{"name", m.name}, {"sha256", model_sha256(m)}, {"file", in.model_file}};
    doc["n"] = in.options.n;
    doc["eps"] = to_string(in.options.eps);
    doc["criterion"] = to_string(in.options.criterion);
    doc["method"] = r.method;
    doc["beta"] = beta;
    doc["gaps"] = gaps_json(*in.gaps, m, in.options.eps, in.options.precision.start);
    doc["verdict"] = to_string(r.verdict);
    // Every field is a claim the checker re-derives (proofs/certificate.md):
    // no free-text detail, no search statistics. words_checked is claimed
    // only when certified (every word of length 1..n).
    CertJson cx = r.counterexample ? violation_json(*r.counterexample, m) : CertJson(nullptr);
    if (cx.is_object()) cx.erase("detail");
    doc["counterexample"] = cx;
    if (r.verdict == Verdict::Certified) doc["words_checked"] = r.words;
    doc["proofs"] = {"proofs/certificate.md", "proofs/lemma-gt.md", "proofs/softmax-enclosure.md"};
    return doc;
}

namespace {

// The fields every argument's certificate starts with.
CertJson certificate_header(const Model &m, const std::string &model_file,
                            const CertifyOptions &o) {
    CertJson doc;
    doc["format"] = "tempcert-certificate/1";
    doc["tool"] = std::string("tempcert ") + TEMPCERT_VERSION;
    doc["model"] = {{"name", m.name}, {"sha256", model_sha256(m)}, {"file", model_file}};
    doc["n"] = o.n;
    doc["eps"] = to_string(o.eps);
    doc["criterion"] = to_string(o.criterion);
    return doc;
}

} // namespace

CertJson layerwise_certificate_json(const Model &m, const std::string &model_file,
                                    const LayerwiseResult &lw, const CertifyOptions &o,
                                    const std::string &beta_spec, const std::string &beta_source) {
    // A head whose own Lemma GT bound beta does not meet is judged by its
    // profile (the verdict was certified by the layer's profile bound), and
    // says so: the checker then judges its queries' profiles at beta.
    const BetaSpec beta = BetaSpec::parse(beta_spec, m.layers.size(), "beta");
    bool by_profile = false;
    CertJson layers = CertJson::array();
    for (std::size_t l = 0; l < lw.layers.size(); ++l) {
        CertJson heads = CertJson::array();
        for (const auto &h : lw.layers[l].heads) {
            GapBound b = lemma_gt(h.max_allowed, h.min_gap, o.eps, o.precision.start);
            CertJson entry = {{"head", h.head},
                              {"min_gap", h.min_gap ? real_text(*h.min_gap) : CertJson("inf")},
                              {"N", h.max_allowed},
                              {"beta_gap_up", b.trivial ? "0" : to_string(b.beta_up)}};
            if (!b.trivial && !meets(beta, l, o.n, b.beta_up, o.precision.start)) {
                entry["judged_by"] = "profile";
                by_profile = true;
            }
            heads.push_back(entry);
        }
        layers.push_back({{"layer", l + 1},
                          {"values", lw.layers[l].values},
                          {"bos_values", lw.layers[l].bos_values},
                          {"heads", heads},
                          {"perturbed", lw.layers[l].perturbed}});
    }
    CertJson doc = certificate_header(m, model_file, o);
    doc["method"] = "layerwise";
    doc["beta"] = {{"spec", beta_spec}, {"source", beta_source}};
    doc["layers"] = layers;
    doc["readout_exact"] = lw.readout_exact;
    doc["verdict"] = "certified";
    doc["proofs"] = {"proofs/layerwise.md", "proofs/symbolic-gap.md", "proofs/lemma-gt.md"};
    if (by_profile) doc["proofs"].push_back("proofs/profile-bound.md");
    return doc;
}

CertJson perturbation_layers_json(const PerturbationRun &run) {
    CertJson layers = CertJson::array();
    for (std::size_t l = 0; l < run.layers.size(); ++l) {
        const PerturbedLayer &ly = run.layers[l];
        CertJson heads = CertJson::array();
        for (const auto &h : ly.heads)
            heads.push_back(
                {{"head", h.gap.head},
                 {"min_gap", h.gap.min_gap ? real_text(*h.gap.min_gap) : CertJson("inf")},
                 {"N", h.gap.max_allowed},
                 {"score_deviation", to_string(h.score_dev)},
                 {"tv", to_string(h.tv)}});
        CertJson radius = CertJson::array();
        for (const auto &x : ly.radius)
            radius.push_back(to_string(x));
        layers.push_back({{"layer", l + 1},
                          {"values", ly.values},
                          {"bos_values", ly.bos_values},
                          {"heads", heads},
                          {"kinks", ly.kinks},
                          {"radius", radius}});
    }
    return layers;
}

CertJson perturbation_certificate_json(const Model &m, const std::string &model_file,
                                       const PerturbationRun &run, const CertifyOptions &o,
                                       const std::string &beta_spec,
                                       const std::string &beta_source) {
    CertJson doc = certificate_header(m, model_file, o);
    doc["method"] = "layerwise-perturbation";
    doc["beta"] = {{"spec", beta_spec}, {"source", beta_source}};
    doc["layers"] = perturbation_layers_json(run);
    doc["readout"] = {{"deviation", to_string(run.readout_dev)},
                      {"margin", run.readout_margin ? CertJson(to_string(*run.readout_margin))
                                                    : CertJson(nullptr)}};
    doc["verdict"] = "certified";
    doc["proofs"] = {"proofs/perturbation.md", "proofs/symbolic-gap.md", "proofs/lemma-gt.md"};
    return doc;
}

void write_json_file(const std::string &path, const CertJson &doc, const Limits *budget) {
    write_output_file(path, doc.dump(2) + "\n", budget);
}

} // namespace tempcert
