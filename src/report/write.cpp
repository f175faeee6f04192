// Writing a report: Markdown that explains itself, CSV and JSON with the
// same rows, and SVG plots drawn by gnuplot (run without a shell).
#include "tempcert/certificate.hpp"
#include "tempcert/error.hpp"
#include "tempcert/report.hpp"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <set>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

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

std::string csv_field(const std::string &s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

void write_text(const fs::path &p, const std::string &text) {
    std::ofstream out(p);
    if (!out) throw InputError(p.string(), "", "cannot open the output file for writing");
    out << text;
    if (!out) throw InputError(p.string(), "", "cannot write the output file");
}

// A plotted value, or "?" (gnuplot's missing marker) for none or zero.
std::string plot_value(const std::string &v) {
    if (v.empty() || v == "0" || v == "inf") return "?";
    return v;
}

bool run_gnuplot(const fs::path &script) {
    std::string file = script.string();
    char *argv[] = {const_cast<char *>("gnuplot"), file.data(), nullptr};
    pid_t pid;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    int rc = posix_spawnp(&pid, "gnuplot", &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) return false;
    int status = 0;
    if (waitpid(pid, &status, 0) < 0) return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

struct Series {
    int column; // in the data file
    std::string title;
};

// One plot: the columns of `data` that have a value somewhere, one curve each.
std::string plot_script(const fs::path &svg, const fs::path &data, const std::string &title,
                        const std::vector<Series> &series, bool log_y) {
    std::string s = "set terminal svg size 760,460 dynamic font 'sans,12' background '#ffffff'\n"
                    "set output '" +
                    svg.string() +
                    "'\n"
                    "set datafile missing '?'\n"
                    "set title '" +
                    title +
                    "' noenhanced\n"
                    "set xlabel 'n (longest input)'\n"
                    "set ylabel 'inverse temperature beta'\n"
                    "set key top left noenhanced\n"
                    "set grid\n";
    if (log_y) s += "set logscale y\n";
    s += "plot ";
    for (std::size_t k = 0; k < series.size(); ++k)
        s += (k ? ", \\\n     '" : "'") + data.string() +
             "' using 1:" + std::to_string(series[k].column) + " with linespoints title '" +
             series[k].title + "'";
    return s + "\n";
}

void check_plain_path(const fs::path &p) {
    for (char c : p.string())
        if (c == '\'' || c == '\n' || c == '\\')
            throw InputError(p.string(), "",
                             "the report directory's path may not contain "
                             "quotes, backslashes or newlines (gnuplot scripts)");
}

} // namespace

std::vector<std::string> write_report(const std::string &dir_text,
                                      const std::vector<ReportCase> &cases,
                                      const std::vector<ReportRow> &rows, const ReportOptions &o,
                                      const std::vector<std::string> &skipped) {
    fs::path dir = fs::absolute(dir_text);
    check_plain_path(dir);
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw InputError(dir_text, "", "cannot create the report directory: " + ec.message());
    std::vector<std::string> written;

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
    for (const auto &c : cases) {
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
                                 "profile bound (hard scores, SPEC 4.2)",
                                 "tight beta (certified upper end)"};
        for (int k = 0; k < 3; ++k)
            if (has[k]) series.push_back({k + 2, titles[k]});
        if (series.empty()) continue;
        fs::path dat = dir / ("data-" + c.id + ".dat"), gp = dir / ("plot-" + c.id + ".gp"),
                 svg = dir / ("plot-" + c.id + ".svg");
        write_text(dat, "# n beta_gap profile_hi tight_hi ('?': not computed)\n" + data);
        write_text(gp,
                   plot_script(svg, dat,
                               c.id + ": inverse temperature against n, eps = " + to_string(o.eps),
                               series, lo > 0 && hi / lo > 20));
        bool ok = run_gnuplot(gp);
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
        fs::path dat = dir / "data-overview.dat", gp = dir / "overview.gp",
                 svg = dir / "overview.svg";
        write_text(dat, "# n, then Lemma GT beta_gap of each case in order\n" + data);
        write_text(
            gp, plot_script(svg, dat,
                            "Lemma GT beta_gap of every case against n, eps = " + to_string(o.eps),
                            series, true));
        bool ok = run_gnuplot(gp);
        plotted = plotted && ok;
        if (ok) written.push_back(svg.string());
    }

    // report.md
    fs::path proofs = fs::path(TEMPCERT_SOURCE_DIR) / "proofs";
    std::string rel = fs::relative(proofs, dir, ec).string();
    if (ec || rel.empty()) rel = proofs.string();
    auto link = [&](const std::string &file) { return "[" + file + "](" + rel + "/" + file + ")"; };
    std::string md = "# tempcert report: tight inverse temperatures\n\n";
    md += "Produced by `tempcert " + std::string(TEMPCERT_VERSION) +
          " report`. Tolerance eps = " + to_string(o.eps) +
          ", criterion tv (total variation between softmax and hard attention at every query, "
          "SPEC 5.3), every input of length 1..n.\n\n";
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
          "queries and words (SPEC 3); `inf` when no query has a runner-up |\n"
          "| beta_gap | Lemma GT: ln((N-1)(1-eps)/eps)/gamma, rounded up; certified "
          "sufficient for every word (" +
          link("lemma-gt.md") +
          "); `0` when any beta works |\n"
          "| profile | the per-query threshold of the hard score profiles, maximised over "
          "queries (SPEC 4.2, " +
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
    for (const auto &c : cases) {
        md += "## " + c.id + "\n\n" + (c.language.empty() ? "" : "Language: " + c.language + ". ") +
              "Model: `" + c.model_path + "` (" + std::to_string(c.model.layers.size()) + " layer" +
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
                  (r.witness.empty() ? "-" : "`" + r.witness + "` " + r.witness_place) + " |\n";
        }
        md += "\n![" + c.id + "](plot-" + c.id + ".svg)\n\n";
        std::set<std::string> notes;
        for (const auto &r : rows)
            if (r.case_id == c.id && !r.note.empty()) notes.insert(r.note);
        for (const auto &note : notes)
            md += "- " + note + "\n";
        if (!notes.empty()) md += "\n";
    }
    if (!skipped.empty()) {
        md += "## Not computed\n\n";
        for (const auto &s : skipped)
            md += "- " + s + "\n";
        md += "\n";
    }
    write_text(dir / "report.md", md);
    written.insert(written.begin(), (dir / "report.md").string());
    return written;
}

} // namespace tempcert
