// Reading the command line's options. Which flags a command takes, their
// defaults, ranges, choices and help are one table (option_table.hpp);
// parse_command registers and checks them, the readers below convert.
#pragma once

#include "run_context.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/eval.hpp"
#include "tempcert/limits.hpp"
#include "tempcert/model.hpp"

#include <boost/program_options.hpp>

#include <iostream>
#include <string>
#include <vector>

namespace tempcert::cli {

namespace po = boost::program_options;

struct Common {
    Limits limits;
    PrecisionPolicy precision;
    bool json = false;
};

// Prints a typed answer (tempcert/outcome.hpp) as the command line was
// asked: its to_json through the run's JSON sink with --json, else its
// to_text on standard output.
template <class Outcome> void render(const Outcome &out, const Common &common) {
    if (common.json)
        emit_json(to_json(out));
    else
        std::cout << to_text(out);
}

// The options every command takes: --json, --prec-cap, --time-limit,
// --threads and the limits (--max-*), as parse_command checked them.
Common read_common_options(const po::variables_map &vm);

// --n: 1 <= n <= --max-n (InputError / LimitError).
std::size_t read_n(const po::variables_map &vm, const Limits &limits);
// An exact number option ("0.01", "1/100", "1e-2"): > 0, and < 1 where
// the option table says so (tolerances).
Rational read_fraction(const po::variables_map &vm, const char *name);

// --criterion: tv, output or decision (checked as a choice when parsing).
Criterion read_criterion(const po::variables_map &vm);
// The MODEL positional argument (InputError naming `command` when absent).
std::string model_arg(const po::variables_map &vm, const char *command);

// --beta as given, with "native" replaced by the model's own inverse
// temperature (its beta_native expression; InputError when it has none), so
// certificates record the expression and never the word "native".
std::string beta_option(const po::variables_map &vm, const Model &m);
// `text` parsed as the beta of `m`'s layers for lengths up to n. With no
// attention head, nothing would ever evaluate it: its positivity is checked
// here, so a model without heads does not certify at beta -1.
// `where` names the beta's source in messages: "--beta", or the model's
// beta_native (beta_place).
BetaSpec parse_beta(const std::string &text, const Model &m, std::size_t n, Prec prec,
                    const std::string &where = "--beta");
// "--beta", or "$.beta_native of FILE" when the beta is the model's own
// (--beta native, or horizon without --beta).
std::string beta_place(const po::variables_map &vm, const Model &m);

// --alphabet a,b,...: symbols of letters, digits or _, none twice, at most
// --max-alphabet (InputError naming the column / LimitError).
std::vector<std::string> read_alphabet(const po::variables_map &vm, const Limits &limits);

// Parses `args` for command `name`: the flags the option table gives it,
// and one positional argument kind (`positional` may be empty). Checks the
// flags' ranges and choices; prints help and returns false on --help.
bool parse_command(const std::string &name, const std::string &usage, po::options_description &desc,
                   const std::vector<std::string> &args, const char *positional, int max_positional,
                   po::variables_map &vm);

} // namespace tempcert::cli
