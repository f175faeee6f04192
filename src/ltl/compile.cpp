// LTL to hard-attention transformer (docs/ltl.md; proofs/ltl-construction.md).
//
// Residual coordinates: one per symbol (one-hot), a constant 1, the
// positional features, and one Boolean coordinate per subformula (temporal
// operators also get a raw coordinate for the attention output before it is
// rounded). H and G are compiled as !O! and !F!, O and F as true S and true U.
//
// Temporal operators, each one attention layer (scores below, unbounded PE;
// under bounded PE every feature is divided by n, so every score and gap is
// divided by n):
//   phi S psi  causal, rightmost:  s_ij = i (2 c_j - 1) + j,            value psi
//   phi U psi  future, leftmost:   s_ij = (n-i+1)(2 c_j - 1) - j,       value psi
//   Y phi      strict, rightmost:  s_ij = j,                            value phi
//   X phi      strict-future, leftmost: s_ij = -j,                      value phi
// with c = psi | !phi (a Boolean computed before the layer). Each attention
// layer's feed-forward sublayer rounds the raw output t into the Boolean
// coordinate: r(t) = ReLU(2t - 1/2) - ReLU(2t - 3/2), exact on [0, 1/4] and
// [3/4, 1]. Connectives are ReLU units in feed-forward sublayers, placed in
// the earliest layer after their operands are available (a head-less layer
// when needed).
//
// Counting (proofs/counting-construction.md): a formula with #(...) gets a
// BOS position whose embedding is only its indicator coordinate (the
// constant coordinate is 0 there, so every Boolean coordinate is 0 at BOS).
// A comparison is normalised to T + h > 0 with T an integer combination of
// counts and h a half-integer, so it is never 0. One layer's head, with
// zero query (all scores 0: softmax is exactly uniform at every beta),
// averages the counted Booleans and the BOS indicator over j <= i: the
// count coordinates hold #(phi)/(i+1) and 1/(i+1). The next layer's head,
// average-hard and causal, has query sum_t c_t #(phi_t)/(i+1) + h/(i+1) and
// key [j = BOS], value [j = BOS]: BOS alone wins when T + h > 0, every other
// position (value 0) when T + h < 0, with gap |T + h|/(i+1) >= 1/(2(i+1)).
// Its output is rounded like a temporal operator's. The S key also reads
// -[j = BOS], so BOS scores -i and never competes.
#include "tempcert/error.hpp"
#include "tempcert/ltl.hpp"

#include <algorithm>
#include <map>

