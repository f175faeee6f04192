// The table of every flag; see option_table.hpp.
#include "option_table.hpp"
#include "tempcert/error.hpp"
#include "tempcert/interval.hpp"

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
    "where the masks allow it), plain (every word from scratch), or layerwise (rounded models, "
    "any n)";

// Each row's fields in the order of OptionRow: name, commands, kind,
// default, lo, hi, choices, fraction range, limit, help.
const OptionRow kRows[] = {
        // what is claimed: lengths, tolerance, criterion, method
        // --n: read_n checks 1 <= n <= --max-n
        {"n", "certify tight gap", K::Count, nullptr, 0, 0, nullptr,
         FractionRange::Positive, nullptr, "largest input length"},
        {"n", "bound", K::Count, nullptr, 0, 0, nullptr, FractionRange::Positive, nullptr,
         "N: the most allowed positions of a query (n for causal masks)"},
        {"n", "theorem", K::Count, nullptr, 0, 0, nullptr, FractionRange::Positive,
         nullptr, "N (gap-lemma) or the largest input length"},
        // enumerated brackets to n = 8, symbolic (heads in layer 1) or layerwise
        // beyond: about a minute and a half on two cores for the bundled cases
        {"n", "report", K::Text, "2..8,16,32,64", 0, 0, nullptr, FractionRange::Positive, nullptr,
         "lengths: ranges and lists, e.g. 2..64 or 2..10,16,32"},
        {"eps", "certify tight horizon bound theorem", K::Fraction, nullptr, 0, 0, nullptr,
         FractionRange::OpenUnit, nullptr, "tolerance, 0 < eps < 1 (0.01, 1/100, 1e-2)"},
        {"eps", "report", K::Fraction, "1/100", 0, 0, nullptr, FractionRange::OpenUnit, nullptr,
         "tolerance, 0 < eps < 1 (0.01, 1/100, 1e-2)"},
        {"gap", "bound theorem", K::Fraction, nullptr, 0, 0, nullptr, FractionRange::Positive,
         nullptr, "the minimum gap gamma > 0 (exact: 2, 1/3, 0.25)"},
        {"criterion", "certify tight horizon", K::Choice, "tv", 0, 0, "tv|output|decision",
         FractionRange::Positive, nullptr, "tv, output or decision"},
        {"method", kClaim, K::Choice, "auto", 0, 0, "auto|exhaustive|plain|layerwise",
         FractionRange::Positive, nullptr, kMethodHelp},
        {"method", "gap", K::Choice, "auto", 0, 0, "auto|symbolic|exhaustive|plain",
         FractionRange::Positive, nullptr,
         "auto (symbolic for first-layer models, else exhaustive), symbolic, exhaustive (prefix "
         "sharing where the masks allow it), or plain (every word from scratch)"},
        {"no-filter", kClaim, K::Switch, nullptr, 0, 0, nullptr, FractionRange::Positive, nullptr,
         "judge with MPFI only, without the double-interval filter in front (same results)"},
        // inverse temperatures
        {"beta", "certify", K::Text, nullptr, 0, 0, nullptr, FractionRange::Positive, nullptr,
         "inverse temperature to certify (default: the model's beta_gap)"},
        {"beta", "eval", K::Text, nullptr, 0, 0, nullptr, FractionRange::Positive, nullptr,
         "inverse temperature: a rational, an expression in n, or one per layer (2,5,5)"},
        {"beta", "horizon", K::Text, nullptr, 0, 0, nullptr, FractionRange::Positive, nullptr,
         "inverse temperature: a number, an expression in n, per-layer list, or native (the "
         "model's own; the default when it has one)"},
        {"beta", "theorem", K::Fraction, nullptr, 0, 0, nullptr, FractionRange::Positive, nullptr,
         "a claimed inverse temperature to check"},
        // tight brackets: --rel means the same in tight and report
        {"rel", "tight report", K::Fraction, "1e-6", 0, 0, nullptr, FractionRange::OpenUnit,
         nullptr, "tight brackets stop when beta_hi - beta_lo <= rel * beta_hi"},
        {"per-layer", "tight", K::Switch, nullptr, 0, 0, nullptr, FractionRange::Positive, nullptr,
         "one beta per layer (tv): from the one-beta tight beta_hi, each layer's lowered in "
         "turn, the others as they stand"},
        {"tight-words", "report", K::Count, "2048", 0, kMaxCount, nullptr,
         FractionRange::Positive, nullptr,
         "enumerate every word (tight bracket by bisection) when 1..n has at most this many "
         "words; beyond, the symbolic tight bracket (heads in layer 1) or layerwise bounds"},
        // inputs and outputs of single commands
        {"input,i", "eval", K::Text, nullptr, 0, 0, nullptr, FractionRange::Positive, nullptr,
         "the word to evaluate (abba, or a,b,b,a)"},
        {"hard", "eval", K::Switch, nullptr, 0, 0, nullptr, FractionRange::Positive, nullptr,
         "show the hard model (the default without --beta)"},
        {"width", "eval", K::Fraction, "1e-30", 0, 0, nullptr, FractionRange::Positive, nullptr,
         "raise precision until every soft weight interval is narrower than this"},
        {"model", "check", K::Text, nullptr, 0, 0, nullptr, FractionRange::Positive, nullptr,
         "the model the certificate is about"},
        {"alphabet", "compile theorem", K::Text, nullptr, 0, 0, nullptr, FractionRange::Positive,
         nullptr, "the symbols, comma-separated (a,b,c)"},
        {"pe", "compile", K::Choice, nullptr, 0, 0, "unbounded|bounded", FractionRange::Positive,
         nullptr,
         "positional encoding of the temporal operators: unbounded (j; gaps 1 at every n) or "
         "bounded (j/n; gaps 1/n); default unbounded"},
        {"accept-at", "compile", K::Choice, "last", 0, 0, "last|first", FractionRange::Positive,
         nullptr, "the position whose truth value decides acceptance: last or first"},
        {"output,o", "certify", K::Text, nullptr, 0, 0, nullptr, FractionRange::Positive, nullptr,
         "write the certificate to this file"},
        {"output,o", "compile import", K::Text, nullptr, 0, 0, nullptr, FractionRange::Positive,
         nullptr, "the model file to write"},
        {"mona", "compile", K::Text, nullptr, 0, 0, nullptr, FractionRange::Positive, nullptr,
         "also write the formula as a MONA (M2L-Str) program"},
        {"out", "report", K::Text, "report", 0, 0, nullptr, FractionRange::Positive, nullptr,
         "directory to write into"},
        {"list", "theorem", K::Switch, nullptr, 0, 0, nullptr, FractionRange::Positive, nullptr,
         "list the theorems and their proofs"},
        {"range", "theorem", K::Text, nullptr, 0, 0, nullptr, FractionRange::Positive, nullptr,
         "lengths n for the LTL theorems, e.g. 2..64"},
        {"scale", "theorem", K::Fraction, nullptr, 0, 0, nullptr, FractionRange::Positive, nullptr,
         "ltl-temperature-scaling, counting-temperature: check scale * beta(n) instead (e.g. "
         "2/3)"},
        // every command: output form, precision, time, threads, resource limits
        {"json", "*", K::Switch, nullptr, 0, 0, nullptr, FractionRange::Positive, nullptr,
         "print machine-readable JSON"},
        {"prec-cap", "*", K::Count, "prec-cap", kPrecStart, kPrecMax, nullptr, FractionRange::Positive,
         nullptr, "precision cap in bits for interval arithmetic (128..1048576)"},
        {"time-limit", "*", K::Seconds, "0", 0, 10000000, nullptr, FractionRange::Positive,
         nullptr, "wall-clock budget in seconds (0: none); reaching it exits 3"},
        {"threads", "*", K::Count, "cores", 1, kMaxThreads, nullptr, FractionRange::Positive,
         nullptr,
         "worker threads for enumeration (1..256; default: all cores); results do not depend on "
         "it"},
        {"max-width", "*", K::Count, "", 1, 1 << 20, nullptr, FractionRange::Positive,
         &Limits::max_width, "largest residual, key, value or hidden width"},
        {"max-layers", "*", K::Count, "", 1, 1 << 16, nullptr, FractionRange::Positive,
         &Limits::max_layers, "most layers in a model"},
        {"max-heads", "*", K::Count, "", 1, 1 << 16, nullptr, FractionRange::Positive,
         &Limits::max_heads, "most heads in one layer"},
        {"max-alphabet", "*", K::Count, "", 1, 1 << 20, nullptr, FractionRange::Positive,
         &Limits::max_alphabet, "most symbols in an alphabet"},
        {"max-number-chars", "*", K::Count, "", 1, 1 << 24, nullptr, FractionRange::Positive,
         &Limits::max_number_chars, "most characters in one number of a model file"},
        {"max-entries", "*", K::Count, "", 1, 1LL << 32, nullptr, FractionRange::Positive,
         &Limits::max_entries, "most matrix and vector entries in a model"},
        {"max-file-bytes", "*", K::Count, "", 1, 1LL << 34, nullptr, FractionRange::Positive,
         &Limits::max_file_bytes, "largest input file"},
        {"max-n", "*", K::Count, "", 1, 1LL << 32, nullptr, FractionRange::Positive,
         &Limits::max_n, "longest input length n"},
        {"max-words", "*", K::Count, "", 1, 1LL << 40, nullptr, FractionRange::Positive,
         &Limits::max_words, "most words an exhaustive enumeration may visit"},
        {"max-queries", "*", K::Count, "", 1, 1LL << 48, nullptr, FractionRange::Positive,
         &Limits::max_queries,
         "most query configurations one head's symbolic or layerwise analysis may examine, each "
         "counted at the symbol pairs or positions it compares"},
        {"max-values", "*", K::Count, "", 1, 1LL << 32, nullptr, FractionRange::Positive,
         &Limits::max_values, "most hard values one position may hold in the layerwise method"},
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

const std::vector<OptionRow> &option_table() {
    static const std::vector<OptionRow> table(std::begin(kRows), std::end(kRows));
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
                desc.add_options()(row.name, po::value<long long>()->default_value(count_default(row)),
                                   row.help);
            else
                desc.add_options()(row.name, po::value<long long>(), row.help);
            break;
        case K::Seconds:
            desc.add_options()(row.name, po::value<double>()->default_value(std::stod(row.fallback)),
                               row.help);
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
                                 "expected seconds from 0 to " + std::to_string(row.hi) +
                                     ", got " + std::to_string(v));
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
