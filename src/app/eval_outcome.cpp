// The eval answer rendered (include/engine/tempcert/outcome.hpp).
#include "tempcert/error.hpp"
#include "tempcert/outcome.hpp"
#include "trace_json.hpp"
#include "trace_text.hpp"

#include <sstream>

namespace tempcert {

nlohmann::ordered_json to_json(const EvalOutcome &e) {
    const Model &m = *e.model;
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
    out << "model " << m.name << " (" << e.model_path << "), word "
        << format_word(e.word, m.alphabet) << ", n = " << e.word.size() << "\n";
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
    return e.soft && !e.soft->width_reached ? kExitUndecided : kExitOk;
}

} // namespace tempcert