namespace tempcert {

namespace {

using Op = Formula::Op;

// A formula rewritten to the core operators, as a DAG of nodes.
struct Core {
    // Pos: sum_t c_t #(node_t) + h > 0, h a half-integer (never 0)
    enum class K { Atom, True, False, Not, And, Or, Implies, Y, X, S, U, Pos };
    using Terms = std::map<int, Rational>; // counted node -> coefficient (nonzero)
    struct N {
        K k;
        int symbol = -1, a = -1, b = -1;
        Terms terms;
        Rational h{0};
    };
    std::vector<N> nodes;
    std::map<std::tuple<int, int, int, int>, int> memo;
    std::map<std::pair<Terms, Rational>, int> pos_memo;
    int add(K k, int a = -1, int b = -1, int symbol = -1) {
        auto key = std::make_tuple(static_cast<int>(k), a, b, symbol);
        if (auto it = memo.find(key); it != memo.end()) return it->second;
        nodes.push_back({k, symbol, a, b, {}, Rational(0)});
        return memo[key] = static_cast<int>(nodes.size()) - 1;
    }
    // sum c_t #(t) + h > 0; constant when no count is left
    int pos(const Terms &terms, const Rational &h) {
        if (terms.empty()) return add(h > 0 ? K::True : K::False);
        auto key = std::make_pair(terms, h);
        if (auto it = pos_memo.find(key); it != pos_memo.end()) return it->second;
        nodes.push_back({K::Pos, -1, -1, -1, terms, h});
        return pos_memo[key] = static_cast<int>(nodes.size()) - 1;
    }
};

int lower(const Formula &f, int i, Core &c);

// A comparison as Pos nodes: with T = lhs - rhs (integers), T > 0 is
// T - 1/2 > 0, T >= 0 is T + 1/2 > 0, and = / != combine two of them.
int lower_comparison(const Formula &f, const Formula::Comparison &cmp, Core &c) {
    Core::Terms t;
    auto collect = [&](const Formula::Term &term, int sign) {
        for (const auto &[k, node] : term.counts)
            t[lower(f, node, c)] += k * Rational(sign);
    };
    collect(cmp.lhs, 1);
    collect(cmp.rhs, -1);
    for (auto it = t.begin(); it != t.end();)
        it = it->second == 0 ? t.erase(it) : std::next(it);
    Rational k = cmp.lhs.constant - cmp.rhs.constant;
    Core::Terms neg = t;
    for (auto &term : neg)
        term.second = -term.second;
    Rational half(1, 2);
    using K = Core::K;
    switch (cmp.rel) {
    case Formula::Rel::Gt:
        return c.pos(t, k - half);
    case Formula::Rel::Ge:
        return c.pos(t, k + half);
    case Formula::Rel::Lt:
        return c.pos(neg, -k - half);
    case Formula::Rel::Le:
        return c.pos(neg, -k + half);
    case Formula::Rel::Eq:
    case Formula::Rel::Ne: {
        int ge = c.pos(t, k + half);
        int eq = c.add(K::And, ge, c.pos(neg, -k + half));
        return cmp.rel == Formula::Rel::Eq ? eq : c.add(K::Not, eq);
    }
    }
    return -1;
}

int lower(const Formula &f, int i, Core &c) {
    const auto &n = f.nodes()[static_cast<std::size_t>(i)];
    using K = Core::K;
    auto A = [&] { return lower(f, n.a, c); };
    auto B = [&] { return lower(f, n.b, c); };
    switch (n.op) {
    case Op::Atom:
        return c.add(K::Atom, -1, -1, n.symbol);
    case Op::True:
        return c.add(K::True);
    case Op::False:
        return c.add(K::False);
    case Op::Not:
        return c.add(K::Not, A());
    case Op::And: {
        int a = A();
        return c.add(K::And, a, B());
    }
    case Op::Or: {
        int a = A();
        return c.add(K::Or, a, B());
    }
    case Op::Implies: {
        int a = A();
        return c.add(K::Implies, a, B());
    }
    case Op::Y:
        return c.add(K::Y, A());
    case Op::X:
        return c.add(K::X, A());
    case Op::O: {
        int a = A();
        return c.add(K::S, c.add(K::True), a);
    }
    case Op::F: {
        int a = A();
        return c.add(K::U, c.add(K::True), a);
    }
    case Op::H: {
        int a = A();
        return c.add(K::Not, c.add(K::S, c.add(K::True), c.add(K::Not, a)));
    }
    case Op::G: {
        int a = A();
        return c.add(K::Not, c.add(K::U, c.add(K::True), c.add(K::Not, a)));
    }
    case Op::S: {
        int a = A();
        return c.add(K::S, a, B());
    }
    case Op::U: {
        int a = A();
        return c.add(K::U, a, B());
    }
    case Op::Compare:
        return lower_comparison(f, f.comparisons()[static_cast<std::size_t>(n.comparison)], c);
    }
    return -1;
}

// A ReLU unit: out[coord] += sign * ReLU(sum w_k x_k); the bias rides on the
// constant coordinate.
struct Unit {
    std::vector<std::pair<int, Rational>> in;
    int out;
    Rational sign;
};

using Lin = std::vector<std::pair<int, Rational>>;

struct PendingHead {
    Mask mask;
    AttnKind kind;
    std::vector<std::pair<Lin, Lin>> qk; // bilinear terms (none: every score is 0)
    std::vector<std::pair<int, int>> vo; // value coordinate -> output coordinate
};

struct PendingLayer {
    std::optional<PendingHead> head;
    std::vector<Unit> units;
};

class Compiler {
  public:
    Compiler(const Formula &f, PositionEncoding pe, const Limits &limits)
        : f_(f), pe_(pe), limits_(limits) {}

