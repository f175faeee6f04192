// LTL formulas: parser, printer and direct semantics (docs/ltl.md).
//
// Grammar (unary operators bind tightest, then S and U, then &, then |,
// then -> which associates to the right):
//   impl  := or ('->' impl)?
//   or    := and ('|' and)*
//   and   := since ('&' since)*
//   since := unary (('S' | 'U') unary)*
//   unary := ('!' | 'Y' | 'X' | 'O' | 'F' | 'H' | 'G') unary | atom
//   atom  := symbol | 'true' | 'false' | '(' impl ')' | term rel term
//   term  := ['-'] mono (('+' | '-') mono)*
//   mono  := int | int '*' count | count        count := '#' '(' impl ')'
//   rel   := '<' | '<=' | '>' | '>=' | '=' | '!='
// A comparison is an atom: `!#(a) > #(b)` negates the comparison. A word
// that is an alphabet symbol is a symbol, so over {0, 1} a comparison starts
// with its count (`#(0) > 1`).
#include "tempcert/error.hpp"
#include "tempcert/ltl.hpp"

#include <algorithm>
#include <cctype>

namespace tempcert {

class FormulaParser {
  public:
    FormulaParser(const std::string &text, const std::vector<std::string> &alphabet,
                  const std::string &where)
        : s_(text), alphabet_(alphabet), where_(where) {}

    Formula run() {
        for (const auto &sym : alphabet_)
            if (is_operator_word(sym) || sym == "true" || sym == "false")
                fail(1, "the alphabet symbol \"" + sym + "\" is an operator name; rename it");
        if (s_.size() > 100000) fail(1, "formula longer than 100000 characters");
        f_.text_ = s_;
        f_.alphabet_ = alphabet_;
        skip();
        if (pos_ == s_.size())
            fail(1, "empty formula: expected a symbol, true, false, ( or an operator");
        f_.root_ = impl();
        skip();
        if (pos_ < s_.size()) {
            if (s_[pos_] == ')') fail(pos_ + 1, "unbalanced ')': no '(' to close");
            fail(pos_ + 1,
                 "unexpected '" + token() + "': expected an operator (& | -> S U) or the end");
        }
        return std::move(f_);
    }

  private:
    const std::string &s_;
    const std::vector<std::string> &alphabet_;
    std::string where_;
    std::size_t pos_ = 0;
    int depth_ = 0;
    Formula f_;

