// MONA as an independent oracle for the LTL compiler (docs/ltl.md): a formula is
// translated into MONA's M2L-Str (positions 0 .. max($), one second-order
// variable per symbol, constrained to partition the positions); MONA builds
// the minimal automaton (`mona -q -w`), whose transition table is read back
// and run on words. Nothing here shares code with the compiler.
#include "tempcert/error.hpp"
#include "tempcert/ltl.hpp"
#include "tempcert/run_program.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace tempcert {

namespace {

class MonaWriter {
  public:
    explicit MonaWriter(const Formula &f) : f_(f) {}

    // The formula at first-order variable `i`.
    std::string at(int node, const std::string &i) {
        const auto &n = f_.nodes()[static_cast<std::size_t>(node)];
        using Op = Formula::Op;
        std::string j = fresh(), k = fresh();
        auto A = [&](const std::string &v) { return at(n.a, v); };
        auto B = [&](const std::string &v) { return at(n.b, v); };
        const std::string last = "max($)";
        switch (n.op) {
        case Op::Atom:
            return "(" + i + " in S" + std::to_string(n.symbol) + ")";
        case Op::True:
            return "true";
        case Op::False:
            return "false";
        case Op::Not:
            return "~" + A(i);
        case Op::And:
            return "(" + A(i) + " & " + B(i) + ")";
        case Op::Or:
            return "(" + A(i) + " | " + B(i) + ")";
        case Op::Implies:
            return "(" + A(i) + " => " + B(i) + ")";
        case Op::Y:
            return "(ex1 " + j + ": " + j + " + 1 = " + i + " & " + A(j) + ")";
        case Op::X:
            return "(ex1 " + j + ": " + j + " = " + i + " + 1 & " + j + " <= " + last + " & " +
                   A(j) + ")";
        case Op::O:
            return "(ex1 " + j + ": " + j + " <= " + i + " & " + A(j) + ")";
        case Op::F:
            return "(ex1 " + j + ": " + i + " <= " + j + " & " + j + " <= " + last + " & " + A(j) +
                   ")";
        case Op::H:
            return "(all1 " + j + ": " + j + " <= " + i + " => " + A(j) + ")";
        case Op::G:
            return "(all1 " + j + ": (" + i + " <= " + j + " & " + j + " <= " + last + ") => " +
                   A(j) + ")";
        case Op::S:
            return "(ex1 " + j + ": " + j + " <= " + i + " & " + B(j) + " & (all1 " + k + ": (" +
                   j + " < " + k + " & " + k + " <= " + i + ") => " + A(k) + "))";
        case Op::U:
            return "(ex1 " + j + ": " + i + " <= " + j + " & " + j + " <= " + last + " & " + B(j) +
                   " & (all1 " + k + ": (" + i + " <= " + k + " & " + k + " < " + j + ") => " +
                   A(k) + "))";
        case Op::Compare:
            throw InputError("", "--mona",
                             "MONA has no counting: a formula with #(...) has no MONA program "
                             "(the tests check counting formulas against the direct semantics)");
        }
        return "false";
    }

  private:
    const Formula &f_;
    int counter_ = 0;
    std::string fresh() { return "v" + std::to_string(counter_++); }
};

} // namespace

std::string to_mona(const Formula &f, bool accept_at_first) {
    std::size_t k = f.alphabet().size();
    std::ostringstream s;
    s << "m2l-str;\nvar2 ";
    for (std::size_t i = 0; i < k; ++i)
        s << (i ? ", " : "") << "S" << i;
    s << ";\n# every position holds exactly one symbol\nall1 p: ";
    for (std::size_t i = 0; i < k; ++i) {
        s << (i ? " | " : "(") << "(p in S" << i;
        for (std::size_t o = 0; o < k; ++o)
            if (o != i) s << " & p notin S" << o;
        s << ")";
    }
    s << ");\n# the formula at the " << (accept_at_first ? "first" : "last") << " position\n";
    MonaWriter w(f);
    s << "ex1 p: p = " << (accept_at_first ? "0" : "max($)") << " & " << w.at(f.root(), "p")
      << ";\n";
    return s.str();
}

MonaAutomaton MonaAutomaton::build(const std::string &program, std::size_t symbols) {
    char dir[] = "/tmp/tempcert-mona-XXXXXX";
    if (!mkdtemp(dir)) throw std::runtime_error("cannot create a temporary directory for MONA");
    const std::string input = std::string(dir) + "/formula.mona",
                      result = std::string(dir) + "/output.txt";
    {
        std::ofstream out(input);
        out << program;
        if (!out) throw std::runtime_error("cannot write MONA's input file " + input);
    }
    // no shell: MONA gets the file name as one argument
    int status = run_program({"mona", "-q", "-w", input}, result);
    std::string output;
    {
        std::ifstream in(result, std::ios::binary);
        std::ostringstream ss;
        ss << in.rdbuf();
        output = ss.str();
    }
    std::remove(input.c_str());
    std::remove(result.c_str());
    rmdir(dir);
    if (status < 0) throw std::runtime_error("cannot run mona (is it installed?)");

    MonaAutomaton a;
    a.symbols_ = symbols;
    std::istringstream in(output);
    std::string line;
    bool seen = false;
    while (std::getline(in, line)) {
        if (line.rfind("Initial state:", 0) == 0) a.start_ = std::stoi(line.substr(14));
        if (line.rfind("Accepting states:", 0) == 0) {
            std::istringstream ss(line.substr(17));
            int s;
            while (ss >> s) {
                if (a.accepting_.size() <= static_cast<std::size_t>(s))
                    a.accepting_.resize(static_cast<std::size_t>(s) + 1, 0);
                a.accepting_[static_cast<std::size_t>(s)] = 1;
            }
        }
        // "State 3: 0X1 -> state 4"
        unsigned from = 0, to = 0;
        char bits[257] = {0};
        if (std::sscanf(line.c_str(), "State %u: %256[01X] -> state %u", &from, bits, &to) == 3) {
            seen = true;
            if (a.edges_.size() <= std::max(from, to)) a.edges_.resize(std::max(from, to) + 1);
            a.edges_[from].push_back({bits, static_cast<int>(to)});
        }
    }
    if (!seen) throw std::runtime_error("could not read MONA's automaton:\n" + output);
    a.accepting_.resize(a.edges_.size(), 0);
    return a;
}

bool MonaAutomaton::accepts(const Word &w) const {
    // MONA's automata first read one letter for the empty prefix (state 0).
    auto step = [&](int s, const std::string &bits) {
        for (const auto &e : edges_[static_cast<std::size_t>(s)]) {
            bool match = true;
            for (std::size_t b = 0; b < bits.size() && match; ++b)
                match = e.bits[b] == 'X' || e.bits[b] == bits[b];
            if (match) return e.to;
        }
        throw std::runtime_error("MONA automaton has no transition");
    };
    int s = step(start_, std::string(symbols_, '0'));
    for (int sym : w) {
        std::string bits(symbols_, '0');
        bits[static_cast<std::size_t>(sym)] = '1';
        s = step(s, bits);
    }
    return accepting_[static_cast<std::size_t>(s)];
}

} // namespace tempcert
