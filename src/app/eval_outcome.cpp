// The eval answer rendered (include/engine/tempcert/outcome.hpp).
#include "tempcert/error.hpp"
#include "tempcert/outcome.hpp"
#include "trace_json.hpp"
#include "trace_text.hpp"

#include <sstream>

namespace tempcert {

namespace {

using app::Json;

Json head_json(const Model &m, std::size_t l, std::size_t h) {
    const Head &head = m.layers[l].heads[h];
    return Json{{"layer", l + 1},
                {"head", h + 1},
                {"kind", to_string(head.kind)},
                {"mask", to_string(head.mask)}};
}

// A trace's JSON with its layers replaced by each head's extremes.
Json summary_json(const Model &m, const EvalSummary &s, bool soft) {
    Json out = app::trace_json(m, soft ? *s.soft : s.hard, soft);
    out.erase("layers");
    Json heads = Json::array();
    for (std::size_t l = 0; l < s.heads.size(); ++l)
        for (std::size_t h = 0; h < s.heads[l].size(); ++h) {
            const HeadExtremes &e = s.heads[l][h];
            Json j = head_json(m, l, h);
            j["queries"] = e.queries;
            if (!soft) {
                j["least_gap"] = e.least_gap ? app::real_json(*e.least_gap) : Json(nullptr);
                j["least_gap_query"] = e.least_gap ? Json(e.least_gap_query) : Json(nullptr);
            } else {
                j["largest_tv"] = e.tv ? app::real_json(*e.tv) : Json(nullptr);
                j["largest_tv_query"] = e.tv ? Json(e.tv_query) : Json(nullptr);
                j["tv_at_most"] = e.tv_max ? app::real_json(*e.tv_max) : Json(nullptr);
            }
            heads.push_back(std::move(j));
        }
    out["heads"] = heads;
    return out;
}

std::string upper_text(const Real &r) {
    return r.is_exact() ? to_string(r.exact()) : r.interval()->upper_decimal(12);
}

void print_summary(std::ostream &out, const Model &m, const EvalSummary &s, bool soft) {
    for (std::size_t l = 0; l < s.heads.size(); ++l)
        for (std::size_t h = 0; h < s.heads[l].size(); ++h) {
            const HeadExtremes &e = s.heads[l][h];
            out << "  layer " << l + 1 << " head " << h + 1 << ": " << e.queries << " queries";
            if (!soft && e.least_gap)
                out << "; least gap " << to_string(*e.least_gap, 12) << " at query "
                    << e.least_gap_query;
            if (!soft && !e.least_gap) out << "; no finite gap";
            if (soft && e.tv)
                out << "; largest TV " << to_string(*e.tv, 12) << " at query " << e.tv_query
                    << ", every TV <= " << upper_text(*e.tv_max);
            out << "\n";
        }
    app::print_trace(out, m, soft ? *s.soft : s.hard, soft);
}

} // namespace

nlohmann::ordered_json to_json(const EvalOutcome &e) {
    const Model &m = *e.model;
    if (e.summary) {
        const EvalSummary &s = *e.summary;
        nlohmann::ordered_json out;
        out["model"] = m.name;
        out["word"] = format_word(e.word, m.alphabet);
        out["outputs"] = app::decoded_outputs_json(m, s.hard, s.soft ? &*s.soft : nullptr);
        out["summary"] = true;
        out["hard"] = summary_json(m, s, false);
        if (s.soft) {
            nlohmann::ordered_json soft = summary_json(m, s, true);
            soft["beta"] = e.beta;
            out["soft"] = soft;
        }
        return out;
    }
    nlohmann::ordered_json out;
    out["model"] = m.name;
    out["word"] = format_word(e.word, m.alphabet);
    out["outputs"] = app::decoded_outputs_json(m, e.hard, e.soft ? &*e.soft : nullptr);
    out["hard"] = app::trace_json(m, e.hard, false);
    if (e.soft) {
        nlohmann::ordered_json s = app::trace_json(m, *e.soft, true);
        s["beta"] = e.beta;
        out["soft"] = s;
    }
    return out;
}

std::string to_text(const EvalOutcome &e) {
    const Model &m = *e.model;
    std::ostringstream out;
    std::string word = format_word(e.word, m.alphabet);
    if (e.summary && word.size() > 80) {
        word.resize(60);
        word += "...";
    }
    out << "model " << m.name << " (" << e.model_path << "), word " << word
        << ", n = " << e.word.size() << "\n";
    if (e.summary) {
        const EvalSummary &s = *e.summary;
        if (e.show_hard) {
            out << "hard model (exact), each head's least gap:\n";
            print_summary(out, m, s, false);
        }
        if (s.soft) {
            out << "soft model at beta = " << e.beta << " (" << s.soft->prec
                << "-bit intervals), each head's largest TV:\n";
            print_summary(out, m, s, true);
        }
        return out.str();
    }
    if (e.show_hard) {
        out << "hard model (exact):\n";
        app::print_trace(out, m, e.hard, false);
    }
    if (e.soft) {
        out << "soft model at beta = " << e.beta << " (" << e.soft->prec << "-bit intervals):\n";
        app::print_trace(out, m, *e.soft, true);
    }
    return out.str();
}

int exit_code(const EvalOutcome &e) {
    const Trace *soft =
        e.summary ? (e.summary->soft ? &*e.summary->soft : nullptr) : (e.soft ? &*e.soft : nullptr);
    return soft && !soft->width_reached ? kExitUndecided : kExitOk;
}

} // namespace tempcert