    Model run(bool at_first) {
        int root = lower(f_, f_.root(), core_);
        std::size_t k = f_.alphabet().size();
        next_ = static_cast<int>(k);
        const_ = next_++;
        zero_ = next_++;
        // a counting formula needs positional features only for its
        // temporal operators
        if (!f_.has_counts() || f_.has_temporal()) fj_ = next_++;
        bool future = false;
        for (const auto &n : core_.nodes)
            future = future || n.k == Core::K::U;
        if (future) fk_ = next_++;
        if (f_.has_counts()) bos_ = next_++;
        coord_.assign(core_.nodes.size(), -1);
        ready_.assign(core_.nodes.size(), 0);
        for (std::size_t i = 0; i < core_.nodes.size(); ++i)
            build(static_cast<int>(i));
        check_size();
        return materialise(root, at_first);
    }

  private:
    const Formula &f_;
    PositionEncoding pe_;
    const Limits &limits_;

    // The model's size is known from the plan, before any matrix exists:
    // checked here, so a formula too large for the limits costs no memory
    // (docs/reliability.md, Limits and what they bound).
    void check_size() const {
        std::size_t width = static_cast<std::size_t>(next_), entries = 3 * width;
        for (const auto &pl : layers_) {
            if (pl.head)
                entries +=
                    (2 * std::max<std::size_t>(pl.head->qk.size(), 1) + 2 * pl.head->vo.size()) *
                    width;
            entries += pl.units.size() * (2 * width + 1) + width;
        }
        auto over = [&](const std::string &what, std::size_t value, std::size_t limit,
                        const char *option) {
            if (value > limit)
                throw LimitError("the compiled model would have " + what + " " +
                                 std::to_string(value) + ", more than the limit " +
                                 std::to_string(limit) + " (" + option + ")");
        };
        over("width", width, limits_.max_width, "--max-width");
        over("layers:", layers_.size(), limits_.max_layers, "--max-layers");
        over("matrix entries:", entries, limits_.max_entries, "--max-entries");
    }
    Core core_;
    int next_ = 0, const_ = 0, zero_ = 0, fj_ = -1, fk_ = -1;
    int bos_ = -1, inv_ = -1;  // [j = BOS]; 1/(i+1), the BOS indicator's average
    std::map<int, int> count_; // counted node -> coordinate holding #(node)/(i+1)
    std::vector<int> coord_;
    std::vector<std::size_t> ready_; // layer count after which the node's coordinate holds it
    std::vector<PendingLayer> layers_;

    // Puts units reading values available after `after` layers into the last
    // layer's feed-forward sublayer when that layer comes after them, else
    // into a new head-less layer. Returns the layer count after which the
    // units' outputs are available.
    std::size_t place(const std::vector<Unit> &units, std::size_t after) {
        std::size_t at = layers_.size();
        if (!layers_.empty() && layers_.size() > after) at = layers_.size() - 1;
        if (at == layers_.size()) layers_.push_back({});
        for (const auto &u : units)
            layers_[at].units.push_back(u);
        return at + 1;
    }

    // Boolean connectives as ReLU units on exact Booleans.
    std::vector<Unit> connective(Core::K k, int x, int y, int out) {
        Rational one(1), m1(-1);
        switch (k) {
        case Core::K::Not:
            return {{{{const_, one}, {x, m1}}, out, one}};
        case Core::K::And:
            return {{{{x, one}, {y, one}, {const_, m1}}, out, one}};
        case Core::K::Or:
            return {{{{x, one}, {y, one}}, out, one},
                    {{{x, one}, {y, one}, {const_, m1}}, out, m1}};
        case Core::K::Implies: // !x | y
            return {{{{const_, one}, {x, m1}, {y, one}}, out, one}, {{{x, m1}, {y, one}}, out, m1}};
        default:
            throw std::logic_error("not a connective");
        }
    }