    [[noreturn]] void fail(std::size_t column, const std::string &what) {
        throw InputError("", where_ + ", column " + std::to_string(column), what);
    }
    static bool is_operator_word(const std::string &w) {
        return w.size() == 1 && std::string("YXOFHGSU").find(w[0]) != std::string::npos;
    }
    void skip() {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_])))
            ++pos_;
    }
    static bool word_char(char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    }
    // The next token's text, for messages.
    std::string token() {
        if (pos_ >= s_.size()) return "end";
        if (word_char(s_[pos_])) {
            std::size_t e = pos_;
            while (e < s_.size() && word_char(s_[e]))
                ++e;
            return s_.substr(pos_, e - pos_);
        }
        if (s_.compare(pos_, 2, "->") == 0) return "->";
        return std::string(1, s_[pos_]);
    }
    int add(Formula::Node n) {
        f_.nodes_.push_back(n);
        return static_cast<int>(f_.nodes_.size()) - 1;
    }
    bool peek_word(const char *w) {
        skip();
        std::size_t len = std::char_traits<char>::length(w);
        return s_.compare(pos_, len, w) == 0 &&
               (pos_ + len == s_.size() || !word_char(s_[pos_ + len]));
    }
    void enter() {
        if (++depth_ > 500) fail(pos_ + 1, "formula nested more than 500 deep");
    }

    int impl() {
        enter();
        int left = disj();
        skip();
        if (s_.compare(pos_, 2, "->") == 0) {
            std::size_t c = pos_ + 1;
            pos_ += 2;
            left = add(
                {Formula::Op::Implies, -1, left, operand_after("->", [&] { return impl(); }), c});
        }
        --depth_;
        return left;
    }
    template <class F> int operand_after(const char *op, F parse) {
        skip();
        if (pos_ >= s_.size() || s_[pos_] == ')' || s_[pos_] == '&' || s_[pos_] == '|' ||
            s_.compare(pos_, 2, "->") == 0)
            fail(pos_ + 1, std::string("missing operand after '") + op + "'");
        return parse();
    }
    int disj() {
        int left = conj();
        for (;;) {
            skip();
            if (pos_ < s_.size() && s_[pos_] == '|') {
                std::size_t c = ++pos_;
                left =
                    add({Formula::Op::Or, -1, left, operand_after("|", [&] { return conj(); }), c});
            } else {
                return left;
            }
        }
    }
    int conj() {
        int left = since();
        for (;;) {
            skip();
            if (pos_ < s_.size() && s_[pos_] == '&') {
                std::size_t c = ++pos_;
                left = add(
                    {Formula::Op::And, -1, left, operand_after("&", [&] { return since(); }), c});
            } else {
                return left;
            }
        }
    }
    int since() {
        int left = unary();
        for (;;) {
            if (peek_word("S") || peek_word("U")) {
                bool s = s_[pos_] == 'S';
                std::size_t c = ++pos_;
                int right = operand_after(s ? "S" : "U", [&] { return unary(); });
                left = add({s ? Formula::Op::S : Formula::Op::U, -1, left, right, c});
            } else {
                return left;
            }
        }
    }
    int unary() {
        skip();
        std::size_t c = pos_ + 1;
        if (pos_ < s_.size() && s_[pos_] == '!') {
            ++pos_;
            enter();
            int a = operand_after("!", [&] { return unary(); });
            --depth_;
            return add({Formula::Op::Not, -1, a, -1, c});
        }
        static const std::pair<const char *, Formula::Op> ops[] = {
            {"Y", Formula::Op::Y}, {"X", Formula::Op::X}, {"O", Formula::Op::O},
            {"F", Formula::Op::F}, {"H", Formula::Op::H}, {"G", Formula::Op::G}};
        for (const auto &[name, op] : ops)
            if (peek_word(name)) {
                ++pos_;
                enter();
                int a = operand_after(name, [&] { return unary(); });
                --depth_;
                return add({op, -1, a, -1, c});
            }
        return atom();
    }
    int atom() {
        skip();
        std::size_t c = pos_ + 1;
        if (pos_ >= s_.size()) fail(c, "unexpected end: expected a symbol, true, false or '('");
        if (s_[pos_] == '(') {
            ++pos_;
            int a = impl();
            skip();
            if (pos_ >= s_.size() || s_[pos_] != ')')
                fail(pos_ + 1, "expected ')' to close the '(' at column " + std::to_string(c));
            ++pos_;
            return a;
        }
        if (starts_term()) return comparison(c);
        if (!word_char(s_[pos_]))
            fail(c, "unexpected '" + token() + "': expected a symbol, true, false, '(' or #(");
        std::string w = token();
        if (is_operator_word(w) && w != "S" && w != "U")
            fail(c, "operator " + w + " needs an operand");
        if (w == "S" || w == "U") fail(c, "missing left operand of " + w);
        pos_ += w.size();
        if (w == "true") return add({Formula::Op::True, -1, -1, -1, c});
        if (w == "false") return add({Formula::Op::False, -1, -1, -1, c});
        auto it = std::find(alphabet_.begin(), alphabet_.end(), w);
        if (it == alphabet_.end()) {
            std::string list;
            for (const auto &a : alphabet_)
                list += (list.empty() ? "" : ", ") + a;
            fail(c, "symbol \"" + w + "\" is not in the alphabet {" + list + "}");
        }
        return add({Formula::Op::Atom, static_cast<int>(it - alphabet_.begin()), -1, -1, c});
    }

    // Counting (docs/ltl.md, "Counting"): a comparison of two count terms.
    bool starts_term() {
        char ch = s_[pos_];
        if (ch == '#') return true;
        if (ch == '-') return s_.compare(pos_, 2, "->") != 0;
        if (!std::isdigit(static_cast<unsigned char>(ch))) return false;
        return std::find(alphabet_.begin(), alphabet_.end(), token()) == alphabet_.end();
    }
    int comparison(std::size_t c) {
        Formula::Comparison cmp;
        cmp.lhs = term();
        skip();
        static const std::pair<const char *, Formula::Rel> rels[] = {
            {"<=", Formula::Rel::Le}, {">=", Formula::Rel::Ge}, {"!=", Formula::Rel::Ne},
            {"<", Formula::Rel::Lt},  {">", Formula::Rel::Gt},  {"=", Formula::Rel::Eq}};
        bool found = false;
        for (const auto &[text, rel] : rels)
            if (s_.compare(pos_, std::char_traits<char>::length(text), text) == 0) {
                pos_ += std::char_traits<char>::length(text);
                cmp.rel = rel;
                found = true;
                break;
            }
        if (!found)
            fail(pos_ + 1, "unexpected '" + token() +
                               "': expected a comparison (< <= > >= = !=) after the count term");
        cmp.rhs = term();
        f_.comparisons_.push_back(std::move(cmp));
        Formula::Node n{Formula::Op::Compare, -1, -1, -1, c};
        n.comparison = static_cast<int>(f_.comparisons_.size()) - 1;
        return add(n);
    }
    Formula::Term term() {
        Formula::Term t;
        skip();
        int sign = 1;
        if (pos_ < s_.size() && s_[pos_] == '-' && s_.compare(pos_, 2, "->") != 0) {
            sign = -1;
            ++pos_;
        }
        for (;;) {
            mono(t, sign);
            skip();
            if (pos_ < s_.size() && s_[pos_] == '+')
                sign = 1;
            else if (pos_ < s_.size() && s_[pos_] == '-' && s_.compare(pos_, 2, "->") != 0)
                sign = -1;
            else
                return t;
            ++pos_;
        }
    }
    void mono(Formula::Term &t, int sign) {
        skip();
        if (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
            std::size_t start = pos_;
            while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_])))
                ++pos_;
            if (pos_ - start > 18) fail(start + 1, "integer longer than 18 digits");
            Rational k(std::stoll(s_.substr(start, pos_ - start)) * sign);
            skip();
            if (pos_ < s_.size() && s_[pos_] == '*') {
                ++pos_;
                skip();
                t.counts.push_back({k, count()});
            } else {
                t.constant += k;
            }
            return;
        }
        if (pos_ < s_.size() && s_[pos_] == '#') {
            t.counts.push_back({Rational(sign), count()});
            return;
        }
        fail(pos_ + 1, "unexpected '" + token() + "': expected a count #(...) or an integer");
    }
    int count() {
        std::size_t c = pos_ + 1;
        if (pos_ >= s_.size() || s_[pos_] != '#')
            fail(c, "unexpected '" + token() + "': expected a count #(...)");
        ++pos_;
        skip();
        if (pos_ >= s_.size() || s_[pos_] != '(') fail(pos_ + 1, "expected '(' after '#'");
        ++pos_;
        enter();
        int a = impl();
        --depth_;
        skip();
        if (pos_ >= s_.size() || s_[pos_] != ')')
            fail(pos_ + 1, "expected ')' to close the count at column " + std::to_string(c));
        ++pos_;
        return a;
    }
};

