// The one method chooser for each question: every front
// door (the tight command, the report, the main job, the theorem instances,
// and through the command line the Python module) asks here which method
// answers, so no command reaches a model another cannot.
#pragma once

#include "tempcert/certify.hpp"
#include "tempcert/gap.hpp"
#include "tempcert/layers_method.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace tempcert {

// The gap question (`tempcert gap --method`): Auto is symbolic where it
// applies (a rational model whose heads are all in layer 1), else
// exhaustive with prefixes shared; Plain evaluates every word whole.
enum class GapMethodAsked { Auto, Symbolic, Exhaustive, Plain };

// The --method name ("auto", "symbolic", "exhaustive", "plain"); InputError
// naming --method otherwise.
GapMethodAsked gap_method_asked(const std::string &name);

// The minimum gaps of every head over the words up to n by the method
// asked (Symbolic throws InputError where it does not apply, saying why).
GapReport min_gaps(const Model &m, std::size_t n, GapMethodAsked asked, const Limits &limits,
                   const PrecisionPolicy &precision);

// How a tight bracket is found (proofs/tight-bracket.md).
enum class TightMethod {
    Exhaustive, // every word up to n, each end certified or refuted by enumeration
    Symbolic,   // heads in layer 1 only, tv: the symbolic profile bound
    Layers,     // beyond enumeration otherwise: layerwise or perturbation upper end
};

const char *to_string(TightMethod m);

struct TightChoice {
    TightMethod method = TightMethod::Exhaustive;
    std::string why; // one line: why this method and not an earlier one
};

// What `--method` asks of certify and tight: the chooser's choice,
// enumeration with prefix sharing where the masks allow it (Exhaustive) or
// every word whole (Plain: CertifyOptions::allow_prefix), or the layerwise
// method.
enum class CertifyMethodAsked { Auto, Exhaustive, Plain, Layerwise };
// The --method name; InputError naming --method otherwise.
CertifyMethodAsked certify_method_asked(const std::string &name);

// Auto: enumeration while the words up to o.n number at most `word_budget`;
// beyond it the symbolic bracket where it applies (tv, heads in layer 1),
// else the layerwise bracket (which may still be Undecided when neither
// layerwise argument applies). Otherwise the method asked for, whatever
// the budget (enumeration stops at --max-words with a LimitError).
TightChoice choose_tight_method(const Model &m, const CertifyOptions &o, std::uint64_t word_budget,
                                CertifyMethodAsked asked = CertifyMethodAsked::Auto);

// The tight bracket by the chosen method; `chosen` (if given) receives the
// method that answered. Under Auto, where the choice is enumeration but the
// features read n (no prefix to share: every word evaluated whole), tv and
// more than 4096 words, the layerwise bracket is tried first and kept when
// it converges. Throws what the method throws (Undecided, LimitError).
TightResult tight_auto(const Model &m, const CertifyOptions &o, const Rational &rel,
                       std::uint64_t word_budget, TightChoice *chosen = nullptr,
                       CertifyMethodAsked asked = CertifyMethodAsked::Auto);

} // namespace tempcert
