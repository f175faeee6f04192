// Reports of tight temperatures (docs/commands.md, theorem and report): for each case and n, the
// minimum gap, Lemma GT's beta_gap, the profile bound and the tight bracket with its witness,
// computed by the same functions as `gap`, `bound` and `tight`, and written as Markdown, HTML, CSV,
// JSON and SVG plots.
#pragma once

#include "tempcert/certify.hpp"

#include <functional>
#include <string>
#include <vector>

namespace tempcert {

// A case's supremum over every length (`tight --every-n`, proofs/every-n.md):
// the report's "every n" column.
struct ReportEveryN {
    bool computed = false; // false: outside the scope (note says why)
    bool bounded = false;
    std::string lo, hi; // bounded: the bracket, rounded outward
    std::string growth; // unbounded: "log n, rate R"
    std::string note;
};

struct ReportCase {
    std::string id, language, model_path;
    Model model;
    ReportEveryN every_n; // filled by add_every_n
};

struct ReportRow {
    std::string case_id;
    std::size_t n = 0;
    std::string method; // "exhaustive" (tight computed), "symbolic" or "layerwise"
    std::uint64_t words = 0;
    std::string min_gap;                // exact, "inf", or "" when not computed
    std::string beta_gap;               // Lemma GT, decimal rounded up ("0": any beta)
    std::string profile_lo, profile_hi; // docs/semantics.md bracket ("" when not computed)
    std::string tight_lo, tight_hi;     // "" when not computed
    std::string kind;                   // "threshold" or "bracket"
    std::string witness;                // word refuting tight_lo, or the gap witness
    std::string witness_place;          // layer, head, query
    std::string note;
};

struct ReportOptions {
    std::vector<std::size_t> ns;
    Rational eps = Rational(1, 100);
    Rational rel = Rational(1, 1000000); // as tight's --rel
    std::uint64_t tight_words = 2048;    // tight (bisection over every word) up to this many
    std::size_t pump_length = 1024;      // as tight's --pump-length
    Limits limits;
    PrecisionPolicy precision;
    // called before each (case, n): index, total, case id, n
    std::function<void(std::size_t, std::size_t, const std::string &, std::size_t)> progress;
};

// The rows, in case order then n order, each by the tight command's method
// (choose_tight_method with tight_words as the word budget): enumeration,
// the symbolic bracket or the layerwise bracket; an n no method answers
// gets no row (and a line in `skipped` saying why).
std::vector<ReportRow> compute_report(const std::vector<ReportCase> &cases, const ReportOptions &o,
                                      std::vector<std::string> &skipped);

// Each case's supremum over every length where tight --every-n applies
// (the others get the reason), with o's eps and rel, --n 1024.
void add_every_n(std::vector<ReportCase> &cases, const ReportOptions &o);

// "[lo, hi]", "log n, rate R" or "-": the every-n column's text.
std::string every_n_text(const ReportEveryN &e);

// The format a report directory's marker names (output.hpp).
constexpr const char *kReportFormat = "tempcert report directory 1";

// Writes report.md, report.html (self-contained: SVG inline, no scripts),
// results.csv, results.json, plot-CASE.svg and overview.svg into dir, as
// write_output_directory does: a new directory appears whole; in a report
// directory written before, only tempcert's files are replaced. Returns
// the files.
std::vector<std::string> write_report(const std::string &dir, const std::vector<ReportCase> &cases,
                                      const std::vector<ReportRow> &rows, const ReportOptions &o,
                                      const std::vector<std::string> &skipped);

// "2..10,12,16": the lengths listed (ranges inclusive), increasing, unique.
// Throws InputError (naming --n) on anything else or n beyond max_n.
std::vector<std::size_t> parse_n_list(const std::string &text, std::size_t max_n,
                                      const std::string &option = "--n");

} // namespace tempcert
