// The table of every flag; see option_table.hpp.
#include "option_table.hpp"
#include "tempcert/error.hpp"
#include "tempcert/interval.hpp"
#include "tempcert/limit_options.hpp"

#include <sstream>
#include <stdexcept>
#include <thread>

namespace tempcert::cli {

namespace po = boost::program_options;

namespace {

using K = OptionKind;
constexpr long long kMaxCount = 1LL << 48;
const char *const kClaim = "certify tight";

const char *const kMethodHelp =
    "auto (exhaustive while --max-words allows, else layerwise), exhaustive (prefix sharing "
    "where the masks allow it), plain (every word from scratch), or layerwise (any n: exact "
    "rounding, else perturbation bounds)";

// Fields a row leaves out take OptionRow's defaults (no default value, no
// range, no choices, a positive fraction, no limit).
const OptionRow kRows[] = {
    // what is claimed: lengths, tolerance, criterion, method
    // --n: read_n checks 1 <= n <= --max-n
    {.name = "n",
     .commands = "certify tight gap",
     .kind = K::Count,
     .help = "largest input length"},
    {.name = "n",
     .commands = "bound",
     .kind = K::Count,
     .help = "N: the most allowed positions of a query (n for causal masks)"},
    {.name = "n",
     .commands = "theorem",
     .kind = K::Count,
     .help = "N (gap-lemma) or the largest input length"},
    // enumerated brackets to n = 8, symbolic (heads in layer 1) or layerwise
    // beyond: about a minute and a half on two cores for the bundled cases
    {.name = "n",
     .commands = "report",
     .kind = K::Text,
     .fallback = "2..8,16,32,64",
     .help = "lengths: ranges and lists, e.g. 2..64 or 2..10,16,32"},
    {.name = "eps",
     .commands = "certify tight horizon bound theorem",
     .kind = K::Fraction,
     .fraction = FractionRange::OpenUnit,
     .help = "tolerance, 0 < eps < 1 (0.01, 1/100, 1e-2)"},
    {.name = "eps",
     .commands = "report",
     .kind = K::Fraction,
     .fallback = "1/100",
     .fraction = FractionRange::OpenUnit,
     .help = "tolerance, 0 < eps < 1 (0.01, 1/100, 1e-2)"},
    {.name = "gap",
     .commands = "bound theorem",
     .kind = K::Fraction,
     .help = "the minimum gap gamma > 0 (exact: 2, 1/3, 0.25)"},
    {.name = "criterion",
     .commands = "certify tight horizon",
     .kind = K::Choice,
     .fallback = "tv",
     .choices = "tv|output|decision",
     .help = "tv, output or decision"},
    {.name = "method",
     .commands = kClaim,
     .kind = K::Choice,
     .fallback = "auto",
     .choices = "auto|exhaustive|plain|layerwise",
     .help = kMethodHelp},
    {.name = "method",
     .commands = "gap",
     .kind = K::Choice,
     .fallback = "auto",
     .choices = "auto|symbolic|exhaustive|plain",
     .help = "auto (symbolic for first-layer models, else exhaustive), symbolic, exhaustive "
             "(prefix sharing where the masks allow it), or plain (every word from scratch)"},
    {.name = "no-filter",
     .commands = kClaim,
     .kind = K::Switch,
     .help = "judge with MPFI only, without the double-interval filter in front (same results)"},
    // inverse temperatures
    {.name = "beta",
     .commands = "certify",
     .kind = K::Text,
     .help = "inverse temperature to certify (default: the model's beta_gap)"},
    {.name = "beta",
     .commands = "eval",
     .kind = K::Text,
     .help = "inverse temperature: a rational, an expression in n, or one per layer (2,5,5)"},
    {.name = "beta",
     .commands = "horizon",
     .kind = K::Text,
     .help = "inverse temperature: a number, an expression in n, per-layer list, or native (the "
             "model's own; the default when it has one)"},
    {.name = "beta",
     .commands = "theorem",
     .kind = K::Fraction,
     .help = "a claimed inverse temperature to check"},
    // tight brackets: --rel means the same in tight and report
    {.name = "rel",
     .commands = "tight report",
     .kind = K::Fraction,
     .fallback = "1e-6",
     .fraction = FractionRange::OpenUnit,
     .help = "tight brackets stop when beta_hi - beta_lo <= rel * beta_hi"},
    {.name = "per-layer",
     .commands = "tight",
     .kind = K::Switch,
     .help = "one beta per layer (tv): from the one-beta tight beta_hi, each layer's lowered in "
             "turn, the others as they stand"},
    {.name = "every-n",
     .commands = "certify",
     .kind = K::Switch,
     .help = "certify --beta (one number) for every length (scope as tight --every-n; "
             "proofs/every-n.md); -o writes an every-n certificate the small checker verifies "
             "before it is written; --n is the longest length examined exactly (default 1024)"},
    {.name = "every-n",
     .commands = "tight",
     .kind = K::Switch,
     .help = "the supremum over every length (tv, polynomial features; heads in layer 1 with "
             "causal or strict masks and affine keys, or any mask with scores a fixed profile of "
             "j - i; or several layers with exact rounding, by layers; proofs/every-n.md): a "
             "bracket certified for every n, or the growth law; --n is then the longest length "
             "examined exactly (default 1024)"},
    {.name = "every-n",
     .commands = "theorem",
     .kind = K::Switch,
     .help = "ltl-unbounded-pe: one constant beta for every length n (the supremum of the "
             "layers' need, proofs/every-n.md, Theorem L), in place of --range"},
    {.name = "pump-length",
     .commands = "tight report",
     .kind = K::Count,
     .fallback = "1024",
     .lo = 1,
     .hi = kMaxCount,
     .help = "beyond enumeration, the lower end's search pumps its words' runs up to this length "
             "(or n): longer refutes more where the need grows with n, at O(length^2) per word "
             "(2 length^2 weights per head, at most --max-entries)"},
    {.name = "tight-words",
     .commands = "report",
     .kind = K::Count,
     .fallback = "2048",
     .hi = kMaxCount,
     .help = "enumerate every word (tight bracket by bisection) when 1..n has at most this many "
             "words; beyond, the symbolic tight bracket (heads in layer 1) or layerwise bounds"},
    // inputs and outputs of single commands
    {.name = "input,i",
     .commands = "eval",
     .kind = K::Text,
     .help = "the word to evaluate (abba, or a,b,b,a)"},
    {.name = "hard",
     .commands = "eval",
     .kind = K::Switch,
     .help = "show the hard model (the default without --beta)"},
    {.name = "summary",
     .commands = "eval",
     .kind = K::Switch,
     .help = "per head only the least gap and the largest TV with their queries, and the "
             "read-outs: memory linear in the word's length (for words of thousands of symbols)"},
    {.name = "width",
     .commands = "eval",
     .kind = K::Fraction,
     .fallback = "1e-30",
     .help = "raise precision until every soft weight interval is narrower than this"},
    {.name = "model",
     .commands = "check export",
     .kind = K::Text,
     .help = "the model the certificate is about"},
    {.name = "alphabet",
     .commands = "compile theorem",
     .kind = K::Text,
     .help = "the symbols, comma-separated (a,b,c)"},
    {.name = "pe",
     .commands = "compile",
     .kind = K::Choice,
     .choices = "unbounded|bounded",
     .help = "positional encoding of the temporal operators: unbounded (j; gaps 1 at every n) or "
             "bounded (j/n; gaps 1/n); default unbounded"},
    {.name = "accept-at",
     .commands = "compile",
     .kind = K::Choice,
     .fallback = "last",
     .choices = "last|first",
     .help = "the position whose truth value decides acceptance: last or first"},
    {.name = "output,o",
     .commands = "certify",
     .kind = K::Text,
     .help = "write the certificate to this file"},
    {.name = "output,o",
     .commands = "tight",
     .kind = K::Text,
     .help = "write a certificate of beta_hi to this file (certify's method at beta_hi, checked "
             "before writing)"},
    {.name = "output,o",
     .commands = "compile import",
     .kind = K::Text,
     .help = "the model file to write"},
    {.name = "output,o", .commands = "export", .kind = K::Text, .help = "the Coq file to write"},
    {.name = "mona",
     .commands = "compile",
     .kind = K::Text,
     .help = "also write the formula as a MONA (M2L-Str) program"},
    {.name = "out",
     .commands = "report",
     .kind = K::Text,
     .fallback = "report",
     .help = "directory to write into"},
    {.name = "list",
     .commands = "theorem",
     .kind = K::Switch,
     .help = "list the theorems and their proofs"},
    {.name = "range",
     .commands = "theorem",
     .kind = K::Text,
     .help = "lengths n for the LTL theorems, e.g. 2..64"},
    {.name = "scale",
     .commands = "theorem",
     .kind = K::Fraction,
     .help =
         "ltl-temperature-scaling, counting-temperature: check scale * beta(n) instead (e.g. 2/3)"},
    // every command: output form, precision, time, threads, resource limits
    {.name = "json", .commands = "*", .kind = K::Switch, .help = "print machine-readable JSON"},
    {.name = "prec-cap",
     .commands = "*",
     .kind = K::Count,
     .fallback = "prec-cap",
     .lo = kPrecStart,
     .hi = kPrecMax,
     .help = "precision cap in bits for interval arithmetic (128..1048576)"},
    {.name = "time-limit",
     .commands = "*",
     .kind = K::Seconds,
     .fallback = "0",
     .hi = 10000000,
     .help = "wall-clock budget in seconds (0: none); reaching it exits 3"},
    {.name = "threads",
     .commands = "*",
     .kind = K::Count,
     .fallback = "cores",
     .lo = 1,
     .hi = kMaxThreads,
     .help = "worker threads for enumeration (1..256; default: all cores); results do not depend "
             "on it"},
};

bool takes(const OptionRow &row, const std::string &command) {
    if (std::string(row.commands) == "*") return true;
    std::istringstream names(row.commands);
    for (std::string c; names >> c;)
        if (c == command) return true;
    return false;
}

std::string long_name(const OptionRow &row) {
    std::string name = row.name;
    return name.substr(0, name.find(','));
}

// A Count row's default: its text, the limit's default, the precision cap's
// (Limits), or every core.
long long count_default(const OptionRow &row) {
    if (row.limit) return static_cast<long long>(Limits{}.*row.limit);
    if (std::string(row.fallback) == "prec-cap") return Limits{}.prec_cap;
    if (std::string(row.fallback) == "cores") return default_threads();
    return std::stoll(row.fallback);
}

// "a, b or c" from "a|b|c".
std::string spelled(const std::string &choices) {
    std::vector<std::string> parts;
    std::istringstream in(choices);
    for (std::string c; std::getline(in, c, '|');)
        parts.push_back(c);
    std::string out;
    for (std::size_t k = 0; k < parts.size(); ++k)
        out += (k == 0 ? "" : k + 1 == parts.size() ? " or " : ", ") + parts[k];
    return out;
}

} // namespace

unsigned default_threads() {
    unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : std::min(n, kMaxThreads);
}

namespace {

// The rows above, then one per resource limit (tempcert/limit_options.hpp,
// the table tempcert-check reads too), for every command.
std::vector<OptionRow> every_row() {
    std::vector<OptionRow> rows(std::begin(kRows), std::end(kRows));
    for (const LimitOption &l : limit_options())
        rows.push_back({.name = l.name,
                        .commands = "*",
                        .kind = OptionKind::Count,
                        .fallback = "",
                        .lo = l.lo,
                        .hi = l.hi,
                        .limit = l.field,
                        .help = l.help});
    return rows;
}

} // namespace

const std::vector<OptionRow> &option_table() {
    static const std::vector<OptionRow> table = every_row();
    return table;
}

const OptionRow &option_row(const std::string &command, const std::string &name) {
    for (const auto &row : option_table())
        if (long_name(row) == name && takes(row, command)) return row;
    throw std::logic_error("no option --" + name + " for " + command);
}

void add_command_options(po::options_description &desc, const std::string &command) {
    for (const auto &row : option_table()) {
        if (!takes(row, command)) continue;
        switch (row.kind) {
        case K::Count:
            if (row.fallback)
                desc.add_options()(
                    row.name, po::value<long long>()->default_value(count_default(row)), row.help);
            else
                desc.add_options()(row.name, po::value<long long>(), row.help);
            break;
        case K::Seconds:
            desc.add_options()(
                row.name, po::value<double>()->default_value(std::stod(row.fallback)), row.help);
            break;
        case K::Switch:
            desc.add_options()(row.name, po::bool_switch(), row.help);
            break;
        default:
            if (row.fallback)
                desc.add_options()(row.name, po::value<std::string>()->default_value(row.fallback),
                                   row.help);
            else
                desc.add_options()(row.name, po::value<std::string>(), row.help);
        }
    }
}

void check_command_options(const po::variables_map &vm, const std::string &command) {
    for (const auto &row : option_table()) {
        const std::string name = long_name(row);
        if (!takes(row, command) || !vm.count(name)) continue;
        if (row.kind == K::Count && row.lo < row.hi) {
            long long v = vm[name].as<long long>();
            if (v < row.lo || v > row.hi)
                throw InputError("", "--" + name,
                                 "expected a value from " + std::to_string(row.lo) + " to " +
                                     std::to_string(row.hi) + ", got " + std::to_string(v));
        }
        if (row.kind == K::Seconds) {
            double v = vm[name].as<double>();
            if (!(v >= 0) || v > static_cast<double>(row.hi))
                throw InputError("", "--" + name,
                                 "expected seconds from 0 to " + std::to_string(row.hi) + ", got " +
                                     std::to_string(v));
        }
        if (row.kind == K::Choice) {
            const std::string &v = vm[name].as<std::string>();
            bool known = false;
            std::istringstream in(row.choices);
            for (std::string c; std::getline(in, c, '|');)
                known = known || c == v;
            if (!known)
                throw InputError("", "--" + name,
                                 "expected " + spelled(row.choices) + ", got \"" + v + "\"");
        }
    }
}

} // namespace tempcert::cli
