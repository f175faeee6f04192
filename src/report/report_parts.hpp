// The pieces of a report written besides the tables' data: the plots of
// each case and of all cases, and the self-contained report.html.
#pragma once

#include "svg_plot.hpp"
#include "tempcert/report.hpp"

#include <string>
#include <vector>

namespace tempcert::report {

// One case against n: Lemma GT's beta_gap (dashed), the profile bound, and
// the tight bracket as a band (certified above, refuted below).
Plot case_plot(const ReportCase &c, const std::vector<ReportRow> &rows, const Rational &eps);

// Every case: its tight beta (upper end, solid) where computed and its
// beta_gap (dashed), in one colour per case.
Plot overview_plot(const std::vector<ReportCase> &cases, const std::vector<ReportRow> &rows,
                   const Rational &eps);

// The columns' meanings, once for report.md and report.html: {column,
// text}; "{name.md}" in a text stands for a link to that proof (proofs/).
struct ColumnNote {
    const char *column, *meaning;
};
const std::vector<ColumnNote> &column_notes();

// The distinct notes of one case's rows, sorted (report.md and report.html).
std::vector<std::string> case_notes(const ReportCase &c, const std::vector<ReportRow> &rows);

// "[lo, hi]" for a bracket, "-" when not computed.
std::string bracket_text(const std::string &lo, const std::string &hi);

// report.html: one file, the SVG plots inline, no scripts, no resources
// loaded from elsewhere; `proofs` is the relative or absolute path of the
// proofs directory for links.
std::string report_html(const std::vector<ReportCase> &cases, const std::vector<ReportRow> &rows,
                        const ReportOptions &o, const std::vector<std::string> &skipped,
                        const std::string &proofs);

// report.tex: the table of tight temperatures as a booktabs tabular (one
// row per case and n, the rows' safe decimal roundings), for \input.
std::string report_latex(const std::vector<ReportCase> &cases, const std::vector<ReportRow> &rows,
                         const ReportOptions &o);
// Text for LaTeX: the ten special characters escaped, controls as spaces.
std::string latex_escape(const std::string &raw);

} // namespace tempcert::report
