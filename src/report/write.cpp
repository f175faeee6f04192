// Writing a report: Markdown that explains itself, CSV and JSON with the
// same rows, and SVG plots drawn by gnuplot (run without a shell).
#include "tempcert/certificate.hpp"
#include "tempcert/error.hpp"
#include "tempcert/output.hpp"
#include "tempcert/run_program.hpp"
#include "tempcert/report.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <filesystem>
#include <set>
#include <string_view>

namespace tempcert {

namespace {

namespace fs = std::filesystem;

const char *kColumns[] = {"case",     "n",          "method",        "words",    "min_gap",
                          "beta_gap", "profile_lo", "profile_hi",    "tight_lo", "tight_hi",
                          "kind",     "witness",    "witness_place", "note"};

std::vector<std::string> fields(const ReportRow &r) {
    return {r.case_id,       r.n ? std::to_string(r.n) : "",
            r.method,        std::to_string(r.words),
            r.min_gap,       r.beta_gap,
            r.profile_lo,    r.profile_hi,
            r.tight_lo,      r.tight_hi,
            r.kind,          r.witness,
            r.witness_place, r.note};
}

// A CSV field: quoted when it holds a comma, quote or line break; a text
// that a spreadsheet would run as a formula (= + - @ tab CR first) and that
// is not a number gets a leading apostrophe (issue 13, item 1).
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
std::string md_text(const std::string &s) {
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

// A string for a gnuplot script's single-quoted text: only characters that
// gnuplot reads literally there; anything else (quotes, backslashes, line
// breaks, @ and ` which gnuplot expands) becomes '?'. Titles only: no input
// string reaches a file name in a script (file names are fixed, below).
std::string gnuplot_text(const std::string &s) {
    std::string out;
    for (char c : s)
        out += (std::isalnum(static_cast<unsigned char>(c)) ||
                std::string_view(" _.,:;=()+-/*<>[]{}#%!?").find(c) != std::string_view::npos)
                   ? c
                   : '?';
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

// A plotted value, or "?" (gnuplot's missing marker) for none or zero.
std::string plot_value(const std::string &v) {
    if (v.empty() || v == "0" || v == "inf") return "?";
    return v;
}

// gnuplot runs in the report's directory on a script that names only the
// fixed files plot-K.* (K the case's index), never an input string.
bool run_gnuplot(const fs::path &dir, const std::string &script) {
    return run_program({"gnuplot", script}, "", dir.string()) == 0;
}

struct Series {
    int column; // in the data file
    std::string title;
};

// One plot: the columns of `data` that have a value somewhere, one curve each.
// `svg` and `data` are file names chosen here; titles pass gnuplot_text.
std::string plot_script(const std::string &svg, const std::string &data, const std::string &title,
                        const std::vector<Series> &series, bool log_y) {
    std::string s = "set terminal svg size 760,460 dynamic font 'sans,12' background '#ffffff'\n"
                    "set output '" +
                    svg +
                    "'\n"
                    "set datafile missing '?'\n"
                    "set title '" +
                    gnuplot_text(title) +
                    "' noenhanced\n"
                    "set xlabel 'n (longest input)'\n"
                    "set ylabel 'inverse temperature beta'\n"
                    "set key top left noenhanced\n"
                    "set grid\n";
    if (log_y) s += "set logscale y\n";
    s += "plot ";
    for (std::size_t k = 0; k < series.size(); ++k)
        s += (k ? ", \\\n     '" : "'") + data + "' using 1:" + std::to_string(series[k].column) +
             " with linespoints title '" + gnuplot_text(series[k].title) + "'";
    return s + "\n";
}

} // namespace

std::vector<std::string> write_report(const std::string &dir_text,
                                      const std::vector<ReportCase> &cases,
                                      const std::vector<ReportRow> &rows, const ReportOptions &o,
                                      const std::vector<std::string> &skipped) {
    const fs::path final_dir = fs::absolute(dir_text);
    std::vector<std::string> written;
    std::error_code ec;
    write_output_directory(dir_text, "results.json", [&](const std::string &tmp) {
    const fs::path dir = tmp;
    const std::vector<std::string> stems = plot_stems(cases);

    // results.csv and results.json: the same rows
    std::string csv;
    for (std::size_t k = 0; k < std::size(kColumns); ++k)
        csv += (k ? "," : "") + std::string(kColumns[k]);
    csv += "\n";
    nlohmann::json json_rows = nlohmann::json::array();
    for (const auto &r : rows) {
        auto f = fields(r);
        nlohmann::json row;
        for (std::size_t k = 0; k < f.size(); ++k) {
            csv += (k ? "," : "") + csv_field(f[k]);
            row[kColumns[k]] = f[k];
        }
        row["n"] = r.n;
        row["words"] = r.words;
        json_rows.push_back(row);
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
                          {"rows", json_rows},
                          {"skipped", skipped}};
    write_json_file((dir / "results.json").string(), doc);
    written.push_back((dir / "results.json").string());

    // plots
    bool plotted = true;
    for (std::size_t ci = 0; ci < cases.size(); ++ci) {
        const ReportCase &c = cases[ci];
        std::string data;
        bool has[3] = {false, false, false};
        double lo = 0, hi = 0;
        for (const auto &r : rows) {
            if (r.case_id != c.id) continue;
            std::string v[3] = {plot_value(r.beta_gap), plot_value(r.profile_hi),
                                plot_value(r.tight_hi)};
            data += std::to_string(r.n);
            for (int k = 0; k < 3; ++k) {
                data += " " + v[k];
                if (v[k] == "?") continue;
                has[k] = true;
                double x = std::stod(v[k]);
                lo = lo == 0 ? x : std::min(lo, x);
                hi = std::max(hi, x);
            }
            data += "\n";
        }
        std::vector<Series> series;
        const char *titles[3] = {"Lemma GT beta_gap (sufficient)",
                                 "profile bound (hard scores, proofs/profile-bound.md)",
                                 "tight beta (certified upper end)"};
        for (int k = 0; k < 3; ++k)
            if (has[k]) series.push_back({k + 2, titles[k]});
        if (series.empty()) continue;
        const std::string &stem = stems[ci];
        write_text(dir / (stem + ".dat"),
                   "# n beta_gap profile_hi tight_hi ('?': not computed)\n" + data);
        write_text(dir / (stem + ".gp"),
                   plot_script(stem + ".svg", stem + ".dat",
                               c.id + ": inverse temperature against n, eps = " + to_string(o.eps),
                               series, lo > 0 && hi / lo > 20));
        fs::path svg = dir / (stem + ".svg");
        bool ok = run_gnuplot(dir, stem + ".gp");
        plotted = plotted && ok;
        if (ok) written.push_back(svg.string());
    }
    {
        // overview: beta_gap of every case against n
        std::string data;
        std::set<std::size_t> ns(o.ns.begin(), o.ns.end());
        std::vector<Series> series;
        for (std::size_t k = 0; k < cases.size(); ++k)
            series.push_back({static_cast<int>(k) + 2, cases[k].id});
        for (std::size_t n : ns) {
            data += std::to_string(n);
            for (const auto &c : cases) {
                std::string v = "?";
                for (const auto &r : rows)
                    if (r.case_id == c.id && r.n == n) v = plot_value(r.beta_gap);
                data += " " + v;
            }
            data += "\n";
        }
        fs::path svg = dir / "overview.svg";
        write_text(dir / "overview.dat", "# n, then Lemma GT beta_gap of each case in order\n" + data);
        write_text(dir / "overview.gp",
                   plot_script("overview.svg", "overview.dat",
                               "Lemma GT beta_gap of every case against n, eps = " + to_string(o.eps),
                               series, true));
        bool ok = run_gnuplot(dir, "overview.gp");
        plotted = plotted && ok;
        if (ok) written.push_back(svg.string());
    }

    // report.md
    fs::path proofs = fs::path(TEMPCERT_SOURCE_DIR) / "proofs";
    std::string rel = fs::relative(proofs, final_dir, ec).string();
    if (ec || rel.empty()) rel = proofs.string();
    auto link = [&](const std::string &file) { return "[" + file + "](" + rel + "/" + file + ")"; };
    std::string md = "# tempcert report: tight inverse temperatures\n\n";
    md += "Produced by `tempcert " + std::string(TEMPCERT_VERSION) +
          " report`. Tolerance eps = " + to_string(o.eps) +
          ", criterion tv (total variation between softmax and hard attention at every query, "
          "docs/semantics.md), every input of length 1..n.\n\n";
    md += "## How to read the tables\n\n"
          "| column | meaning |\n|---|---|\n"
          "| n | the longest input: every word of length 1..n over the case's alphabet |\n"
          "| method | `exhaustive`: every word was enumerated, and the tight bracket is "
          "computed; `symbolic`: first-layer gaps computed without enumeration "
          "(" +
          link("symbolic-gap.md") + "); `layerwise`: per-layer bounds for rounded models (" +
          link("layerwise.md") +
          ") |\n"
          "| min gap | the smallest gap between the top score and the next, over all heads, "
          "queries and words (docs/semantics.md); `inf` when no query has a runner-up |\n"
          "| beta_gap | Lemma GT: ln((N-1)(1-eps)/eps)/gamma, rounded up; certified "
          "sufficient for every word (" +
          link("lemma-gt.md") +
          "); `0` when any beta works |\n"
          "| profile | the per-query threshold of the hard score profiles, maximised over "
          "queries (" +
          link("profile-bound.md") +
          "): what softmax needs if the hard scores were its only error source |\n"
          "| tight | the least beta at which every word meets eps: certified at the upper "
          "end, refuted by the witness word at the lower end (" +
          link("tight-bracket.md") +
          "); `threshold` when the criterion is monotone in beta, else `bracket` |\n"
          "| witness | exhaustive rows: the word refuting the tight bracket's lower end, and "
          "where; other rows: the word attaining the minimum gap |\n\n"
          "Numbers are decimal roundings of exact or interval results in the safe direction: "
          "upper ends up, lower ends down. Every number equals what `tempcert tight`, `gap` and "
          "`bound` print for the same case and n. The same rows are in `results.csv` and "
          "`results.json`.\n\n";
    if (!plotted)
        md += "**Plots are missing**: gnuplot could not be run (install gnuplot-nox).\n\n";
    md += "![overview](overview.svg)\n\n";
    for (std::size_t ci = 0; ci < cases.size(); ++ci) {
        const ReportCase &c = cases[ci];
        md += "## " + md_text(c.id) + "\n\n" +
              (c.language.empty() ? "" : "Language: " + md_text(c.language) + ". ") +
              "Model: " + md_text(c.model_path) + " (" + std::to_string(c.model.layers.size()) + " layer" +
              (c.model.layers.size() == 1 ? "" : "s") + ", alphabet of " +
              std::to_string(c.model.alphabet.size()) + ").\n\n";
        md += "| n | method | words | min gap | beta_gap | profile | tight | kind | witness |\n"
              "|---|---|---|---|---|---|---|---|---|\n";
        for (const auto &r : rows) {
            if (r.case_id != c.id) continue;
            auto bracket = [](const std::string &a, const std::string &b) {
                return a.empty() ? std::string("-") : "[" + a + ", " + b + "]";
            };
            md += "| " + std::to_string(r.n) + " | " + r.method + " | " +
                  (r.words ? std::to_string(r.words) : std::string("-")) + " | " +
                  (r.min_gap.empty() ? "-" : r.min_gap) + " | " + r.beta_gap + " | " +
                  bracket(r.profile_lo, r.profile_hi) + " | " + bracket(r.tight_lo, r.tight_hi) +
                  " | " + (r.kind.empty() ? "-" : r.kind) + " | " +
                  (r.witness.empty() ? "-" : md_text(r.witness) + " " + md_text(r.witness_place)) +
                  " |\n";
        }
        md += "\n![" + md_text(c.id) + "](" + stems[ci] + ".svg)\n\n";
        std::set<std::string> notes;
        for (const auto &r : rows)
            if (r.case_id == c.id && !r.note.empty()) notes.insert(r.note);
        for (const auto &note : notes)
            md += "- " + md_text(note) + "\n";
        if (!notes.empty()) md += "\n";
    }
    if (!skipped.empty()) {
        md += "## Not computed\n\n";
        for (const auto &s : skipped)
            md += "- " + md_text(s) + "\n";
        md += "\n";
    }
    write_text(dir / "report.md", md);
    written.insert(written.begin(), (dir / "report.md").string());
    });
    // the files as they now stand in the final directory
    for (auto &w : written)
        w = (final_dir / fs::path(w).filename()).string();
    return written;
}

} // namespace tempcert
