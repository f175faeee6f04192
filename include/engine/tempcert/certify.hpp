// Certification of S_beta against H for every input up to length n
// (docs/semantics.md), and the tight inverse-temperature bracket (docs/semantics.md).
#pragma once

#include "tempcert/bounds.hpp"

#include <string>

namespace tempcert {

enum class Criterion { Tv, Output, Decision };
const char *to_string(Criterion c);
bool parse_criterion(const std::string &text, Criterion &c);

enum class Verdict { Certified, Refuted, Undecided };
const char *to_string(Verdict v);

// A place where the criterion fails (Refuted) or could not be decided.
struct Violation {
    Word word;
    std::string quantity;                       // "tv", "output", "decision"
    std::size_t layer = 0, head = 0, query = 0; // tv: where; output/decision: query = read position
    Real value;         // the violated quantity as an interval (TV, |y_S - y_H|, y_S)
    Real hard_value;    // decision/output: y_H
    std::string detail; // one line, human-readable
};

// Judges one soft trace against the hard trace: True if the criterion holds
// for this word, False with `violation` filled if it certainly fails,
// Unknown (violation names the undecided place) otherwise.
Tri judge_word(const Trace &hard, const Trace &soft, const Rational &eps, Criterion c,
               Violation &violation, const Word &w);

// The same for one query (tv) and one read-out (output, decision).
Tri judge_query(const QueryTrace &q, std::size_t layer, std::size_t head, const Rational &eps,
                Prec prec, const Word &w, Violation &violation);
Tri judge_output(const OutputValue &ys, const OutputValue &yh, const Rational &eps, Criterion c,
                 Prec prec, const Word &w, Violation &violation);

// Order of enumeration: shorter first, then lexicographic by alphabet index.
bool word_before(const Word &a, const Word &b);

struct CertifyOptions {
    std::size_t n = 1;
    Rational eps;
    Criterion criterion = Criterion::Tv;
    Limits limits;
    PrecisionPolicy precision;
    bool allow_prefix = true; // false: the plain path only (--method plain)
    bool filter = true;       // prefix path: double-interval filter before MPFI (--no-filter)
    // tight beyond enumeration: the longest word the lower end's search
    // pumps (--pump-length; proofs/tight-bracket.md, "Beyond enumeration")
    std::size_t pump_length = 1024;
};

// The largest value a head's checked quantity reached (tv: TV's upper end;
// output: |y_S - y_H|'s), where, and so its slack eps - value.
struct Binding {
    std::size_t layer = 0, head = 0; // 0 for a read-out (output, decision)
    Rational value;                  // an upper bound of the quantity
    Word word;
    std::size_t query = 0;
};

// Folds one word's soft trace into per-head bindings (index: flat head, or
// one entry for the read-out).
void record_binding(std::vector<Binding> &b, const Trace &hard, const Trace &soft, Criterion c,
                    const Word &w);
// Folds one candidate into entry `idx`: the larger value wins, ties go to
// the word first in enumeration order (so the order of visits is irrelevant).
void record_binding_value(std::vector<Binding> &b, std::size_t idx, Binding candidate);
// The least filtered upper end a place may have and still become the
// binding, given the best filtered lower end seen for its head: values are
// compared rounded up to 40 bits (criterion.cpp), so a place a little below
// that lower end can tie with the maximum there and, being first in
// enumeration order, win the tie. Used by the prefix path's filter to drop
// places (certify_prefix.cpp, Candidates).
double binding_keep_threshold(double best_lower);

struct CertifyResult {
    Verdict verdict = Verdict::Undecided;
    std::optional<Violation> counterexample; // Refuted: the first failing word
    std::optional<Violation> undecided;      // Undecided: the first undecided word
    std::uint64_t words = 0;
    Prec max_prec = 0; // highest precision any word needed
    std::string method;
    // prefix path with the filter: nodes the double intervals decided, and
    // nodes they could not (re-judged by the exact and MPFI plain path)
    std::uint64_t filter_decided = 0, filter_fallbacks = 0;
    std::vector<Binding> bindings; // per head (tv) or read-out; see record_binding
    // false: the filter kept only some of many near-maximal places, and the
    // binding is the largest among those (certify_prefix.cpp, Candidates)
    bool binding_exact = true;
    // The binding place: the largest value, i.e. the smallest slack.
    const Binding *binding() const;
};

// Every word of length 1..n, plain exact and MPFI evaluation, precision per
// word raised until decided. Stops at the first refuted word.
CertifyResult certify_exhaustive(const Model &m, const BetaSpec &beta, const CertifyOptions &o);

// Prefix-sharing certification (src/certify/certify_prefix.cpp): the same
// verdict and the same counterexample as certify_exhaustive, for models where
// PrefixEvaluator applies and beta is one constant. Undecided words fall
// back to certify_word. Returns nullopt when prefix sharing does not apply.
std::optional<CertifyResult> certify_prefix(const Model &m, const BetaSpec &beta,
                                            const CertifyOptions &o);

// The prefix path's double-interval filter (proofs/double-filter.md) along
// one word, at the starting precision, without the plain path: False with
// `failing_length` when the filter certainly refutes a prefix of w (the
// first), True when it certifies every prefix (so every query of w, under
// the causal masks prefix sharing needs), Unknown when it refutes none and
// cannot decide some. nullopt when prefix sharing does not apply. O(|w|^2)
// in doubles; a search that acts on False alone never acts on a guess.
std::optional<Tri> filter_prefixes_of(const Model &m, const Word &w, const BetaSpec &beta,
                                      const CertifyOptions &o, std::size_t &failing_length);

// certify_prefix when allowed and applicable, certify_exhaustive otherwise.
CertifyResult certify_auto(const Model &m, const BetaSpec &beta, const CertifyOptions &o);

// Decides one word at `beta` (precision raised until decided or the cap).
Tri certify_word(const Model &m, const Word &w, const BetaSpec &beta, const CertifyOptions &o,
                 Violation &violation, Prec &used, std::vector<Binding> *bindings = nullptr);
// certify_word without the word's traces (src/certify/certify_streamed.cpp):
// the same verdict, violation and precision in O(n) memory, where a trace
// holds about 2 n^2 weights per head; a head's queries on o.limits' threads.
// For long words (tight's lower-end words).
Tri certify_word_streamed(const Model &m, const Word &w, const BetaSpec &beta,
                          const CertifyOptions &o, Violation &violation, Prec &used);

// What a tight answer's ends mean. Threshold: the criterion is monotone in
// beta (one layer with heads, tv), so every beta >= beta_hi meets it and
// every beta <= beta_lo fails. Bracket: only the two ends are known.
enum class BracketKind { Threshold, Bracket };
std::string to_string(BracketKind k); // "threshold", "bracket"

struct TightResult {
    Rational beta_lo, beta_hi; // certified refuted at lo (if lo_witness), certified at hi
    std::optional<Violation> lo_witness;
    BracketKind kind = BracketKind::Bracket;
    bool converged = false; // (hi - lo) <= rel * hi reached
    std::string note;
    GapReport gaps;
    GapBound beta_gap;
    ProfileReport profile; // docs/semantics.md profile bound on the hard scores
    std::uint64_t certify_runs = 0;
};

// The tight bracket by enumeration: each end certified or refuted by
// certify_auto over every word up to o.n (proofs/tight-bracket.md).
TightResult tight_exhaustive(const Model &m, const CertifyOptions &o, const Rational &rel);

// The tight bracket without enumeration (src/certify/tight_symbolic.cpp):
// models whose heads are all in layer 1, tv, constant beta. beta_hi from the
// symbolic profile bound (every word up to o.n), beta_lo refuted by the word
// attaining it. Undecided for unique-hard ties between different values.
TightResult tight_symbolic(const Model &m, const CertifyOptions &o, const Rational &rel);
// The tight bracket of layer-1 heads whose scores read no symbol, for
// irrational features where the symbolic analysis stops
// (src/certify/tight_position_scores.cpp; proofs/symbolic-gap.md,
// "Position-only scores with irrational features"): tv, features free of n.
// beta_hi certified at every critical configuration, beta_lo refuted by a
// word. Undecided where an order of scores is not decided or a unique-hard
// head ties. position_scores_apply says why not (why_not) otherwise.
bool position_scores_apply(const Model &m, const CertifyOptions &o, std::string &why_not);
TightResult tight_position_scores(const Model &m, const CertifyOptions &o, const Rational &rel);
// The tv criterion at the one query `w` names of a head of the first layer
// with heads (w.layer must be that layer; w.layer and w.head are 1-based),
// the hard model exactly and the soft one in intervals, precision raised as
// certify_word raises it: O(n) memory where a trace holds O(n^2). The
// layers before have no heads, so that query's soft weights are the whole
// soft model's. False (with `v`) when the query fails at beta.
Tri judge_first_layer_witness(const Model &m, const Witness &w, const BetaSpec &beta,
                              const CertifyOptions &o, Violation &v);
// Beyond enumeration, multi-layer models (src/certify/tight_layers.cpp):
// beta_hi certified by the layerwise method (exact rounding, else the
// perturbation argument); beta_lo refuted by a named word: the better of
// layer 1's symbolic bracket (tv; its soft weights are the whole model's)
// and lower_end_by_words below.
// Undecided when neither layerwise argument applies. gaps.method is
// Layerwise; gaps.min_gap the least head gap over the layers' value sets
// when exact rounding applies (not a model gap: no word attains it).
TightResult tight_by_layers(const Model &m, const CertifyOptions &o, const Rational &rel);
// A lower end of the whole model's bracket found by evaluating words, not
// enumerating up to n (src/certify/tight_lower.cpp): every word up to
// seed_length (the longest enumeration of at most 4096 words and
// o.limits.max_words), then the refuting word's runs pumped to longer words up to
// `longest` (at most min(n, 256)). `witness` fails the criterion at `beta`
// (< hi, found to rel * hi). nullopt when no word refutes below hi.
struct WordLowerEnd {
    Rational beta;
    Violation witness;
    std::size_t seed_length = 0, longest = 0;
};
std::optional<WordLowerEnd> lower_end_by_words(const Model &m, const CertifyOptions &o,
                                               const Rational &hi, const Rational &rel);
// A unique-hard head tied between positions with different values: at every
// beta softmax gives the tied positions equal weight, at most 1/2 each,
// against the hard head's one, so TV >= 1/2 on that word and no beta meets
// tv with eps < 1/2: LimitError (exit 3) naming the word, at once rather
// than after a search. Nothing for other criteria or eps >= 1/2.
void refuse_value_ties(const Model &m, const GapReport &gaps, const CertifyOptions &o);

// Per-layer betas (`tight --per-layer`, tv only; proofs/tight-bracket.md,
// "Per layer"): from the one-beta tight beta_hi (certified for all layers),
// each layer's beta in turn is lowered with the others as they stand, by the
// same bracket search on the whole model: beta_hi of layer l is certified
// with the other layers at their values at that step (earlier layers at
// their final beta_hi, later ones at the joint beta_hi), beta_lo refuted by
// a word. Soft perturbations from earlier layers can split ties and make TV
// non-monotone in a layer's beta, so each is a bracket, not a threshold.
// The final vector is certified on the whole model. A lower end is refuted
// at the whole vector it was searched with (`refuted_at`), so the passes
// repeat (up to 4) until one moves no layer (`stable`): then each
// refutation was made with the other layers at their final betas; if not,
// the output names each refutation's vector. InputError for criteria other
// than tv.
struct LayerTight {
    std::size_t layer = 0; // 1-based
    bool has_heads = false;
    Rational beta_lo, beta_hi; // refuted at lo (if lo_witness), certified at hi
    std::optional<Violation> lo_witness;
    std::vector<Rational> refuted_at; // every layer's beta where lo_witness refutes
    bool converged = false;
    std::string note;
};

struct PerLayerTight {
    std::vector<LayerTight> layers;
    Rational joint_hi;   // the one-beta start, certified
    BetaSpec betas;      // every layer's beta_hi (joint_hi for head-less layers)
    CertifyResult whole; // the whole model certified at `betas`
    bool converged = false;
    int passes = 0;      // passes over the layers
    bool stable = false; // the last pass moved no layer
    std::uint64_t certify_runs = 0;
};

PerLayerTight tight_per_layer(const Model &m, const CertifyOptions &o, const Rational &rel);

} // namespace tempcert
