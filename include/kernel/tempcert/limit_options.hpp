// The resource limits as options, one row each: the one table that both
// tempcert's option table (src/cli/option_table.cpp) and tempcert-check's
// parser read, so that a name, a range or a help text cannot drift between
// them and every limit a certificate was made under can be given to the
// checker too.
#pragma once

#include "tempcert/limits.hpp"

#include <cstddef>
#include <string_view>
#include <vector>

namespace tempcert {

struct LimitOption {
    const char *name;           // without dashes: "max-n"
    long long lo, hi;           // the accepted range
    std::size_t Limits::*field; // its default is Limits{}.*field
    const char *help;
};

// Every row, in the order --help lists them.
const std::vector<LimitOption> &limit_options();

// The row named `name` (without dashes), or nullptr.
const LimitOption *find_limit_option(std::string_view name);

} // namespace tempcert
