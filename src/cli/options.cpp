// Shared options of every command; see options.hpp.
#include "options.hpp"
#include "../distributed/ranks.hpp"
#include "dispatch.hpp"
#include "option_table.hpp"
#include "tempcert/error.hpp"
#include "tempcert/output.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <set>
#include <thread>
#include <unistd.h>

namespace tempcert::cli {

namespace {

// TEMPCERT_PROGRESS=1 asks for the progress line where standard error is not
// a terminal; under MPI only rank 0 prints it.
bool progress_asked() {
    const char *v = std::getenv("TEMPCERT_PROGRESS");
    return v && std::string(v) == "1" && detail::rank_index() == 0;
}

} // namespace

Common read_common_options(const po::variables_map &vm) {
    // ranges were checked against the option table when parsing
    Common c;
    c.json = vm["json"].as<bool>();
    c.limits.prec_cap = static_cast<long>(vm["prec-cap"].as<long long>());
    Run &run = current_run_state();
    c.limits.run = &run;
    run.set_time_limit(vm["time-limit"].as<double>());
    if (const ProgressHook &hook = current_run().progress) {
        run.progress = hook;
    } else if (isatty(STDERR_FILENO) || progress_asked()) {
        // A progress line on the terminal, at most every 200 ms; nothing when
        // piped unless TEMPCERT_PROGRESS=1 (under mpirun, where standard error
        // is always a pipe: rank 0's line counts every rank's words).
        auto last = std::make_shared<std::chrono::steady_clock::time_point>();
        run.progress = [last](std::uint64_t done, std::uint64_t total) {
            auto now = std::chrono::steady_clock::now();
            if (now - *last < std::chrono::milliseconds(200) && done + 1 < total) return;
            *last = now;
            std::fprintf(
                stderr, "\r  %llu / %llu words (%.0f%%)\x1b[K",
                static_cast<unsigned long long>(done), static_cast<unsigned long long>(total),
                total ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 100.0);
            if (done + 1 >= total) std::fprintf(stderr, "\r\x1b[K");
        };
    }
    c.precision.cap = c.limits.prec_cap;
    // counts are read signed, so that -1 is reported as -1 (an unsigned read wraps it)
    run.threads = static_cast<unsigned>(vm["threads"].as<long long>());
    for (const auto &row : option_table())
        if (row.limit) c.limits.*row.limit = static_cast<std::size_t>(vm[row.name].as<long long>());
    return c;
}

std::size_t read_n(const po::variables_map &vm, const Limits &limits) {
    if (!vm.count("n")) throw InputError("", "--n", "expected --n N, the largest input length");
    long long n = vm["n"].as<long long>();
    if (n < 1) throw InputError("", "--n", "expected n >= 1, got " + std::to_string(n));
    if (static_cast<unsigned long long>(n) > limits.max_n)
        throw LimitError("--n " + std::to_string(n) + " is more than the limit " +
                         std::to_string(limits.max_n) + " (--max-n)");
    return static_cast<std::size_t>(n);
}

Rational read_fraction(const po::variables_map &vm, const char *name) {
    bool open_unit = false;
    for (const auto &row : option_table())
        if (row.kind == OptionKind::Fraction && std::string(row.name) == name)
            open_unit = row.fraction == FractionRange::OpenUnit;
    std::string option = std::string("--") + name;
    if (!vm.count(name)) throw InputError("", option, "expected " + option + " VALUE");
    std::string why;
    // one limit per quantity: a number on the command line is bounded by
    // --max-number-chars, as one in a model file is
    std::size_t max_chars = Limits{}.max_number_chars;
    if (vm.count("max-number-chars"))
        max_chars = static_cast<std::size_t>(vm["max-number-chars"].as<long long>());
    const std::string &text = vm[name].as<std::string>();
    if (text.size() > max_chars) // a limit, exit 3, as for a number in a model
        throw LimitError(option + ": the number has " + std::to_string(text.size()) +
                         " characters, more than the limit " + std::to_string(max_chars) +
                         " (--max-number-chars)");
    auto q = parse_rational_scientific(text, why, max_chars);
    if (!q) throw InputError("", option, why);
    if (*q <= 0 || (open_unit && *q >= 1))
        throw InputError("", option,
                         std::string("expected a number ") +
                             (open_unit ? "strictly between 0 and 1" : "> 0") + ", got " +
                             vm[name].as<std::string>());
    return *q;
}

// A message with every run of over 40 characters without spaces shortened
// (abbreviated()), so that an option value of 1900 digits is not echoed.
std::string abbreviate_long_words(const std::string &text) {
    std::string out, word;
    for (char c : text + " ") {
        if (c == ' ') {
            out += abbreviated(word) + " ";
            word.clear();
        } else {
            word += c;
        }
    }
    out.pop_back();
    return out;
}

// Boost.Program_options (1.74) builds an error message by replacing each
// "%option%", "%value%", ... in it with the offending text until none is
// left, so an argument that itself contains such a token makes that loop
// endless. Any "%name%" in an argument is refused before parsing.
namespace {
void refuse_placeholder_tokens(const std::vector<std::string> &args, const std::string &shown) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        for (std::size_t open = arg.find('%'); open != std::string::npos;
             open = arg.find('%', open + 1)) {
            std::size_t close = open + 1;
            while (close < arg.size() &&
                   (std::isalpha(static_cast<unsigned char>(arg[close])) || arg[close] == '_'))
                ++close;
            if (close == open + 1 || close == arg.size() || arg[close] != '%') continue;
            throw InputError("", shown,
                             "argument " + std::to_string(i + 1) + " ('" + abbreviated(arg) +
                                 "') contains '" + arg.substr(open, close + 1 - open) +
                                 "': text of the form %name% is not accepted in arguments");
        }
    }
}
} // namespace