Formula Formula::parse(const std::string &text, const std::vector<std::string> &alphabet,
                       const std::string &where) {
    return FormulaParser(text, alphabet, where).run();
}

std::string Formula::render(int i) const {
    const Node &n = nodes_[static_cast<std::size_t>(i)];
    switch (n.op) {
    case Op::Atom:
        return alphabet_[static_cast<std::size_t>(n.symbol)];
    case Op::True:
        return "true";
    case Op::False:
        return "false";
    case Op::Not:
        return "!" + render(n.a);
    case Op::And:
        return "(" + render(n.a) + " & " + render(n.b) + ")";
    case Op::Or:
        return "(" + render(n.a) + " | " + render(n.b) + ")";
    case Op::Implies:
        return "(" + render(n.a) + " -> " + render(n.b) + ")";
    case Op::Y:
        return "Y " + render(n.a);
    case Op::X:
        return "X " + render(n.a);
    case Op::O:
        return "O " + render(n.a);
    case Op::F:
        return "F " + render(n.a);
    case Op::H:
        return "H " + render(n.a);
    case Op::G:
        return "G " + render(n.a);
    case Op::S:
        return "(" + render(n.a) + " S " + render(n.b) + ")";
    case Op::U:
        return "(" + render(n.a) + " U " + render(n.b) + ")";
    case Op::Compare: {
        static const char *rel[] = {"<", "<=", ">", ">=", "=", "!="};
        const Comparison &c = comparisons_[static_cast<std::size_t>(n.comparison)];
        return "(" + render(c.lhs) + " " + rel[static_cast<int>(c.rel)] + " " + render(c.rhs) + ")";
    }
    }
    return "?";
}

