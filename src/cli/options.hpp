// The command line's shared options: one table of limits and precision
// options (name, default, range, help) that every command registers, so
// parsing, --help and limit checks come from one place.
#pragma once

#include "tempcert/eval.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/limits.hpp"
#include "tempcert/model.hpp"

#include <boost/program_options.hpp>

#include <string>
#include <vector>

namespace tempcert::cli {

namespace po = boost::program_options;

// The flag the SIGINT handler sets (installed by main).
const volatile std::sig_atomic_t *interrupt_flag();

struct Common {
    Limits limits;
    PrecisionPolicy precision;
    bool json = false;
};

// Adds --json, --prec-cap and the limit options (--max-*) to `desc`.
void add_common_options(po::options_description &desc);
// Reads them back, checking each against its range (InputError, exit 2).
Common read_common_options(const po::variables_map &vm);

// --n: 1 <= n <= --max-n (InputError / LimitError).
std::size_t read_n(const po::variables_map &vm, const Limits &limits);
// An exact positive number option ("0.01", "1/100", "1e-2"); with
// `open_unit`, also < 1 (tolerances).
Rational read_fraction(const po::variables_map &vm, const char *name, bool open_unit);

// --criterion: tv, output or decision (InputError otherwise).
Criterion read_criterion(const po::variables_map &vm);
// The MODEL positional argument (InputError naming `command` when absent).
std::string model_arg(const po::variables_map &vm, const char *command);

// --beta as given, with "native" replaced by the model's own inverse
// temperature (its beta_native expression; InputError when it has none), so
// certificates record the expression and never the word "native".
std::string beta_option(const po::variables_map &vm, const Model &m);

// Worker threads by default: every core (1 when unknown), at most kMaxThreads.
unsigned default_threads();

// --alphabet a,b,...: symbols of letters, digits or _, none twice, at most
// --max-alphabet (InputError naming the column / LimitError).
std::vector<std::string> read_alphabet(const po::variables_map &vm, const Limits &limits);

// Parses `args` for command `name` with one positional argument kind
// (`positional` may be empty). Prints help and returns false on --help.
bool parse_command(const std::string &name, const std::string &usage, po::options_description &desc,
                   const std::vector<std::string> &args, const char *positional, int max_positional,
                   po::variables_map &vm);

} // namespace tempcert::cli