bool parse_command(const std::string &name, const std::string &usage, po::options_description &desc,
                   const std::vector<std::string> &args, const char *positional, int max_positional,
                   po::variables_map &vm) {
    add_command_options(desc, name);
    desc.add_options()("help,h", "show this help");
    po::options_description all(desc);
    po::positional_options_description pos;
    if (positional) {
        all.add_options()(positional, po::value<std::vector<std::string>>(), "");
        pos.add(positional, max_positional);
    }
    // "" is the main job (no command): `tempcert --threads 1`
    const std::string shown = name.empty() ? "tempcert" : "tempcert " + name;
    refuse_placeholder_tokens(args, shown);
    try {
        po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
        po::notify(vm);
    } catch (const po::error &e) {
        throw InputError("", shown,
                         abbreviate_long_words(e.what()) + " (see " + shown + " --help)");
    }
    if (vm.count("help")) {
        std::cout << "usage: " << shown << " " << usage << "\n\n" << desc << "\n";
        return false;
    }
    check_command_options(vm, name);
    // `-o -`: the results own standard output, the summary goes to stderr
    for (const char *output : {"output", "mona"})
        if (vm.count(output) && names_standard_output(vm[output].as<std::string>()))
            claim_standard_output();
    return true;
}

Criterion read_criterion(const po::variables_map &vm) {
    Criterion c;
    parse_criterion(vm["criterion"].as<std::string>(), c); // a choice of the option table
    return c;
}

std::string model_arg(const po::variables_map &vm, const char *command) {
    if (!vm.count("model"))
        throw InputError("", std::string("tempcert ") + command, "expected a MODEL file");
    return vm["model"].as<std::vector<std::string>>().front();
}

std::string beta_place(const po::variables_map &vm, const Model &m) {
    bool native = !vm.count("beta") || vm["beta"].as<std::string>() == "native";
    return native && m.beta_native ? "$.beta_native of " + m.source : std::string("--beta");
}

BetaSpec parse_beta(const std::string &text, const Model &m, std::size_t n, Prec prec,
                    const std::string &where) {
    BetaSpec beta = BetaSpec::parse(text, m.layers.size(), where);
    bool heads = false;
    for (const auto &layer : m.layers)
        heads = heads || !layer.heads.empty();
    if (!heads) beta.require_positive(n, prec);
    return beta;
}

std::string beta_option(const po::variables_map &vm, const Model &m) {
    std::string text = vm["beta"].as<std::string>();
    if (text != "native") return text;
    if (!m.beta_native)
        throw InputError(m.source, "--beta native",
                         "the model declares no native inverse temperature (beta_native)");
    return m.beta_native->canonical();
}

std::vector<std::string> read_alphabet(const po::variables_map &vm, const Limits &limits) {
    if (!vm.count("alphabet")) throw InputError("", "--alphabet", "expected --alphabet a,b,...");
    std::vector<std::string> alphabet;
    std::set<std::string> seen;
    std::string list = vm["alphabet"].as<std::string>();
    for (std::size_t start = 0;;) {
        std::size_t comma = list.find(',', start);
        std::string sym =
            list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        bool ok = !sym.empty();
        for (char c : sym)
            ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
        if (!ok)
            throw InputError("", "--alphabet, column " + std::to_string(start + 1),
                             "expected a symbol of letters, digits or _, got \"" + sym + "\"");
        if (!seen.insert(sym).second)
            throw InputError("", "--alphabet, column " + std::to_string(start + 1),
                             "symbol \"" + sym + "\" appears twice");
        alphabet.push_back(sym);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (alphabet.size() > limits.max_alphabet)
        throw LimitError("the alphabet has more than " + std::to_string(limits.max_alphabet) +
                         " symbols (--max-alphabet)");
    return alphabet;
}

} // namespace tempcert::cli
