// JSON renderings of evaluation traces (for `eval --json`).
#pragma once

#include "tempcert/model.hpp"
#include "tempcert/trace.hpp"

#include <nlohmann/json.hpp>

namespace tempcert::cli {

using Json = nlohmann::ordered_json;

// "p/q" for exact values, ["lo", "hi"] decimal strings (outward) otherwise.
Json real_json(const Real &r);
Json trace_json(const Model &m, const Trace &t, bool soft);

} // namespace tempcert::cli
