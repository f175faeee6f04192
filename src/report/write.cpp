// Writing a report: Markdown that explains itself, CSV and JSON with the
// same rows, SVG plots (svg_plot.cpp, drawn here, no outside program) and
// report.html with everything inline (html.cpp).
#include "report_parts.hpp"
#include "tempcert/certificate.hpp"
#include "tempcert/error.hpp"
#include "tempcert/outcome.hpp"
#include "tempcert/output.hpp"
#include "tempcert/printable.hpp"
#include "tempcert/report.hpp"
#include "tempcert/run_program.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string_view>
#include <unistd.h>

namespace tempcert {

namespace {

namespace fs = std::filesystem;

// A CSV field: quoted when it holds a comma, quote or line break; a text
// that a spreadsheet would run as a formula (= + - @ tab CR first) and that
// is not a number gets a leading apostrophe (docs/reliability.md, What reaches a terminal or a
// report).
std::string csv_field(const std::string &s) {
    std::string v = s;
    std::string why;
    if (!v.empty() && std::string_view("=+-@\t\r").find(v[0]) != std::string_view::npos &&
        !parse_rational_scientific(v, why))
        v = "'" + v;
    if (v.find_first_of(",\"\n\r") == std::string::npos) return v;
    std::string out = "\"";
    for (char c : v)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

// Text from an input file (a case's name, a word) for Markdown: characters
// that Markdown or HTML would read as syntax are escaped, line breaks become
// spaces, so a name cannot break a table or inject markup.
std::string md_text(const std::string &raw) {
    const std::string s = printable(raw); // no control reaches report.md raw
    std::string out;
    for (char c : s) {
        if (c == '\n' || c == '\r')
            out += ' ';
        else if (std::string_view("\\`*_{}[]()<>#+-.!|~&\"'").find(c) != std::string_view::npos)
            out += std::string("\\") + c;
        else
            out += c;
    }
    return out;
}

// File stems for the cases' plots: the case id with every character other
// than letters, digits, '_' and '-' replaced by '_', and "-K" added where two
// ids would share a stem. No input string reaches a file name unchanged.
std::vector<std::string> plot_stems(const std::vector<ReportCase> &cases) {
    std::vector<std::string> stems;
    std::set<std::string> used;
    for (std::size_t k = 0; k < cases.size(); ++k) {
        std::string stem = "plot-";
        for (char c : cases[k].id.substr(0, 60))
            stem += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' ? c : '_';
        if (used.count(stem) || stem == "plot-") stem += "-" + std::to_string(k + 1);
        used.insert(stem);
        stems.push_back(stem);
    }
    return stems;
}

void write_text(const fs::path &p, const std::string &text) {
    write_output_file(p.string(), text);
}

// results.csv and results.json: the same rows.
// Each case's every-n answer, for results.json.
nlohmann::json every_n_json(const std::vector<ReportCase> &cases) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto &c : cases) {
        const ReportEveryN &e = c.every_n;
        out.push_back({{"case", c.id},
                       {"computed", e.computed},
                       {"bounded", e.computed ? nlohmann::json(e.bounded) : nlohmann::json()},
                       {"beta_lo", e.lo.empty() ? nlohmann::json() : nlohmann::json(e.lo)},
                       {"beta_hi", e.hi.empty() ? nlohmann::json() : nlohmann::json(e.hi)},
                       {"growth", e.growth.empty() ? nlohmann::json() : nlohmann::json(e.growth)},
                       {"note", e.note}});
    }
    return out;
}

void write_results(const fs::path &dir, const std::vector<ReportCase> &cases,
                   const std::vector<ReportRow> &rows, const ReportOptions &o,
                   const std::vector<std::string> &skipped, std::vector<std::string> &written) {
    std::string csv;
    const auto &columns = report_columns();
    for (std::size_t k = 0; k < columns.size(); ++k)
        csv += (k ? "," : "") + columns[k];
    csv += "\n";
    nlohmann::json json_rows = nlohmann::json::array();
    for (const auto &r : rows) {
        auto f = report_fields(r);
        for (std::size_t k = 0; k < f.size(); ++k)
            csv += (k ? "," : "") + csv_field(f[k]);
        json_rows.push_back(to_json(r)); // the rows of `report --json` too
        csv += "\n";
    }
    write_text(dir / "results.csv", csv);
    written.push_back((dir / "results.csv").string());
    nlohmann::json doc = {{"format", "tempcert-report/1"},
                          {"tool", std::string("tempcert ") + TEMPCERT_VERSION},
                          {"eps", to_string(o.eps)},
                          {"rel", to_string(o.rel)},
                          {"criterion", "tv"},
                          {"tight_words", o.tight_words},
                          {"pump_length", o.pump_length},
                          {"rows", json_rows},
                          {"every_n", every_n_json(cases)},
                          {"skipped", skipped}};
    write_json_file((dir / "results.json").string(), doc);
    written.push_back((dir / "results.json").string());
}

// rsvg-convert on PATH (Debian's librsvg2-bin), or "" when there is none.
std::string svg_converter() {
    const char *path = std::getenv("PATH");
    std::string dirs = path ? path : "";
    for (std::size_t at = 0; at <= dirs.size();) {
        std::size_t end = dirs.find(':', at);
        if (end == std::string::npos) end = dirs.size();
        const fs::path exe = fs::path(dirs.substr(at, end - at)) / "rsvg-convert";
        std::error_code ec;
        if (end > at && fs::is_regular_file(exe, ec) && ::access(exe.c_str(), X_OK) == 0)
            return exe.string();
        at = end + 1;
    }
    return "";
}

// Each SVG plot also as PDF (for a paper's \includegraphics) where
// rsvg-convert is installed; without it the SVGs stand alone. The program
// is run with an argument list, no shell, under the run's deadline.
void write_pdf_plots(std::vector<std::string> &written, const Limits &limits) {
    const std::string exe = svg_converter();
    if (exe.empty()) return;
    const std::vector<std::string> svgs(written.begin(), written.end());
    for (const auto &svg : svgs) {
        if (fs::path(svg).extension() != ".svg") continue;
        const std::string pdf = fs::path(svg).replace_extension(".pdf").string();
        ProgramRun r = run_program_captured({exe, "-f", "pdf", "-o", pdf, svg}, limits, 4096);
        if (!r.started || r.exit_code != 0)
            throw std::runtime_error("report: rsvg-convert could not convert " +
                                     fs::path(svg).filename().string() + ": " +
                                     printable(r.output.substr(0, 300)));
        written.push_back(pdf);
    }
}

// One plot per case, and the overview.
void write_plots(const fs::path &dir, const std::vector<ReportCase> &cases,
                 const std::vector<ReportRow> &rows, const ReportOptions &o,
                 const std::vector<std::string> &stems, std::vector<std::string> &written) {
    for (std::size_t ci = 0; ci < cases.size(); ++ci) {
        fs::path svg = dir / (stems[ci] + ".svg");
        write_text(svg, report::svg_plot(report::case_plot(cases[ci], rows, o.eps)));
        written.push_back(svg.string());
    }
    write_text(dir / "overview.svg", report::svg_plot(report::overview_plot(cases, rows, o.eps)));
    written.push_back((dir / "overview.svg").string());
}

// report.md's opening: what was computed, and how to read the columns
// ({file} in a column note links to proofs/file, `proofs` relative).
std::string markdown_head(const ReportOptions &o, const std::string &proofs) {
    std::string md = "# tempcert report: tight inverse temperatures\n\n";
    md += "Produced by `tempcert " + std::string(TEMPCERT_VERSION) +
          " report`. Tolerance eps = " + to_string(o.eps) +
          ", criterion tv (total variation between softmax and hard attention at every query, "
          "docs/semantics.md), every input of length 1..n.\n\n";
    md += "## How to read the tables\n\n| column | meaning |\n|---|---|\n";
    for (const auto &note : report::column_notes()) {
        std::string text = note.meaning;
        for (std::size_t at; (at = text.find('{')) != std::string::npos;) {
            std::size_t end = text.find('}', at);
            std::string file = text.substr(at + 1, end - at - 1);
            text.replace(at, end - at + 1, "[" + file + "](" + proofs + "/" + file + ")");
        }
        md += "| " + std::string(note.column) + " | " + text + " |\n";
    }
    md += "\nNumbers are decimal roundings of exact or interval results in the safe direction: "
          "upper ends up, lower ends down. Every number equals what `tempcert tight`, `gap` and "
          "`bound` print for the same case and n. The same rows are in `results.csv` and "
          "`results.json`; `report.html` has everything in one page.\n\n";
    return md + "![overview](overview.svg)\n\n";
}

std::string markdown_row(const ReportRow &r) {
    return "| " + std::to_string(r.n) + " | " + r.method + " | " +
           (r.words ? std::to_string(r.words) : std::string("-")) + " | " +
           (r.min_gap.empty() ? "-" : r.min_gap) + " | " + (r.beta_gap.empty() ? "-" : r.beta_gap) +
           " | " + report::bracket_text(r.profile_lo, r.profile_hi) + " | " +
           report::bracket_text(r.tight_lo, r.tight_hi) + " | " + (r.kind.empty() ? "-" : r.kind) +
           " | " + (r.witness.empty() ? "-" : md_text(r.witness) + " " + md_text(r.witness_place)) +
           " |\n";
}

// One case's section: its model, table, plot and notes.
std::string markdown_case(const ReportCase &c, const std::vector<ReportRow> &rows,
                          const std::string &stem) {
    std::string md = "## " + md_text(c.id) + "\n\n" +
                     (c.language.empty() ? "" : "Language: " + md_text(c.language) + ". ") +
                     "Model: " + md_text(c.model_path) + " (" +
                     std::to_string(c.model.layers.size()) + " layer" +
                     (c.model.layers.size() == 1 ? "" : "s") + ", alphabet of " +
                     std::to_string(c.model.alphabet.size()) + ").\n\n";
    md += "| n | method | words | min gap | beta_gap | profile | tight | kind | witness |\n"
          "|---|---|---|---|---|---|---|---|---|\n";
    for (const auto &r : rows)
        if (r.case_id == c.id) md += markdown_row(r);
    md += "\nEvery n: " + md_text(every_n_text(c.every_n)) +
          (c.every_n.note.empty() ? "" : " (" + md_text(c.every_n.note) + ")") + ".\n";
    md += "\n![" + md_text(c.id) + "](" + stem + ".svg)\n\n";
    const std::vector<std::string> notes = report::case_notes(c, rows);
    for (const auto &note : notes)
        md += "- " + md_text(note) + "\n";
    if (!notes.empty()) md += "\n";
    return md;
}

std::string report_markdown(const std::vector<ReportCase> &cases,
                            const std::vector<ReportRow> &rows, const ReportOptions &o,
                            const std::vector<std::string> &skipped,
                            const std::vector<std::string> &stems, const std::string &proofs) {
    std::string md = markdown_head(o, proofs);
    md += "## Every length\n\nThe supremum over every n of the tight beta (`tight --every-n`, "
          "proofs/every-n.md): a bracket whose upper end is certified for every length, or the "
          "growth law where no constant beta exists.\n\n| case | every n |\n|---|---|\n";
    for (const auto &c : cases)
        md += "| " + md_text(c.id) + " | " + md_text(every_n_text(c.every_n)) + " |\n";
    md += "\n";
    for (std::size_t ci = 0; ci < cases.size(); ++ci)
        md += markdown_case(cases[ci], rows, stems[ci]);
    if (!skipped.empty()) {
        md += "## Not computed\n\n";
        for (const auto &s : skipped)
            md += "- " + md_text(s) + "\n";
        md += "\n";
    }
    return md;
}

} // namespace

