// tempcert-check (also built as tempcert-minicheck): the small checker
// (docs/minicheck.md), the one that says VERIFIED, with its own code only:
// nothing of include/ or the rest of src/ is compiled into it, so a mistake
// it shared with the engine would have to be made twice, independently.
#include "claims.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <thread>

namespace {
const char *const kUsage =
    "usage: tempcert-check CERT --model MODEL [--prec-cap BITS] [--max-n N] [--max-words K]\n"
    "                      [--max-queries K] [--threads T]\n"
    "Re-verifies an exhaustive, layerwise, perturbation or every-n certificate with\n"
    "its own small code (docs/minicheck.md: the kinds, the options, their defaults).\n"
    "Exit 0 verified, 1 not verified, 2 bad input, 3 outside this checker's class\n"
    "or over a limit.\n";

std::uint64_t option_number(const std::string &name, const std::string &text, std::uint64_t lo) {
    bool digits = !text.empty() && text.size() <= 18;
    for (char c : text)
        digits = digits && std::isdigit(static_cast<unsigned char>(c));
    std::uint64_t v = digits ? std::stoull(text) : 0;
    if (!digits || v < lo)
        throw minicheck::Failure{2, "",
                                 name + ": expected an integer >= " + std::to_string(lo) +
                                     ", got \"" + text.substr(0, 40) + "\""};
    return v;
}

// Text from the files (a claimed method, a symbol) may hold control
// characters; they are shown as '?' rather than sent to a terminal.
std::string shown(std::string s) {
    for (char &c : s)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    return s;
}

// The claim just verified, echoed from the certificate's own fields (each
// re-derived or bound by verify): what it asserts, for which model, lengths,
// tolerance, criterion and beta, by which kind of argument.
std::string claim_echo(const minicheck::Json &cert) {
    using minicheck::at;
    using minicheck::text_at;
    const minicheck::Json &n = at(cert, "$", "n");
    return text_at(cert, "$", "verdict") + ": model " +
           text_at(at(cert, "$", "model"), "$.model", "name") + " sha256 " +
           text_at(at(cert, "$", "model"), "$.model", "sha256") +
           (n == minicheck::Json("every")
                ? std::string(", every n")
                : ", n <= " + (n.is_string() ? n.get<std::string>() : n.dump())) +
           ", eps " + text_at(cert, "$", "eps") + ", criterion " + text_at(cert, "$", "criterion") +
           ", beta " + text_at(at(cert, "$", "beta"), "$.beta", "spec") + ", " +
           text_at(cert, "$", "method") + " certificate";
}

struct Help {}; // --help: the usage printed

// The exit code, unless standard output could not take what was printed
// (a full disk, a closed pipe): then bad output, said on standard error.
int written(int code, const std::string &self) {
    std::cout.flush();
    if (std::cout) return code;
    std::cerr << self << "cannot write standard output" << std::endl;
    return 2;
}

struct Args {
    std::string cert, model;
    minicheck::Limits limits;
};

Args parse_args(int argc, char **argv) {
    Args a;
    bool threads_given = false;
    for (int i = 1; i < argc; ++i) {
        std::string s = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw minicheck::Failure{2, "", s + ": expected a value"};
            return argv[++i];
        };
        if (s == "--help" || s == "-h") {
            std::cout << kUsage;
            throw Help{};
        } else if (s == "--model") {
            a.model = value();
        } else if (s == "--prec-cap") {
            a.limits.prec_cap = static_cast<long>(option_number(s, value(), 128));
            if (a.limits.prec_cap > (1L << 24))
                throw minicheck::Failure{2, "", "--prec-cap: at most 16777216"};
        } else if (s == "--max-n") {
            a.limits.max_n = option_number(s, value(), 1);
        } else if (s == "--max-words") {
            a.limits.max_words = option_number(s, value(), 1);
        } else if (s == "--max-queries") {
            a.limits.max_queries = option_number(s, value(), 1);
        } else if (s == "--threads") {
            a.limits.threads = static_cast<unsigned>(option_number(s, value(), 1));
            if (a.limits.threads > 256) throw minicheck::Failure{2, "", "--threads: at most 256"};
            threads_given = true;
        } else if (!s.empty() && s[0] == '-') {
            throw minicheck::Failure{2, "", "unknown option " + s.substr(0, 40)};
        } else if (a.cert.empty()) {
            a.cert = s;
        } else {
            throw minicheck::Failure{2, "", "one certificate at a time"};
        }
    }
    if (a.cert.empty() || a.model.empty())
        throw minicheck::Failure{2, "", "expected CERT and --model MODEL"};
    if (!threads_given) a.limits.threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
    return a;
}
} // namespace

int main(int argc, char **argv) {
    using namespace minicheck;
    // messages name the program as it was called: tempcert-check or tempcert-minicheck
    std::string self = argc > 0 && argv[0] ? argv[0] : "tempcert-check";
    self = shown(self.substr(self.find_last_of('/') + 1)) + ": ";
    Args args;
    try {
        args = parse_args(argc, argv);
    } catch (const Help &) {
        return written(0, self);
    } catch (const Failure &f) {
        std::cerr << self << shown(f.what) << "\n" << kUsage;
        return 2;
    }
    std::string reading = args.model;
    try {
        std::string text = read_file(args.model);
        Model m = load_model(text);
        m.source = args.model;
        reading = args.cert;
        Json cert = parse_strict(read_file(args.cert));
        std::string what = verify(cert, m, args.limits);
        std::cout << "s VERIFIED " << shown(args.cert) << " (" << what
                  << " by the small checker): " << shown(claim_echo(cert)) << std::endl;
        return written(0, self);
    } catch (const Failure &f) {
        if (f.code == 1) {
            std::cout << "s NOT VERIFIED " << shown(args.cert) << ": " << shown(f.what)
                      << std::endl;
            return written(1, self);
        }
        std::cerr << self << shown(f.file.empty() ? reading : f.file) << ": "
                  << (f.code == 3 ? "not checked: " : "") << shown(f.what) << std::endl;
        return f.code;
    } catch (const std::bad_alloc &) {
        std::cerr << self << "out of memory" << std::endl;
        return 3;
    } catch (const std::exception &e) {
        std::cerr << self << "internal error: " << e.what() << std::endl;
        return 70;
    }
}
