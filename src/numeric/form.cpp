// Exact symbolic forms: see include/kernel/tempcert/form.hpp. Why equal forms are
// equal reals, and what the reductions below may assume, is in
// proofs/irrational-ties.md.
#include "tempcert/form.hpp"

#include <algorithm>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

namespace tempcert {

namespace {

// What an atom's name maps to: the atom is `factor` times atom `id` (a
// square-free sqrt takes the square's root out: sqrt(8) -> 2 * sqrt(2)).
struct Made {
    Rational factor;
    std::uint32_t id;
};

// One table for the process: atom names and, for square-free sqrt atoms of
// a rational, the rational the atom's square is.
class AtomTable {
  public:
    static AtomTable &get() {
        static AtomTable table;
        return table;
    }

    // The atom named `name` (made by `make` the first time), or nullopt once
    // kMaxAtoms atoms exist.
    template <class Make> std::optional<Made> find_or_make(const std::string &name, Make make) {
        {
            std::shared_lock<std::shared_mutex> read(mutex_); // the common case: made before
            if (auto it = made_.find(name); it != made_.end()) return it->second;
        }
        std::unique_lock<std::shared_mutex> lock(mutex_);
        if (auto it = made_.find(name); it != made_.end()) return it->second;
        if (squares_.size() >= kMaxAtoms) return std::nullopt;
        auto [factor, base_name, square] = make();
        std::uint32_t id;
        if (auto it = ids_.find(base_name); it != ids_.end()) {
            id = it->second;
        } else {
            id = static_cast<std::uint32_t>(squares_.size());
            ids_.emplace(base_name, id);
            squares_.push_back(square);
        }
        Made m{factor, id};
        made_.emplace(name, m);
        return m;
    }

    std::optional<Rational> square(std::uint32_t id) {
        std::shared_lock<std::shared_mutex> read(mutex_);
        return squares_[id];
    }

  private:
    std::shared_mutex mutex_;
    std::unordered_map<std::string, Made> made_;         // any name -> factor * atom
    std::unordered_map<std::string, std::uint32_t> ids_; // base names -> id
    std::vector<std::optional<Rational>> squares_;       // by id
};

struct Parts {
    Rational factor;
    std::string base_name;
    std::optional<Rational> square;
};

// sqrt(q) for a positive rational q that is not a square: sqrt(p/d) =
// sqrt(p d)/d, and squares k^2 (k <= 1000) are taken out of p d. That need
// not leave p d square-free; two names for one real are only a tie missed.
Parts sqrt_parts(const Rational &q) {
    Integer m = numerator(q) * denominator(q), root = 1;
    for (unsigned k = 2; k <= 1000 && Integer(k) * k <= m; ++k)
        while (m % (Integer(k) * k) == 0) {
            m /= Integer(k) * k;
            root *= k;
        }
    return {Rational(root, denominator(q)), "s" + m.str(), Rational(m)};
}

const char *kind_letter(AtomKind kind) {
    return kind == AtomKind::Sqrt ? "S" : kind == AtomKind::Log ? "L" : "I";
}

// a * b for sorted monomials, with pairs of sqrt atoms of rationals
// multiplied out into the coefficient.
std::optional<std::pair<Rational, Form::Monomial>> times(const Form::Monomial &a,
                                                         const Form::Monomial &b) {
    Form::Monomial merged;
    std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(merged));
    Rational coefficient = 1;
    Form::Monomial out;
    for (std::size_t i = 0; i < merged.size(); ++i) {
        if (i + 1 < merged.size() && merged[i] == merged[i + 1])
            if (auto sq = AtomTable::get().square(merged[i])) {
                coefficient *= *sq;
                ++i;
                continue;
            }
        out.push_back(merged[i]);
    }
    if (out.size() > kMaxMonomialDegree) return std::nullopt;
    return std::make_pair(coefficient, out);
}

void accumulate(std::map<Form::Monomial, Rational> &terms, const Form::Monomial &m,
                const Rational &c) {
    auto [it, fresh] = terms.emplace(m, c);
    if (!fresh) it->second += c;
    if (it->second == 0) terms.erase(it);
}

} // namespace