std::vector<std::string> write_report(const std::string &dir_text,
                                      const std::vector<ReportCase> &cases,
                                      const std::vector<ReportRow> &rows, const ReportOptions &o,
                                      const std::vector<std::string> &skipped) {
    const fs::path final_dir = fs::absolute(dir_text);
    // proofs/, relative to where the report will stand
    std::error_code ec;
    fs::path proofs_dir = fs::path(TEMPCERT_SOURCE_DIR) / "proofs";
    std::string proofs = fs::relative(proofs_dir, final_dir, ec).string();
    if (ec || proofs.empty()) proofs = proofs_dir.string();
    std::vector<std::string> written;
    write_output_directory(
        dir_text, kReportFormat,
        [&](const std::string &tmp) {
            const fs::path dir = tmp;
            const std::vector<std::string> stems = plot_stems(cases);
            write_results(dir, cases, rows, o, skipped, written);
            write_plots(dir, cases, rows, o, stems, written);
            write_pdf_plots(written, o.limits);
            write_text(dir / "report.md", report_markdown(cases, rows, o, skipped, stems, proofs));
            write_text(dir / "report.html", report::report_html(cases, rows, o, skipped, proofs));
            write_text(dir / "report.tex", report::report_latex(cases, rows, o));
            written.push_back((dir / "report.tex").string());
            written.insert(written.begin(), (dir / "report.html").string());
            written.insert(written.begin(), (dir / "report.md").string());
        },
        &o.limits);
    // the files as they now stand in the final directory
    for (auto &w : written)
        w = (final_dir / fs::path(w).filename()).string();
    return written;
}

} // namespace tempcert
