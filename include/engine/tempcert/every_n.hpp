// The supremum over every length of the tight inverse temperature
// (proofs/every-n.md): `tempcert tight --every-n`.
#pragma once

#include "tempcert/certify.hpp"

#include <string>
#include <vector>

namespace tempcert {

// One pair of lines whose need grows with the length (proofs/every-n.md,
// Lemma E3): in head `head` (1-based, layer 1), at a query of symbol
// `query`, `holder` scores Delta above `rival` at every position, so the
// word R S...S a needs beta >= ln((n - 2)(1 - eps)/(3 eps)) / Delta.
struct GrowthWitness {
    std::size_t head = 0;
    std::string query, holder, rival; // symbols
    Rational delta;
};

struct EveryNResult {
    bool bounded = true;
    // Bounded: sup_n tight(n) in [beta_lo, beta_hi]; beta_hi certified for
    // every length by the tail bound and the bracket at n_finite, beta_lo
    // refuted by lo_witness (a word of length <= n_lower).
    Rational beta_lo, beta_hi;
    std::optional<Violation> lo_witness;
    bool converged = false;
    std::size_t n0 = 0;       // the tail bound covers query positions >= n0
    std::size_t n_finite = 0; // tight's bracket at this length covers the rest (n0 - 1)
    Rational finite_hi;       // that bracket's upper end
    Rational tail_hi;         // the tail bound's certified beta (0: no tail term)
    std::size_t n_lower = 0;  // the length whose tight bracket gave beta_lo
    std::size_t tail_terms = 0;
    // Unbounded: the growth law and its witnesses (Lemma E3).
    std::string growth;   // "log n"
    Rational growth_rate; // 1 / Delta_min: beta(n) ~ rate * ln n
    std::vector<GrowthWitness> growth_witnesses;
    // the certified envelope beta(n) = (ln n + envelope_c)/Delta_min
    // (proofs/every-n.md, Lemma E4): every word of every length n meets eps
    // at beta(n); beta_expr in the model format's expression syntax
    Rational envelope_c;
    std::string beta_expr;
    // beta(n) / tight(n)'s upper end - 1 at n = 10^3 and 10^4 (where computed)
    std::vector<std::pair<std::size_t, double>> envelope_excess;
    // by Theorem T (position-only scores invariant under translation: the
    // series over windows of offsets), not by the tail bound of Lemma E1;
    // n0, the finite part and the tail fields are then unused
    bool windows = false;
    // by Theorem L (multi-layer, exact rounding): each layer's bracket of
    // its need over every length (layer_sups[l], {0, 0} for a layer without
    // heads); beta_hi their largest, beta_lo the tight bracket's at n_lower
    bool by_layers = false;
    std::vector<Bracket> layer_sups;
    std::string note;
};

// The longest length `tight --every-n` examines exactly when --n is not given.
constexpr std::size_t kEveryNLongestExact = 1024;

// Why `tight --every-n` does not apply to `m` under `o` (empty when it does):
// heads only in layer 1, tv, polynomial features in j, causal or strict
// masks, affine keys with a slope constant in the query position.
std::string every_n_out_of_scope(const Model &m, const CertifyOptions &o);
// Why Theorem T of proofs/every-n.md (scores a fixed profile of j - i, any
// mask) does not apply to `m` (empty when it does): where version 1 is out
// of scope, `tight --every-n` and `horizon` answer by it.
std::string every_n_windows_out_of_scope(const Model &m, const CertifyOptions &o);

// Why no version of `tight --every-n` can answer for `m` (empty when one
// may): version 1's and Theorem T's scopes are checked up front; Theorem
// L's (several layers) only by running it, which throws Undecided with the
// reason.
std::string every_n_unavailable(const Model &m, const CertifyOptions &o);
// Whether a layer past the first has heads: then Theorem L is the version
// that may answer.
bool every_n_by_layers(const Model &m);

// sup_n tight(n) (proofs/every-n.md). `o.n` is the longest length examined
// exactly. Throws Undecided (exit 3) outside the scope, with the reason.
// `envelope_excess`: also measure an unbounded model's envelope against
// tight(n) at n = 10^3 and 10^4 (seconds; the bracket does not need it).
EveryNResult tight_every_n(const Model &m, const CertifyOptions &o, const Rational &rel,
                           bool envelope_excess = true);

// The tail of `certify --every-n` (proofs/every-n.md, Theorem): the least
// n0 (16, 32, ... up to o.n + 1) at which the tail bound certifies `beta`
// for every query at position n0 or beyond, at every length, and the number
// of its terms; when it certifies at none, `certified` is false, n0 is the
// first one tried and `shortfall` says so; where no constant beta exists
// (Lemma E3), `growth_rate` too. Throws Undecided outside the scope.
struct EveryNTail {
    bool certified = false;
    std::size_t n0 = 0;
    std::size_t terms = 0;
    std::string shortfall;
    // no constant beta (Lemma E3): the need grows like growth_rate * ln n
    std::optional<Rational> growth_rate;
};
// Where no constant beta exists: about the length from which Lemma E3's
// word family needs more than beta, 3 eps/(1 - eps) e^(beta/rate) + 4. A
// bound for a search, in doubles: the word the search finds is what is
// judged, exactly.
double growth_failure_length(const Rational &eps, const Rational &rate, const Rational &beta);

EveryNTail every_n_tail_at(const Model &m, const CertifyOptions &o, const Rational &beta);

} // namespace tempcert
