// The tight --every-n answer rendered (include/engine/tempcert/outcome.hpp).
#include "render_parts.hpp"
#include "tempcert/error.hpp"
#include "tempcert/outcome.hpp"
#include "tempcert/word.hpp"

#include <cstdio>
#include <sstream>

namespace tempcert {

namespace {

using Json = nlohmann::ordered_json;

std::string claim(const EveryNOutcome &o) {
    return "model " + o.model->name + ", every n, eps = " + to_string(o.eps) + ", criterion " +
           to_string(o.criterion);
}

Json growth_json(const EveryNResult &r) {
    Json ws = Json::array();
    for (const auto &w : r.growth_witnesses)
        ws.push_back({{"layer", 1},
                      {"head", w.head},
                      {"query", w.query},
                      {"holder", w.holder},
                      {"rival", w.rival},
                      {"delta", to_string(w.delta)}});
    return ws;
}

// The envelope's excess over tight(n)'s upper end, by n, as "0.52%".
Json excess_json(const EveryNResult &r) {
    Json j = Json::object();
    for (const auto &[n, x] : r.envelope_excess) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.2f%%", 100 * x);
        j[std::to_string(n)] = buf;
    }
    return j;
}

// Theorem L's per-layer needs over every length, layers with heads only.
Json layer_sups_json(const EveryNResult &r) {
    Json ls = Json::array();
    for (std::size_t l = 0; l < r.layer_sups.size(); ++l)
        if (r.layer_sups[l].hi > 0)
            ls.push_back({{"layer", l + 1},
                          {"beta_lo", decimal_significant(r.layer_sups[l].lo, 15, false)},
                          {"beta_hi", decimal_significant(r.layer_sups[l].hi, 15, true)}});
    return ls;
}

const char *method_name(const EveryNResult &r) {
    return r.by_layers ? "layers" : r.windows ? "windows" : "tail";
}

} // namespace

Json to_json(const EveryNOutcome &o) {
    const EveryNResult &r = o.result;
    Json j{{"model", o.model->name},
           {"every_n", true},
           {"eps", to_string(o.eps)},
           {"criterion", to_string(o.criterion)},
           {"bounded", r.bounded}};
    if (r.bounded) {
        app::add_bracket_json(j, r.beta_lo, r.beta_hi, r.lo_witness, *o.model);
        if (r.by_layers) j["layer_sups"] = layer_sups_json(r);
        j.update(Json{{"converged", r.converged},
                      {"method", method_name(r)},
                      {"n0", r.n0},
                      {"finite_n", r.n_finite},
                      {"finite_beta_hi", decimal_significant(r.finite_hi, 15, true)},
                      {"tail_beta_hi", decimal_significant(r.tail_hi, 15, true)},
                      {"tail_terms", r.tail_terms}});
    } else {
        j.update(Json{{"growth", r.growth},
                      {"growth_rate", to_string(r.growth_rate)},
                      {"beta_expr", r.beta_expr.empty() ? Json() : Json(r.beta_expr)},
                      {"envelope_excess", excess_json(r)},
                      {"n0", r.n0},
                      {"growth_witnesses", growth_json(r)}});
    }
    j.update(Json{{"n_exact_max", o.n_exact}, {"note", r.note}, {"proof", "proofs/every-n.md"}});
    return j;
}

std::string to_text(const EveryNOutcome &o) {
    const EveryNResult &r = o.result;
    std::ostringstream out;
    out << claim(o) << "\n";
    if (!r.bounded) {
        out << "no constant beta: the tight beta grows like " << to_string(r.growth_rate)
            << " ln n\n";
        for (const auto &w : r.growth_witnesses)
            out << "  layer 1 head " << w.head << ", query " << w.query << ": " << w.rival
                << " sits " << to_string(w.delta) << " below " << w.holder
                << " at every position; the word " << w.holder << " " << w.rival << "..." << w.rival
                << " " << w.query << " of length n needs beta >= ln((n-2)(1-eps)/(3 eps)) / "
                << to_string(w.delta) << "\n";
        if (r.beta_expr.empty()) {
            out << "  envelope beta(n): not found (the tail starts past --n)\n";
        } else {
            out << "  envelope beta(n) = " << r.beta_expr
                << ": certified for every word of every length n (proofs/every-n.md, Lemma E4)";
            for (const auto &[n, x] : r.envelope_excess) {
                char buf[48];
                std::snprintf(buf, sizeof buf, "%s%.2f%% above tight(%zu)",
                              &n == &r.envelope_excess.front().first ? "; " : ", ", 100 * x, n);
                out << buf;
            }
            out << "\n";
        }
        out << "  note: " << r.note << "\n";
        return out.str();
    }
    out << "sup over n of the tight beta in [" << decimal_significant(r.beta_lo, 15, false) << ", "
        << decimal_significant(r.beta_hi, 15, true) << "]\n";
    if (r.by_layers) {
        out << "  beta_hi " << decimal_significant(r.beta_hi, 15, true)
            << ": certified for every word of every length by layers (Theorem L: exact "
               "rounding, each layer's need over every length";
        for (std::size_t l = 0; l < r.layer_sups.size(); ++l)
            if (r.layer_sups[l].hi > 0)
                out << "; layer " << l + 1 << " in ["
                    << decimal_significant(r.layer_sups[l].lo, 15, false) << ", "
                    << decimal_significant(r.layer_sups[l].hi, 15, true) << "]";
        out << ")\n";
    } else if (r.windows) {
        out << "  beta_hi " << decimal_significant(r.beta_hi, 15, true)
            << ": certified for every word of every length (Theorem T: the profile's series over "
               "every window of offsets, with its tail bound)\n";
    } else if (r.n0 == 0) {
        out << "  note: " << r.note << "\n";
        return out.str();
    } else {
        out << "  beta_hi " << decimal_significant(r.beta_hi, 15, true)
            << ": certified for every word of every length (queries at positions < " << r.n0
            << " by the tight bracket at n = " << r.n_finite << ", upper end "
            << decimal_significant(r.finite_hi, 15, true) << "; positions >= " << r.n0
            << " by the tail bound, " << decimal_significant(r.tail_hi, 15, true) << ", "
            << r.tail_terms << " terms)\n";
    }
    if (r.lo_witness)
        out << "  beta_lo " << decimal_significant(r.beta_lo, 15, false) << ": refuted by "
            << format_word(r.lo_witness->word, o.model->alphabet) << " (" << r.lo_witness->detail
            << ")\n";
    out << "  note: " << r.note << "\n";
    return out.str();
}

int exit_code(const EveryNOutcome &t) {
    return t.result.bounded && t.result.converged ? kExitOk : kExitUndecided;
}

} // namespace tempcert
