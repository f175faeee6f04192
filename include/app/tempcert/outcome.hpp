// Typed answers to the questions the front doors ask, each with its two
// renderings: to_json, the one schema of --json, the Python module's
// results and (in parts) certificates; to_text, what a person reads. The
// command line parses, asks, renders and exits with exit_code; nothing
// else decides what an answer looks like: gap, bound, eval, certify (by
// enumeration, layerwise, perturbation), tight, horizon, check, theorem,
// report, and the summaries of compile, import and export.
#pragma once

#include "tempcert/bounds.hpp"
#include "tempcert/certificate.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/check.hpp"
#include "tempcert/eval.hpp"
#include "tempcert/every_n.hpp"
#include "tempcert/export_coq.hpp"
#include "tempcert/gap.hpp"
#include "tempcert/horizon.hpp"
#include "tempcert/layerwise.hpp"
#include "tempcert/method.hpp"
#include "tempcert/model.hpp"
#include "tempcert/perturbation.hpp"
#include "tempcert/report.hpp"
#include "tempcert/theorems.hpp"
#include "tempcert/trace.hpp"
#include "tempcert/word.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <variant>

namespace tempcert {

// The least gap of every head over the words of length 1..n, with the
// unique-hard tie check (docs/semantics.md).
struct GapOutcome {
    const Model *model = nullptr; // alive while the outcome is rendered
    std::size_t n = 0;
    GapReport report;
    bool ties() const; // a unique-hard head tied between different values
};

nlohmann::ordered_json to_json(const GapOutcome &g);
std::string to_text(const GapOutcome &g);
int exit_code(const GapOutcome &g); // 1 when ties() (softmax cannot simulate), else 0

// Lemma GT's inverse temperature for N positions, a gap and eps
// (proofs/lemma-gt.md).
struct BoundOutcome {
    std::size_t N = 0;
    Rational gap, eps;
    GapBound bound;
};

nlohmann::ordered_json to_json(const BoundOutcome &b);
std::string to_text(const BoundOutcome &b);

// One word evaluated: the hard model exactly, and the soft one at a beta in
// intervals (docs/commands.md, eval).
struct EvalOutcome {
    const Model *model = nullptr; // alive while the outcome is rendered
    std::string model_path;       // as given, for the text's first line
    Word word;
    bool show_hard = true; // the text shows the hard trace (JSON always has it)
    Trace hard;
    std::optional<Trace> soft;
    std::string beta; // as given, with soft
    // --summary: per head its extremes and the read-outs, in place of the
    // traces above (which stay empty)
    std::optional<EvalSummary> summary;
};

nlohmann::ordered_json to_json(const EvalOutcome &e);
std::string to_text(const EvalOutcome &e);
// 3 (undecided) when the soft weights did not reach the width asked for
// within --prec-cap, else 0
int exit_code(const EvalOutcome &e);

// A beta to certify: its exact text, as shown and recorded, and its parse.
using BetaChoice = std::pair<std::string, BetaSpec>;
using UserBeta = std::optional<BetaChoice>;

// certify by enumeration: every word of length 1..n judged at one beta,
// the user's or Lemma GT's from the model's least gap (docs/commands.md,
// certify).
struct CertifyOutcome {
    const Model *model = nullptr; // alive while the outcome is rendered
    std::string model_file;       // as given (the certificate names it)
    CertifyOptions options;
    GapReport gaps;
    GapBound beta_gap;
    std::string beta;        // the beta judged, exact text
    std::string beta_source; // "user" or "beta_gap"
    CertifyResult result;
    std::optional<std::string> written; // the certificate's path, once written
};

// Enumerates: the gaps, then the beta (`user_beta`, or beta_gap rounded
// up), then every word.
CertifyOutcome certify_enumerating(const Model &m, const std::string &model_file,
                                   const CertifyOptions &o, const UserBeta &user_beta);
// The certificate (proofs/certificate.md) of a certified or refuted outcome.
CertJson certificate_of(const CertifyOutcome &c);
// Writes it to `path` atomically and records `written`. An undecided
// outcome has no certificate: nothing is written. Refused (LimitError,
// nothing written) when a least gap is irrational: tempcert-check verifies
// exact gaps only.
void write_certificate(CertifyOutcome &c, const std::string &path);

nlohmann::ordered_json to_json(const CertifyOutcome &c);
std::string to_text(const CertifyOutcome &c);
int exit_code(Verdict v); // 0 certified, 1 refuted, 3 undecided
int exit_code(const CertifyOutcome &c);

// certify by the layerwise method where exact rounding applies
// (proofs/layerwise.md): no enumeration, any n; certified when beta meets
// every layer's bound at every length: at the user's beta (source "user")
// or the analysis's own beta_up ("layerwise").
struct LayerwiseCertifyOutcome {
    const Model *model = nullptr; // alive while the outcome is rendered
    CertifyOptions options;
    LayerwiseResult analysis;
    std::string beta;        // exact text
    std::string beta_source; // "user" or "layerwise"
    LayerwiseVerdict verdict;
    std::optional<std::string> written;
};

LayerwiseCertifyOutcome certify_layerwise_at(const Model &m, const CertifyOptions &o,
                                             LayerwiseResult analysis, const BetaChoice &beta,
                                             const std::string &beta_source);
// Checked by this process's checker first and written only when it accepts
// (LimitError otherwise, nothing written): every certificate certify writes,
// tempcert-check can verify (proofs/certificate.md).
void write_certificate(LayerwiseCertifyOutcome &c, const std::string &path);
nlohmann::ordered_json to_json(const LayerwiseCertifyOutcome &c);
std::string to_text(const LayerwiseCertifyOutcome &c);
int exit_code(const LayerwiseCertifyOutcome &c); // 0 certified, else 3

// certify by the perturbation argument where exact rounding does not apply
// (proofs/perturbation.md). Without a user beta, the least beta its bounds
// close at (to 1/10^4); Undecided when they close at none, or when the
// argument does not apply.
struct PerturbationCertifyOutcome {
    const Model *model = nullptr; // alive while the outcome is rendered
    CertifyOptions options;
    std::string rounding_failure; // why exact rounding did not apply
    std::string beta;             // exact text
    std::string beta_source;      // "user" or "perturbation"
    bool beta_uses_n = false;     // such a claim has no certificate
    PerturbationRun run;
    std::optional<std::string> written;
};

PerturbationCertifyOutcome certify_perturbation_at(const Model &m, const CertifyOptions &o,
                                                   const PerturbationArgument &arg,
                                                   const std::string &rounding_failure,
                                                   const UserBeta &user_beta);
// Written only when certified at betas that do not depend on n, and only
// after this process's checker accepted it (LimitError otherwise).
void write_certificate(PerturbationCertifyOutcome &c, const std::string &path);
nlohmann::ordered_json to_json(const PerturbationCertifyOutcome &c);
std::string to_text(const PerturbationCertifyOutcome &c);
int exit_code(const PerturbationCertifyOutcome &c); // 0 certified, else 3

// The certify question's method chooser, for `certify` and for the
// certificate of a tight bracket's upper end. Asked Layerwise, or Auto
// beyond --max-words: the layerwise method where exact rounding applies,
// else the perturbation argument (Auto: where it applies); otherwise
// enumeration (Plain: every word whole), which refuses a word count over
// --max-words (LimitError). (CertifyMethodAsked: tempcert/method.hpp.)
using CertifyAnswer =
    std::variant<CertifyOutcome, LayerwiseCertifyOutcome, PerturbationCertifyOutcome>;
CertifyAnswer certify_chosen(const Model &m, const std::string &model_file, CertifyOptions o,
                             CertifyMethodAsked asked, const UserBeta &user_beta);
Verdict verdict_of(const CertifyAnswer &a);
// The method its certificate names: exhaustive, layerwise or
// layerwise-perturbation.
const char *certificate_method(const CertifyAnswer &a);
void write_certificate(CertifyAnswer &a, const std::string &path);

// The tight inverse temperature over the words of length 1..n
// (proofs/tight-bracket.md): beta_hi certified, beta_lo refuted by a named
// word where one was found.
struct TightOutcome {
    const Model *model = nullptr; // alive while the outcome is rendered
    std::size_t n = 0;
    Rational eps;
    Criterion criterion = Criterion::Tv;
    TightResult result;
    std::optional<std::string> written; // the upper end's certificate (tight -o), once written
    std::string written_method;         // the certificate's method field
    std::string not_written;            // why -o wrote none (the bracket stands; exit 3)
};

// tight -o: beta_hi certified again, at exactly beta_hi, by certify's chooser
// (Auto), and that certificate written to `path` (checked by this process's
// checker first, as certify's are). Records it in `t`. LimitError, nothing
// written, when that certify does not certify.
void write_upper_end_certificate(TightOutcome &t, const std::string &model_file,
                                 const CertifyOptions &o, const std::string &path);

nlohmann::ordered_json to_json(const TightOutcome &t);
std::string to_text(const TightOutcome &t);
int exit_code(const TightOutcome &t); // 0 converged, 3 (undecided) when the bracket is wider

// tight --every-n: the supremum over every length (proofs/every-n.md).
struct EveryNOutcome {
    const Model *model = nullptr; // alive while the outcome is rendered
    std::size_t n_exact = 0;      // the longest length examined exactly
    Rational eps;
    Criterion criterion = Criterion::Tv;
    EveryNResult result;
};

nlohmann::ordered_json to_json(const EveryNOutcome &t);
std::string to_text(const EveryNOutcome &t);
// 0 bounded and converged; 3 unbounded (no constant beta) or wider than --rel
int exit_code(const EveryNOutcome &t);

// certify --every-n --beta B (proofs/every-n.md): the tail bound from n0 on
// and a finite certificate (certify's chooser) for every word up to n0 - 1.
struct EveryNCertifyOutcome {
    const Model *model = nullptr; // alive while the outcome is rendered
    CertifyOptions options;       // options.n: the longest length examined exactly
    std::string beta;             // exact text, no n
    EveryNTail tail;
    std::optional<CertifyAnswer> finite; // at n0 - 1
    Verdict verdict = Verdict::Undecided;
    std::string reason;                      // refuted or undecided: why
    std::optional<Violation> counterexample; // refuted: a word judged exactly at beta
    std::optional<std::string> written;
};

// `beta` is one positive rational (no n), as text and value.
EveryNCertifyOutcome certify_every_n(const Model &m, const std::string &model_file,
                                     const CertifyOptions &o, const BetaChoice &beta,
                                     const Rational &beta_value);
// The certificate: method "every-n", n "every", the finite certificate
// embedded (docs/certificates.md). Only for a certified outcome.
CertJson certificate_of(const EveryNCertifyOutcome &c);
nlohmann::ordered_json to_json(const EveryNCertifyOutcome &c);
std::string to_text(const EveryNCertifyOutcome &c);
int exit_code(const EveryNCertifyOutcome &c); // 0 certified, 1 refuted, 3 undecided

// tight --per-layer: one beta per layer, each lowered in turn from the one
// certified joint beta (proofs/tight-bracket.md).
struct PerLayerTightOutcome {
    const Model *model = nullptr; // alive while the outcome is rendered
    std::size_t n = 0;
    Rational eps;
    Criterion criterion = Criterion::Tv;
    PerLayerTight result;
};

nlohmann::ordered_json to_json(const PerLayerTightOutcome &t);
std::string to_text(const PerLayerTightOutcome &t);
// 0 when every layer converged and the whole model is certified at the
// per-layer betas, else 3
int exit_code(const PerLayerTightOutcome &t);

// Up to which n a model holds at one beta (docs/import.md, horizon).
struct HorizonOutcome {
    const Model *model = nullptr; // alive while the outcome is rendered
    std::string beta;             // as the command shows it (BetaSpec::text)
    Rational eps;
    Criterion criterion = Criterion::Tv;
    HorizonResult result;
};

// horizon without --max-n for a model in every-n's scope, at one rational
// beta: "every n" when certify --every-n certifies it; else the shortest
// failure (horizon up to the length of a refuting word), or undecided
// beyond what horizon up to o.n certifies.
HorizonResult horizon_every_n(const Model &m, const std::string &model_file,
                              const CertifyOptions &o, const BetaChoice &beta,
                              const Rational &beta_value);

nlohmann::ordered_json to_json(const HorizonOutcome &h);
std::string to_text(const HorizonOutcome &h);
// 0: the answer is what is known (a failure or an undecided length is an
// answer, not an error)
int exit_code(const HorizonOutcome &h);

// One theorem instance checked (`tempcert theorem ID ...`).
struct TheoremAnswer {
    std::string id; // as in theorem_catalogue()
    TheoremOutcome outcome;
};

nlohmann::ordered_json to_json(const TheoremAnswer &t);
std::string to_text(const TheoremAnswer &t);
int exit_code(const TheoremAnswer &t); // 0 confirmed, 1 a counterexample

// The theorems tempcert checks instances of, with where each is proved.
struct TheoremEntry {
    const char *id, *proof, *params, *claim;
};
const std::vector<TheoremEntry> &theorem_catalogue();

// `tempcert theorem --list`.
struct TheoremList {};
nlohmann::ordered_json to_json(const TheoremList &);
std::string to_text(const TheoremList &);

// A certificate judged by the checker (`tempcert check`; tempcert-check
// prints verdict_line itself, from the kernel alone).
struct CheckAnswer {
    std::string certificate; // its path, as given
    CheckOutcome outcome;
};

nlohmann::ordered_json to_json(const CheckAnswer &c);
// The verdict line; empty for a malformed certificate (bad input: the
// command says so on standard error, as for any other bad input).
std::string to_text(const CheckAnswer &c);
int exit_code(const CheckAnswer &c); // 0 verified, 1 not verified, 2 malformed

// A formula compiled into a model file (docs/ltl.md).
struct CompileOutcome {
    std::string formula; // as the parser prints it
    std::vector<std::string> alphabet;
    std::string pe;      // "unbounded", "bounded" or "none" (counting only)
    std::string pe_note; // what the positional features are, for the text
    std::string accept_at;
    std::string file; // the model written
    Model model;
    bool counting = false;
};

nlohmann::ordered_json to_json(const CompileOutcome &c);
std::string to_text(const CompileOutcome &c);

// A Tracr model imported into a model file (docs/import.md).
struct ImportOutcome {
    std::string source; // the file read
    std::string file;   // the model written
    Model model;
};

nlohmann::ordered_json to_json(const ImportOutcome &c);
std::string to_text(const ImportOutcome &c);

// A certificate exported as a Coq file (docs/certificates.md).
struct ExportOutcome {
    std::string certificate; // the file read
    std::string file;        // the .v written
    CoqExport exported;
};

nlohmann::ordered_json to_json(const ExportOutcome &c);
std::string to_text(const ExportOutcome &c);

// One row of a report (a case at one n), as results.json and `report
// --json` write it: every column as text (report_columns()), n and words as
// numbers. Keys sorted, as results.json has always had them.
nlohmann::json to_json(const ReportRow &r);
// The columns in the order results.csv and report.md show them.
const std::vector<std::string> &report_columns();
std::vector<std::string> report_fields(const ReportRow &r); // one per column

// A report written (docs/commands.md, report).
struct ReportOutcome {
    std::vector<std::string> files; // written, in the order written
    std::vector<ReportRow> rows;
    std::vector<std::string> skipped; // (case, n) no method reached, and why
    std::size_t cases = 0;
};

// {"files", "rows": their number, "results": the rows as results.json has
// them, "skipped"}
nlohmann::ordered_json to_json(const ReportOutcome &r);
std::string to_text(const ReportOutcome &r);

} // namespace tempcert