// Whether a form just computed stays within the caps (form.hpp).
static bool within_caps(const std::map<Form::Monomial, Rational> &terms) {
    if (terms.size() > kMaxFormTerms) return false;
    for (const auto &[m, c] : terms)
        if (bit_size(c) > kMaxFormCoefficientBits) return false;
    return true;
}

Form::Form(const Rational &q) {
    if (q != 0) terms_.emplace(Monomial{}, q);
}

std::optional<Rational> Form::constant() const {
    if (terms_.empty()) return Rational(0);
    if (terms_.size() == 1 && terms_.begin()->first.empty()) return terms_.begin()->second;
    return std::nullopt;
}

std::string Form::key() const {
    std::string text;
    for (const auto &[m, c] : terms_) {
        text += (text.empty() ? "" : "+") + c.str();
        for (std::uint32_t id : m)
            text += "*#" + std::to_string(id);
    }
    return text.empty() ? "0" : text;
}

std::optional<std::string> Form::expression() const {
    std::string text;
    for (const auto &[m, c] : terms_) {
        text += (text.empty() ? "(" : " + (") + c.str() + ")";
        for (std::uint32_t id : m) {
            auto square = AtomTable::get().square(id);
            if (!square) return std::nullopt;
            text += "*sqrt(" + square->str() + ")";
        }
    }
    return text.empty() ? "0" : text;
}

std::optional<Form> reciprocal(const Form &f) {
    if (f.terms_.size() != 1) return std::nullopt;
    const auto &[m, c] = *f.terms_.begin();
    Rational divisor = c;
    for (std::uint32_t id : m) {
        auto square = AtomTable::get().square(id);
        if (!square) return std::nullopt;
        divisor *= *square;
    }
    Form r;
    r.terms_.emplace(m, 1 / divisor);
    if (!within_caps(r.terms_)) return std::nullopt;
    return r;
}

std::optional<Form> add(const Form &a, const Form &b) {
    Form r = a;
    for (const auto &[m, c] : b.terms_)
        accumulate(r.terms_, m, c);
    if (!within_caps(r.terms_)) return std::nullopt;
    return r;
}

std::optional<Form> sub(const Form &a, const Form &b) {
    Form r = a;
    for (const auto &[m, c] : b.terms_)
        accumulate(r.terms_, m, -c);
    if (!within_caps(r.terms_)) return std::nullopt;
    return r;
}

std::optional<Form> scale(const Form &a, const Rational &q) {
    Form r;
    if (q == 0) return r;
    for (const auto &[m, c] : a.terms_)
        r.terms_.emplace(m, c * q);
    if (!within_caps(r.terms_)) return std::nullopt;
    return r;
}

std::optional<Form> mul(const Form &a, const Form &b) {
    if (a.terms_.size() * b.terms_.size() > kMaxFormProducts) return std::nullopt;
    Form r;
    for (const auto &[ma, ca] : a.terms_)
        for (const auto &[mb, cb] : b.terms_) {
            auto t = times(ma, mb);
            if (!t) return std::nullopt;
            accumulate(r.terms_, t->second, ca * cb * t->first);
        }
    if (!within_caps(r.terms_)) return std::nullopt;
    return r;
}

std::optional<Form> atom_of(AtomKind kind, const Form &arg) {
    auto q = arg.constant();
    // the caller has checked the domain; these are the values no atom needs
    if (q && kind == AtomKind::Inverse) return *q == 0 ? std::nullopt : std::optional(Form(1 / *q));
    if (q && *q <= 0) return std::nullopt;
    if (q && kind == AtomKind::Log && *q == 1) return Form();
    std::string name = std::string(kind_letter(kind)) + "(" + arg.key() + ")";
    if (name.size() > kMaxAtomKeyChars) return std::nullopt;
    auto made = AtomTable::get().find_or_make(name, [&] {
        if (q && kind == AtomKind::Sqrt) return sqrt_parts(*q);
        return Parts{Rational(1), name, std::nullopt};
    });
    if (!made) return std::nullopt;
    Form r;
    r.terms_.emplace(Form::Monomial{made->id}, made->factor);
    return r;
}

} // namespace tempcert
