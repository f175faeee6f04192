// The one table of every command-line flag, as
// CaDiCaL's options.hpp keeps its options: each row gives a flag's name,
// the commands that take it, its kind, default, range or choices, and help.
// Registration, --help, and the range and choice checks all come from it;
// the commands only read the values.
#pragma once

#include "tempcert/limits.hpp"

#include <boost/program_options.hpp>

#include <string>
#include <vector>

namespace tempcert::cli {

enum class OptionKind {
    Count,    // a whole number in [lo, hi] (read as long long)
    Seconds,  // a non-negative number of seconds (read as double)
    Fraction, // an exact number ("0.01", "1/100", "1e-2"), see FractionRange
    Choice,   // one of `choices`
    Text,     // a string the command reads itself (a file, a word, a list)
    Switch,   // present or not
};

// Where a Fraction must lie.
enum class FractionRange { Positive, OpenUnit };

struct OptionRow {
    const char *name;     // as boost spells it: "output,o" has the short form -o
    const char *commands; // space-separated command names, or "*" for every command
    OptionKind kind;
    const char *fallback = nullptr; // the default as text; nullptr: none (absent unless given)
    long long lo = 0, hi = 0;       // Count range (when lo < hi)
    const char *choices = nullptr;  // Choice: "tv|output|decision"
    FractionRange fraction = FractionRange::Positive;
    std::size_t Limits::*limit = nullptr; // Count rows that are a resource limit
    const char *help = "";
};

// Worker threads by default: every core (1 when unknown), at most kMaxThreads.
unsigned default_threads();

// Every row, in the order --help lists them.
const std::vector<OptionRow> &option_table();

// The row of flag `name` (long name, without dashes) that `command` takes;
// throws std::logic_error when there is none (a bug in a command).
const OptionRow &option_row(const std::string &command, const std::string &name);

// Adds every flag `command` takes to `desc`, with its default and help.
void add_command_options(boost::program_options::options_description &desc,
                         const std::string &command);

// Checks each given Count against its range and each Choice against its
// choices (InputError naming the flag and what was expected).
void check_command_options(const boost::program_options::variables_map &vm,
                           const std::string &command);

} // namespace tempcert::cli
