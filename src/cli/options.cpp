// Shared options of every command; see options.hpp.
#include "options.hpp"
#include "dispatch.hpp"
#include "tempcert/error.hpp"

#include <cctype>
#include <cstdio>
#include <iostream>
#include <memory>
#include <set>
#include <thread>
#include <unistd.h>

namespace tempcert::cli {

namespace {

// One row per limit: option, default (from Limits), range, help.
struct LimitRow {
    const char *name;
    std::size_t Limits::*field;
    std::size_t lo, hi;
    const char *help;
};

const LimitRow kLimitRows[] = {
    {"max-width", &Limits::max_width, 1, 1u << 20, "largest residual, key, value or hidden width"},
    {"max-layers", &Limits::max_layers, 1, 1u << 16, "most layers in a model"},
    {"max-heads", &Limits::max_heads, 1, 1u << 16, "most heads in one layer"},
    {"max-alphabet", &Limits::max_alphabet, 1, 1u << 20, "most symbols in an alphabet"},
    {"max-number-chars", &Limits::max_number_chars, 1, 1u << 24,
     "most characters in one number of a model file"},
    {"max-entries", &Limits::max_entries, 1, std::size_t(1) << 32,
     "most matrix and vector entries in a model"},
    {"max-file-bytes", &Limits::max_file_bytes, 1, std::size_t(1) << 34, "largest input file"},
    {"max-n", &Limits::max_n, 1, std::size_t(1) << 32, "longest input length n"},
    {"max-words", &Limits::max_words, 1, std::size_t(1) << 40,
     "most words an exhaustive enumeration may visit"},
    {"max-queries", &Limits::max_queries, 1, std::size_t(1) << 48,
     "most query configurations one head's symbolic or layerwise analysis may examine, "
     "each counted at the symbol pairs or positions it compares"},
    {"max-values", &Limits::max_values, 1, std::size_t(1) << 32,
     "most hard values one position may hold in the layerwise method"},
};

} // namespace

void add_common_options(po::options_description &desc) {
    Limits defaults;
    desc.add_options()("json", po::bool_switch(), "print machine-readable JSON")(
        "prec-cap", po::value<long>()->default_value(defaults.prec_cap),
        "precision cap in bits for interval arithmetic (128..1048576)")(
        "time-limit", po::value<double>()->default_value(0),
        "wall-clock budget in seconds (0: none); reaching it exits 3")(
        "threads", po::value<long long>()->default_value(default_threads()),
        "worker threads for enumeration (1..256; default: all cores); results do not depend "
        "on it");
    for (const auto &row : kLimitRows)
        desc.add_options()(
            row.name,
            po::value<long long>()->default_value(static_cast<long long>(defaults.*row.field)),
            row.help);
}

Common read_common_options(const po::variables_map &vm) {
    Common c;
    c.json = vm["json"].as<bool>();
    long cap = vm["prec-cap"].as<long>();
    if (cap < kPrecStart || cap > kPrecMax)
        throw InputError("", "--prec-cap",
                         "expected a precision from " + std::to_string(kPrecStart) + " to " +
                             std::to_string(kPrecMax) + " bits, got " + std::to_string(cap));
    c.limits.prec_cap = cap;
    double budget = vm["time-limit"].as<double>();
    if (!(budget >= 0) || budget > 1e7)
        throw InputError("", "--time-limit",
                         "expected seconds from 0 to 10000000, got " + std::to_string(budget));
    if (budget > 0) {
        c.limits.time_limit_seconds = budget;
        c.limits.deadline = std::chrono::steady_clock::now() +
                            std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                std::chrono::duration<double>(budget));
    }
    c.limits.interrupted = interrupt_flag();
    if (progress_hook()) {
        c.limits.progress = progress_hook();
    } else if (isatty(STDERR_FILENO)) {
        // A progress line on the terminal, at most every 200 ms; nothing when piped.
        auto last = std::make_shared<std::chrono::steady_clock::time_point>();
        c.limits.progress = [last](std::uint64_t done, std::uint64_t total) {
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
    c.precision.cap = cap;
    // read signed, so that -1 is reported as -1 (an unsigned read wraps it)
    long long threads = vm["threads"].as<long long>();
    if (threads < 1 || threads > kMaxThreads)
        throw InputError("", "--threads",
                         "expected a thread count from 1 to " + std::to_string(kMaxThreads) +
                             ", got " + std::to_string(threads));
    c.limits.threads = static_cast<unsigned>(threads);
    for (const auto &row : kLimitRows) {
        long long v = vm[row.name].as<long long>();
        if (v < static_cast<long long>(row.lo) || v > static_cast<long long>(row.hi))
            throw InputError("", std::string("--") + row.name,
                             "expected a value from " + std::to_string(row.lo) + " to " +
                                 std::to_string(row.hi) + ", got " + std::to_string(v));
        c.limits.*row.field = static_cast<std::size_t>(v);
    }
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

Rational read_fraction(const po::variables_map &vm, const char *name, bool open_unit) {
    std::string option = std::string("--") + name;
    if (!vm.count(name)) throw InputError("", option, "expected " + option + " VALUE");
    std::string why;
    auto q = parse_rational_scientific(vm[name].as<std::string>(), why);
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

bool parse_command(const std::string &name, const std::string &usage, po::options_description &desc,
                   const std::vector<std::string> &args, const char *positional, int max_positional,
                   po::variables_map &vm) {
    desc.add_options()("help,h", "show this help");
    po::options_description all(desc);
    po::positional_options_description pos;
    if (positional) {
        all.add_options()(positional, po::value<std::vector<std::string>>(), "");
        pos.add(positional, max_positional);
    }
    try {
        po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
        po::notify(vm);
    } catch (const po::error &e) {
        throw InputError("", "tempcert " + name,
                         abbreviate_long_words(e.what()) + " (see tempcert " + name + " --help)");
    }
    if (vm.count("help")) {
        std::cout << "usage: tempcert " << name << " " << usage << "\n\n" << desc << "\n";
        return false;
    }
    return true;
}

Criterion read_criterion(const po::variables_map &vm) {
    Criterion c;
    const std::string &text = vm["criterion"].as<std::string>();
    if (!parse_criterion(text, c))
        throw InputError("", "--criterion",
                         "expected tv, output or decision, got \"" + text + "\"");
    return c;
}

std::string model_arg(const po::variables_map &vm, const char *command) {
    if (!vm.count("model"))
        throw InputError("", std::string("tempcert ") + command, "expected a MODEL file");
    return vm["model"].as<std::vector<std::string>>().front();
}

std::string beta_option(const po::variables_map &vm, const Model &m) {
    std::string text = vm["beta"].as<std::string>();
    if (text != "native") return text;
    if (!m.beta_native)
        throw InputError(m.source, "--beta native",
                         "the model declares no native inverse temperature (beta_native)");
    return m.beta_native->canonical();
}

unsigned default_threads() {
    unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : std::min(n, kMaxThreads);
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
