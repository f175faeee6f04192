// JSON for `eval`: per layer, head and query the scores, argmax, gap,
// weights and head output; read-outs and acceptance.
#include "trace_json.hpp"

namespace tempcert::app {

Json real_json(const Real &r) {
    if (r.is_exact()) return to_string(r.exact());
    return Json::array({r.interval()->lower_decimal(), r.interval()->upper_decimal()});
}

namespace {

Json reals(const RealVector &v) {
    Json a = Json::array();
    for (const auto &x : v)
        a.push_back(real_json(x));
    return a;
}

Json accept_json(Tri t) {
    if (t == Tri::Unknown) return "undecided";
    return t == Tri::True;
}

} // namespace

Json trace_json(const Model &m, const Trace &t, bool soft) {
    Json out;
    out["n"] = t.n;
    if (soft) {
        out["precision_bits"] = t.prec;
        out["width_reached"] = t.width_reached;
    }
    Json layers = Json::array();
    for (std::size_t l = 0; l < t.layers.size(); ++l) {
        Json heads = Json::array();
        for (std::size_t h = 0; h < t.layers[l].heads.size(); ++h) {
            const Head &head = m.layers[l].heads[h];
            Json queries = Json::array();
            for (const auto &q : t.layers[l].heads[h].queries) {
                Json jq;
                jq["query"] = q.query;
                jq["allowed"] = q.allowed;
                jq["scores"] = reals(q.scores);
                if (!soft) {
                    jq["argmax"] = q.argmax;
                    jq["gap"] =
                        q.gap ? real_json(*q.gap) : Json(q.allowed.empty() ? nullptr : Json("inf"));
                    jq["runner_up"] = q.runner_up ? Json(*q.runner_up) : Json(nullptr);
                    if (head.kind != AttnKind::Average && q.argmax.size() > 1)
                        jq["ties_share_value"] = q.ties_share_value;
                }
                jq["weights"] = reals(q.weights);
                if (soft && q.tv) jq["tv"] = real_json(*q.tv);
                jq["output"] = reals(q.output);
                queries.push_back(jq);
            }
            heads.push_back({{"head", h + 1},
                             {"kind", to_string(head.kind)},
                             {"mask", to_string(head.mask)},
                             {"queries", queries}});
        }
        Json acts = Json::array();
        for (const auto &v : t.layers[l].after_ffn)
            acts.push_back(reals(v));
        layers.push_back({{"layer", l + 1}, {"heads", heads}, {"activations", acts}});
    }
    out["layers"] = layers;
    Json outputs = Json::array();
    for (const auto &o : t.outputs) {
        if (m.output.kind == ReadKind::Categorical) {
            outputs.push_back(
                {{"position", o.position}, {"classes", reals(o.classes)}, {"label", o.decoded}});
            continue;
        }
        outputs.push_back(
            {{"position", o.position}, {"y", real_json(o.y)}, {"accept", accept_json(o.accept)}});
    }
    out["outputs"] = outputs;
    if (m.output.position != ReadPosition::All && m.output.kind == ReadKind::Linear &&
        !t.outputs.empty()) {
        out["y"] = real_json(t.outputs.front().y);
        out["accept"] = accept_json(t.outputs.front().accept);
    }
    return out;
}

namespace {

// A decoded output as eval --json shows it: an exact rational as a string,
// or an enclosure [lo, hi] in decimals; for categorical read-outs the label,
// null for no output (a tie), or "undecided".
Json decoded_json(const Model &m, const OutputValue &o) {
    if (m.output.kind == ReadKind::Categorical) {
        if (!o.decided) return "undecided";
        return o.label ? Json(m.output.classes[*o.label].label) : Json(nullptr);
    }
    if (o.y.is_exact()) return to_string(o.y.exact());
    return Json::array({o.y.interval()->lower_decimal(), o.y.interval()->upper_decimal()});
}

} // namespace

Json decoded_outputs_json(const Model &m, const Trace &hard, const Trace *soft) {
    Json out = Json::array();
    for (std::size_t k = 0; k < hard.outputs.size(); ++k) {
        Json e{{"position", hard.outputs[k].position}, {"hard", decoded_json(m, hard.outputs[k])}};
        if (soft) e["soft"] = decoded_json(m, soft->outputs[k]);
        out.push_back(std::move(e));
    }
    return out;
}

} // namespace tempcert::app
