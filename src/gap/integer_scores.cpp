// See integer_scores.hpp.
#include "integer_scores.hpp"
#include "tempcert/dinterval.hpp"

#include <algorithm>
#include <bit>

namespace tempcert::detail {

namespace {

// Entries below 2^62 in absolute value (so that negation and the bit bound
// below are safe).
constexpr int kEntryBits = 62;
// Products below 2^(bits(Q) + bits(K)); w of them below 2^125 < 2^127.
constexpr int kSumBits = 125;

int bit_length(std::uint64_t x) {
    return 64 - std::countl_zero(x);
}

int ceil_log2(std::size_t w) {
    return w <= 1 ? 0 : bit_length(static_cast<std::uint64_t>(w - 1));
}

// Common denominator of every entry, and the numerators over it, when each
// fits in kEntryBits; the largest bit length in `bits`.
std::optional<std::pair<Integer, std::vector<std::int64_t>>>
scaled(const std::vector<const Vector *> &rows, int &bits) {
    Integer d = 1;
    for (const Vector *r : rows)
        for (const Rational &x : *r)
            d = boost::multiprecision::lcm(d, boost::multiprecision::denominator(x));
    std::vector<std::int64_t> out;
    const Integer limit = Integer(1) << kEntryBits;
    bits = 0;
    for (const Vector *r : rows)
        for (const Rational &x : *r) {
            const Integer v =
                boost::multiprecision::numerator(x) * (d / boost::multiprecision::denominator(x));
            if (abs(v) >= limit) return std::nullopt;
            const auto i = v.convert_to<std::int64_t>();
            bits = std::max(bits, bit_length(static_cast<std::uint64_t>(i < 0 ? -i : i)));
            out.push_back(i);
        }
    return std::make_pair(d, std::move(out));
}

} // namespace

std::optional<IntegerKeys> IntegerKeys::of(const std::vector<Vector> &rows, std::size_t first) {
    if (rows.size() <= first) return std::nullopt;
    IntegerKeys k;
    k.w_ = rows[first].size();
    std::vector<const Vector *> present;
    for (std::size_t j = first; j < rows.size(); ++j) {
        if (rows[j].size() != k.w_) return std::nullopt;
        present.push_back(&rows[j]);
    }
    auto s = scaled(present, k.bits_);
    if (!s) return std::nullopt;
    k.D_ = Rational(s->first);
    k.K_.assign(rows.size() * k.w_, 0); // rows before `first`: zeros, never read
    std::copy(s->second.begin(), s->second.end(), k.K_.begin() + static_cast<long>(first * k.w_));
    return k;
}

std::optional<IntegerQuery> IntegerKeys::query(const Vector &q) const {
    if (q.size() != w_) return std::nullopt;
    IntegerQuery out;
    auto s = scaled({&q}, out.bits);
    if (!s || out.bits + bits_ + ceil_log2(w_) > kSumBits) return std::nullopt;
    out.Q = std::move(s->second);
    out.scale = 1 / (Rational(s->first) * D_);
    return out;
}

Rational to_rational(Int128 x) {
    const bool negative = x < 0;
    // |x| < 2^127: as unsigned, then in two 64-bit halves
    auto u = static_cast<UInt128>(negative ? -x : x);
    Integer r = static_cast<std::uint64_t>(u >> 64);
    r <<= 64;
    r += static_cast<std::uint64_t>(u);
    return Rational(negative ? Integer(-r) : r);
}

namespace {

// An enclosure of a positive integer below 2^127: exact below 2^53, else
// the conversion's double stepped out on both sides.
DInterval enclose_integer(Int128 g) {
    const auto d = static_cast<double>(g);
    if (g < (Int128(1) << 53)) return DInterval::point(d);
    return {step_down(d), step_up(d)};
}

// Terms whose exponent is at least this are bounded by exp(-kFar) each
// without calling exp.
constexpr double kFar = 40;

} // namespace

bool integer_x_at_most(const std::vector<Int128> &gaps, const Rational &beta_scaled,
                       const Rational &c) {
    if (beta_scaled < 0) return false;
    const DInterval b = to_dinterval(beta_scaled), bound = to_dinterval(c);
    DInterval x = DInterval::point(0);
    std::size_t far = 0;
    for (Int128 g : gaps) {
        const DInterval e = b * enclose_integer(g);
        if (e.lo >= kFar) {
            ++far;
            continue;
        }
        x = x + exp(-e);
    }
    if (far > 0) x = x + exp(DInterval::point(-kFar)) * DInterval::point(static_cast<double>(far));
    return x.finite() && less_equal(x, bound) == Tri::True;
}

} // namespace tempcert::detail
