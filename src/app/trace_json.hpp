// JSON renderings of evaluation traces (for `eval --json`).
#pragma once

#include "tempcert/model.hpp"
#include "tempcert/trace.hpp"

#include <nlohmann/json.hpp>

namespace tempcert::app {

using Json = nlohmann::ordered_json;

// "p/q" for exact values, ["lo", "hi"] decimal strings (outward) otherwise.
Json real_json(const Real &r);
Json trace_json(const Model &m, const Trace &t, bool soft);
// One entry per read position: "position", "hard" and (with a soft trace)
// "soft", each an exact rational string, an enclosure [lo, hi], a label,
// null (no output) or "undecided".
Json decoded_outputs_json(const Model &m, const Trace &hard, const Trace *soft);

} // namespace tempcert::app