namespace {
// "(x)" as "x" when the outer parentheses enclose all of it: #(a & b), not #((a & b))
std::string unwrapped(const std::string &s) {
    if (s.size() < 2 || s.front() != '(' || s.back() != ')') return s;
    int depth = 0;
    for (std::size_t k = 0; k + 1 < s.size(); ++k) {
        depth += s[k] == '(' ? 1 : s[k] == ')' ? -1 : 0;
        if (depth == 0) return s; // the first '(' closes before the end
    }
    return s.substr(1, s.size() - 2);
}
} // namespace

std::string Formula::render(const Term &t) const {
    std::string s;
    for (const auto &[k, node] : t.counts) {
        Rational mag = k < 0 ? Rational(-k) : k;
        s += s.empty() ? (k < 0 ? "-" : "") : (k < 0 ? " - " : " + ");
        s +=
            (mag == 1 ? "" : tempcert::to_string(mag) + "*") + "#(" + unwrapped(render(node)) + ")";
    }
    if (t.constant != 0 || s.empty()) {
        Rational mag = t.constant < 0 ? Rational(-t.constant) : t.constant;
        s += s.empty() ? (t.constant < 0 ? "-" : "") : (t.constant < 0 ? " - " : " + ");
        s += tempcert::to_string(mag);
    }
    return s;
}

bool Formula::has_temporal() const {
    for (const auto &n : nodes_)
        if (n.op != Op::Atom && n.op != Op::True && n.op != Op::False && n.op != Op::Not &&
            n.op != Op::And && n.op != Op::Or && n.op != Op::Implies && n.op != Op::Compare)
            return true;
    return false;
}

std::string Formula::to_string() const {
    return render(root_);
}

std::size_t Formula::depth() const {
    std::vector<std::size_t> d(nodes_.size(), 0);
    for (std::size_t i = 0; i < nodes_.size(); ++i) { // children precede parents
        const Node &n = nodes_[i];
        std::size_t c = 0;
        if (n.a >= 0) c = std::max(c, d[static_cast<std::size_t>(n.a)]);
        if (n.b >= 0) c = std::max(c, d[static_cast<std::size_t>(n.b)]);
        if (n.op == Op::Compare) {
            const Comparison &cmp = comparisons_[static_cast<std::size_t>(n.comparison)];
            for (const Term *t : {&cmp.lhs, &cmp.rhs})
                for (const auto &term : t->counts)
                    c = std::max(c, d[static_cast<std::size_t>(term.second)]);
        }
        d[i] = c + (n.op == Op::Atom || n.op == Op::True || n.op == Op::False ? 0 : 1);
    }
    return nodes_.empty() ? 0 : d[static_cast<std::size_t>(root_)];
}

