// Readable tables of evaluation traces (for `eval` without --json).
#pragma once

#include "tempcert/model.hpp"
#include "tempcert/trace.hpp"

#include <ostream>

namespace tempcert::app {

void print_trace(std::ostream &os, const Model &m, const Trace &t, bool soft);

} // namespace tempcert::app