    void build(int i) {
        const auto &n = core_.nodes[static_cast<std::size_t>(i)];
        auto ready = [&](int c) { return ready_[static_cast<std::size_t>(c)]; };
        auto coord = [&](int c) { return coord_[static_cast<std::size_t>(c)]; };
        switch (n.k) {
        case Core::K::Atom:
            coord_[static_cast<std::size_t>(i)] = n.symbol;
            return;
        case Core::K::True:
            coord_[static_cast<std::size_t>(i)] = const_;
            return;
        case Core::K::False:
            coord_[static_cast<std::size_t>(i)] = zero_;
            return;
        case Core::K::Not:
        case Core::K::And:
        case Core::K::Or:
        case Core::K::Implies: {
            int out = next_++;
            coord_[static_cast<std::size_t>(i)] = out;
            std::size_t after = ready(n.a);
            if (n.b >= 0) after = std::max(after, ready(n.b));
            ready_[static_cast<std::size_t>(i)] =
                place(connective(n.k, coord(n.a), n.b >= 0 ? coord(n.b) : -1, out), after);
            return;
        }
        case Core::K::Pos:
            build_comparison(i);
            return;
        default:
            break;
        }
        // temporal: the attention layer comes after its inputs
        PendingHead h;
        Rational one(1), two(2), m1(-1);
        int value = -1;
        if (n.k == Core::K::Y || n.k == Core::K::X) {
            h.mask = n.k == Core::K::Y ? Mask::Strict : Mask::StrictFuture;
            h.kind = n.k == Core::K::Y ? AttnKind::Rightmost : AttnKind::Leftmost;
            h.qk = {{{{const_, one}}, {{fj_, n.k == Core::K::Y ? one : m1}}}};
            value = coord(n.a);
        } else {
            // c = psi | !phi = phi -> psi, computed first
            int phi = n.a, psi = n.b;
            std::size_t after = std::max(ready(phi), ready(psi));
            int c;
            if (core_.nodes[static_cast<std::size_t>(phi)].k == Core::K::True) {
                c = coord(psi); // true S psi: c = psi
            } else {
                c = next_++;
                place(connective(Core::K::Implies, coord(phi), coord(psi), c), after);
            }
            bool past = n.k == Core::K::S;
            h.mask = past ? Mask::Causal : Mask::Future;
            h.kind = past ? AttnKind::Rightmost : AttnKind::Leftmost;
            // (K_i)(2 c_j - 1) + (+/-) j with K_i = i (past) or n - i + 1 (future);
            // with BOS (counting formulas) its key also reads -[j = BOS]
            Lin key = {{c, two}, {const_, m1}};
            if (bos_ >= 0) key.push_back({bos_, m1});
            h.qk = {{{{past ? fj_ : fk_, one}}, key}, {{{const_, one}}, {{fj_, past ? one : m1}}}};
            value = coord(psi);
        }
        rounded_head(i, std::move(h), value);
    }

    // One attention layer whose head reads `value` into a raw coordinate,
    // rounded into node i's Boolean coordinate:
    // r(t) = ReLU(2t - 1/2) - ReLU(2t - 3/2). Appended last, the layer
    // follows every input it reads.
    void rounded_head(int i, PendingHead h, int value) {
        int raw = next_++, out = next_++;
        h.vo = {{value, raw}};
        coord_[static_cast<std::size_t>(i)] = out;
        PendingLayer layer;
        layer.head = std::move(h);
        Rational one(1), two(2), m1(-1);
        layer.units.push_back({{{raw, two}, {const_, Rational(-1, 2)}}, out, one});
        layer.units.push_back({{{raw, two}, {const_, Rational(-3, 2)}}, out, m1});
        layers_.push_back(std::move(layer));
        ready_[static_cast<std::size_t>(i)] = layers_.size();
    }

    // sum_t c_t #(t) + h > 0: a uniform layer for the counts not yet
    // averaged (and 1/(i+1)), then the sign head (see the top of the file).
    void build_comparison(int i) {
        const auto &n = core_.nodes[static_cast<std::size_t>(i)];
        PendingHead avg{Mask::Causal, AttnKind::Average, {}, {}};
        if (inv_ < 0) {
            inv_ = next_++;
            avg.vo.push_back({bos_, inv_});
        }
        for (const auto &[t, c] : n.terms) {
            if (count_.count(t)) continue;
            count_[t] = next_++;
            avg.vo.push_back({coord_[static_cast<std::size_t>(t)], count_[t]});
        }
        if (!avg.vo.empty()) {
            // Appended last, it follows every counted subformula (each is
            // ready after the current last layer at the latest).
            PendingLayer layer;
            layer.head = std::move(avg);
            layers_.push_back(std::move(layer));
        }
        Lin query = {{inv_, n.h}};
        for (const auto &[t, c] : n.terms)
            query.push_back({count_[t], c});
        PendingHead sign{Mask::Causal, AttnKind::Average, {{query, {{bos_, Rational(1)}}}}, {}};
        rounded_head(i, std::move(sign), bos_);
    }