namespace {

// sum coefficient * #(node) + constant at position i + 1, from the truth table
Rational term_value(const Formula::Term &term, const std::vector<std::vector<char>> &t,
                    std::size_t i) {
    Rational v = term.constant;
    for (const auto &[k, node] : term.counts) {
        long long count = 0;
        for (std::size_t j = 0; j <= i; ++j)
            count += t[static_cast<std::size_t>(node)][j];
        v += k * Rational(count);
    }
    return v;
}

bool relation_holds(Formula::Rel rel, const Rational &l, const Rational &r) {
    switch (rel) {
    case Formula::Rel::Lt:
        return l < r;
    case Formula::Rel::Le:
        return l <= r;
    case Formula::Rel::Gt:
        return l > r;
    case Formula::Rel::Ge:
        return l >= r;
    case Formula::Rel::Eq:
        return l == r;
    case Formula::Rel::Ne:
        return l != r;
    }
    return false;
}

using Truths = std::vector<char>; // one subformula's truth at positions 1..n

// Whether some / every position in [lo, hi) holds in `a`.
bool some_in(const Truths &a, std::size_t lo, std::size_t hi) {
    for (std::size_t j = lo; j < hi; ++j)
        if (a[j]) return true;
    return false;
}

bool every_in(const Truths &a, std::size_t lo, std::size_t hi) {
    for (std::size_t j = lo; j < hi; ++j)
        if (!a[j]) return false;
    return true;
}

// a S b at i: some j <= i has b, and a at every k in (j, i].
bool since(const Truths &a, const Truths &b, std::size_t i) {
    for (std::size_t j = i + 1; j-- > 0;) {
        if (b[j]) return true;
        if (!a[j]) return false;
    }
    return false;
}

// a U b at i: some j >= i has b, and a at every k in [i, j).
bool until(const Truths &a, const Truths &b, std::size_t i) {
    for (std::size_t j = i; j < a.size(); ++j) {
        if (b[j]) return true;
        if (!a[j]) return false;
    }
    return false;
}

// A temporal node's truth at position i + 1 from its operands' truths.
bool temporal_at(Formula::Op op, const Truths &a, const Truths *b, std::size_t i) {
    const std::size_t n = a.size();
    switch (op) {
    case Formula::Op::Y:
        return i > 0 && a[i - 1];
    case Formula::Op::X:
        return i + 1 < n && a[i + 1];
    case Formula::Op::O:
        return some_in(a, 0, i + 1);
    case Formula::Op::F:
        return some_in(a, i, n);
    case Formula::Op::H:
        return every_in(a, 0, i + 1);
    case Formula::Op::G:
        return every_in(a, i, n);
    case Formula::Op::S:
        return since(a, *b, i);
    case Formula::Op::U:
        return until(a, *b, i);
    default:
        return false;
    }
}

// A node's truth at position i + 1 (its operands a and b evaluated before).
bool node_at(const Formula::Node &nd, const Word &w, const Truths *a, const Truths *b,
             std::size_t i) {
    switch (nd.op) {
    case Formula::Op::Atom:
        return w[i] == nd.symbol;
    case Formula::Op::True:
        return true;
    case Formula::Op::False:
        return false;
    case Formula::Op::Not:
        return !(*a)[i];
    case Formula::Op::And:
        return (*a)[i] && (*b)[i];
    case Formula::Op::Or:
        return (*a)[i] || (*b)[i];
    case Formula::Op::Implies:
        return !(*a)[i] || (*b)[i];
    case Formula::Op::Compare:
        return false; // handled by the caller
    default:
        return temporal_at(nd.op, *a, b, i);
    }
}

} // namespace

std::vector<std::vector<char>> Formula::evaluate(const Word &w) const {
    std::size_t n = w.size();
    std::vector<Truths> t(nodes_.size(), Truths(n, 0));
    for (std::size_t k = 0; k < nodes_.size(); ++k) { // children precede parents
        const Node &nd = nodes_[k];
        auto &v = t[k];
        if (nd.op == Op::Compare) { // counts straight from the definition, no prefix sums
            const Comparison &c = comparisons_[static_cast<std::size_t>(nd.comparison)];
            for (std::size_t i = 0; i < n; ++i)
                v[i] = relation_holds(c.rel, term_value(c.lhs, t, i), term_value(c.rhs, t, i));
            continue;
        }
        const Truths *a = nd.a >= 0 ? &t[static_cast<std::size_t>(nd.a)] : nullptr;
        const Truths *b = nd.b >= 0 ? &t[static_cast<std::size_t>(nd.b)] : nullptr;
        for (std::size_t i = 0; i < n; ++i) // position i + 1
            v[i] = node_at(nd, w, a, b, i);
    }
    return t;
}

bool Formula::accepts(const Word &w, bool at_first) const {
    auto t = evaluate(w);
    return t[static_cast<std::size_t>(root_)][at_first ? 0 : w.size() - 1];
}

} // namespace tempcert
