// Linear temporal logic over finite words (docs/ltl.md): formulas, their direct
// semantics, the compiler to hard-attention models, and the MONA
// translation used as an independent oracle.
#pragma once

#include "tempcert/limits.hpp"
#include "tempcert/model.hpp"
#include "tempcert/rational.hpp"
#include "tempcert/word.hpp"

#include <string>
#include <vector>

namespace tempcert {

class Formula {
  public:
    enum class Op { Atom, True, False, Not, And, Or, Implies, Y, X, O, F, H, G, S, U, Compare };
    struct Node {
        Op op;
        int symbol = -1;    // Atom: alphabet index
        int a = -1, b = -1; // operands
        std::size_t column = 0;
        int comparison = -1; // Compare: index into comparisons()
    };
    // A count term: sum of coefficient * #(node) plus a constant, all integers.
    // #(phi) at position i is the number of positions j <= i where phi holds.
    struct Term {
        std::vector<std::pair<Rational, int>> counts; // (coefficient, counted node)
        Rational constant{0};
    };
    enum class Rel { Lt, Le, Gt, Ge, Eq, Ne };
    struct Comparison {
        Term lhs, rhs;
        Rel rel = Rel::Gt;
    };

    // Parses `text` over `alphabet`. Throws InputError(place "column C")
    // naming what was expected. Single capital letters Y X O F H G S U are
    // operators; `true`, `false`; ! & | -> and parentheses; comparisons of
    // count terms (`2*#(a) - #(b) >= 3`, docs/ltl.md).
    static Formula parse(const std::string &text, const std::vector<std::string> &alphabet,
                         const std::string &where = "formula");

    const std::vector<Node> &nodes() const { return nodes_; }
    int root() const { return root_; }
    const std::vector<Comparison> &comparisons() const { return comparisons_; }
    const std::vector<std::string> &alphabet() const { return alphabet_; }
    bool has_counts() const { return !comparisons_.empty(); }
    bool has_temporal() const;     // some Y X O F H G S U
    std::string to_string() const; // fully parenthesised
    std::size_t depth() const;     // nesting depth of operators

    // Direct semantics (docs/ltl.md): truth of every node at every position
    // 1..|w|, as table[node][i - 1].
    std::vector<std::vector<char>> evaluate(const Word &w) const;
    // w is in the language: the root holds at the last (or first) position.
    bool accepts(const Word &w, bool at_first = false) const;

  private:
    std::string text_;
    std::vector<std::string> alphabet_;
    std::vector<Node> nodes_;
    std::vector<Comparison> comparisons_;
    int root_ = -1;
    friend class FormulaParser;
    std::string render(int i) const;
    std::string render(const Term &t) const;
};

enum class PositionEncoding { Unbounded, Bounded };

// Compiles a formula into a hard-attention model (proofs/ltl-construction.md):
// one Boolean coordinate per subformula, connectives in feed-forward
// sublayers, each temporal operator one attention layer with a rounding
// feed-forward sublayer. The model accepts exactly the formula's language.
// Throws LimitError, before building any matrix, when the model would exceed
// limits.max_width, max_layers or max_entries.
Model compile_formula(const Formula &f, PositionEncoding pe, bool accept_at_first,
                      const Limits &limits = Limits{});

// The model as a `tempcert-model/1` JSON document (exact numbers as strings).
std::string model_to_json(const Model &m, const std::string &description);

// MONA (M2L-Str) program whose models are exactly the words of the
// formula's language, one second-order variable per symbol.
std::string to_mona(const Formula &f, bool accept_at_first);

// A deterministic automaton computed by MONA (`mona -q -w`), to run on words.
class MonaAutomaton {
  public:
    // Runs MONA on the program; throws std::runtime_error if MONA is missing
    // or its output cannot be read.
    static MonaAutomaton build(const std::string &program, std::size_t symbols);
    bool accepts(const Word &w) const;

  private:
    struct Edge {
        std::string bits; // one of '0', '1', 'X' per variable
        int to;
    };
    std::vector<std::vector<Edge>> edges_;
    std::vector<char> accepting_;
    int start_ = 0;
    std::size_t symbols_ = 0;
};

} // namespace tempcert