    Vector row(int width, const Lin &terms) {
        Vector r(static_cast<std::size_t>(width), Rational(0));
        for (const auto &[c, w] : terms)
            r[static_cast<std::size_t>(c)] += w;
        return r;
    }

    Model materialise(int root, bool at_first) {
        int width = next_;
        Model m;
        m.name = "ltl: " + f_.to_string();
        m.alphabet = f_.alphabet();
        m.width = static_cast<std::size_t>(width);
        for (std::size_t s = 0; s < m.alphabet.size(); ++s) {
            Vector e(static_cast<std::size_t>(width), Rational(0));
            e[s] = 1;
            e[static_cast<std::size_t>(const_)] = 1;
            m.embedding[m.alphabet[s]] = e;
        }
        if (bos_ >= 0) { // only its indicator: every ReLU unit gives 0 there
            std::string bos = "<bos>";
            while (std::find(m.alphabet.begin(), m.alphabet.end(), bos) != m.alphabet.end())
                bos.insert(bos.size() - 1, "_");
            Vector e(static_cast<std::size_t>(width), Rational(0));
            e[static_cast<std::size_t>(bos_)] = 1;
            m.bos = bos;
            m.embedding[bos] = e;
        }
        bool bounded = pe_ == PositionEncoding::Bounded;
        if (fj_ >= 0)
            m.positions.push_back(
                {static_cast<std::size_t>(fj_), Expr::parse(bounded ? "j/n" : "j")});
        if (fk_ >= 0)
            m.positions.push_back(
                {static_cast<std::size_t>(fk_), Expr::parse(bounded ? "(n-j+1)/n" : "n-j+1")});
        for (const auto &pl : layers_) {
            Layer layer;
            if (pl.head) {
                const PendingHead &h = *pl.head;
                Head head;
                head.kind = h.kind;
                head.mask = h.mask;
                for (const auto &[q, k] : h.qk) {
                    head.query.push_back(row(width, q));
                    head.key.push_back(row(width, k));
                }
                if (h.qk.empty()) { // every score 0
                    head.query.push_back(row(width, {}));
                    head.key.push_back(row(width, {}));
                }
                head.output.assign(static_cast<std::size_t>(width),
                                   Vector(h.vo.size(), Rational(0)));
                for (std::size_t r = 0; r < h.vo.size(); ++r) {
                    head.value.push_back(row(width, {{h.vo[r].first, Rational(1)}}));
                    head.output[static_cast<std::size_t>(h.vo[r].second)][r] = 1;
                }
                layer.heads.push_back(std::move(head));
            }
            if (!pl.units.empty()) {
                Ffn f;
                for (const auto &u : pl.units)
                    f.w1.push_back(row(width, u.in));
                f.b1.assign(pl.units.size(), Rational(0));
                f.w2.assign(static_cast<std::size_t>(width), Vector(pl.units.size(), Rational(0)));
                for (std::size_t k = 0; k < pl.units.size(); ++k)
                    f.w2[static_cast<std::size_t>(pl.units[k].out)][k] = pl.units[k].sign;
                f.b2.assign(static_cast<std::size_t>(width), Rational(0));
                layer.ffn = std::move(f);
            }
            m.layers.push_back(std::move(layer));
        }
        m.output.position = at_first ? ReadPosition::First : ReadPosition::Last;
        m.output.weights.assign(static_cast<std::size_t>(width), Rational(0));
        m.output.weights[static_cast<std::size_t>(coord_[static_cast<std::size_t>(root)])] = 1;
        m.output.bias = Rational(-1, 2);
        return m;
    }
};

} // namespace

Model compile_formula(const Formula &f, PositionEncoding pe, bool accept_at_first,
                      const Limits &limits) {
    return Compiler(f, pe, limits).run(accept_at_first);
}

} // namespace tempcert
