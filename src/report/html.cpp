// report.html: the whole report in one file a browser opens as it is: the
// tables, the column notes, and the plots as inline SVG. No script, no
// stylesheet or font from elsewhere; links go only to the proofs. Every text
// from an input (case ids, languages, paths, words, notes) is escaped.
#include "report_parts.hpp"
#include "tempcert/certificate.hpp"

namespace tempcert::report {

namespace {

const char *kStyle =
    // words never break inside a table cell: a table wider than the column
    // scrolls sideways (display:block) instead; prose may break a long path
    "body{font-family:sans-serif;max-width:72em;margin:2em auto;padding:0 1em;color:#222}"
    "p,li,h1,h2,h3{overflow-wrap:break-word}"
    "table{border-collapse:collapse;margin:1em 0;font-size:0.9em;display:block;max-width:100%;"
    "overflow-x:auto}"
    "th,td{border:1px solid #ccc;padding:0.25em 0.5em;text-align:left;vertical-align:top;"
    "overflow-wrap:normal;word-break:normal;hyphens:none}"
    "th{background:#f3f3f3;white-space:nowrap}td.num{font-family:monospace;white-space:nowrap}"
    ".nw{white-space:nowrap}"
    "svg{max-width:100%;height:auto;display:block;margin:1em 0}code{background:#f3f3f3}";

// Escaped text whose hyphenated words are kept whole: a browser may break
// a line after a hyphen ("per-/layer"), which no CSS property turns off
// short of nowrap, so each run of non-blank characters holding a hyphen is
// a nowrap span (class nw). Blanks stay break opportunities.
std::string unbroken(const std::string &text) {
    std::string out, word;
    auto flush = [&] {
        if (word.find('-') != std::string::npos)
            out += "<span class=\"nw\">" + xml_escape(word) + "</span>";
        else
            out += xml_escape(word);
        word.clear();
    };
    for (char c : text) {
        if (c == ' ' || c == '\n') {
            flush();
            out += c;
        } else {
            word += c;
        }
    }
    flush();
    return out;
}

// A column note for HTML: `code` spans and {file.md} proof links, its
// hyphenated words kept whole.
std::string note_html(const std::string &text, const std::string &proofs) {
    std::string out, plain;
    bool code = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c != '`' && c != '{') {
            plain += c;
            continue;
        }
        out += unbroken(plain);
        plain.clear();
        if (c == '`') {
            out += code ? "</code>" : "<code>";
            code = !code;
        } else {
            std::size_t end = text.find('}', i);
            std::string file = text.substr(i + 1, end - i - 1);
            out += "<a class=\"nw\" href=\"" + xml_escape(proofs + "/" + file) + "\">" +
                   xml_escape(file) + "</a>";
            i = end;
        }
    }
    return out + unbroken(plain);
}

// A list of texts from the rows (escaped); nothing for none.
std::string list_html(const char *cls, const std::vector<std::string> &items) {
    if (items.empty()) return "";
    std::string s = "<ul class=\"" + std::string(cls) + "\">\n";
    for (const auto &item : items)
        s += "<li>" + xml_escape(item) + "</li>\n";
    return s + "</ul>\n";
}

std::string cell(const std::string &text, bool number = false) {
    return std::string(number ? "<td class=\"num\">" : "<td>") +
           (text.empty() ? std::string("-") : unbroken(text)) + "</td>";
}

std::string case_table(const ReportCase &c, const std::vector<ReportRow> &rows) {
    std::string t = "<table class=\"rows\" data-case=\"" + xml_escape(c.id) +
                    "\">\n<tr><th>n</th><th>method</th><th>words</th><th>min gap</th>"
                    "<th>beta_gap</th><th>profile</th><th>tight</th><th>kind</th>"
                    "<th>witness</th></tr>\n";
    for (const auto &r : rows) {
        if (r.case_id != c.id) continue;
        t += "<tr>" + cell(std::to_string(r.n), true) + cell(r.method) +
             cell(r.words ? std::to_string(r.words) : "", true) + cell(r.min_gap, true) +
             cell(r.beta_gap, true) + cell(bracket_text(r.profile_lo, r.profile_hi), true) +
             cell(bracket_text(r.tight_lo, r.tight_hi), true) + cell(r.kind) +
             cell(r.witness.empty() ? "" : r.witness + " (" + r.witness_place + ")") + "</tr>\n";
    }
    return t + "</table>\n";
}

std::string case_section(const ReportCase &c, const std::vector<ReportRow> &rows,
                         const ReportOptions &o) {
    std::string s = "<section class=\"case\" id=\"case-" + xml_escape(c.id) + "\">\n<h2>" +
                    xml_escape(c.id) + "</h2>\n<p>";
    if (!c.language.empty()) s += "Language: " + xml_escape(c.language) + ". ";
    s += "Model: <code>" + xml_escape(c.model_path) + "</code> (" +
         std::to_string(c.model.layers.size()) + " layer" +
         (c.model.layers.size() == 1 ? "" : "s") + ", alphabet of " +
         std::to_string(c.model.alphabet.size()) + ").</p>\n";
    s += case_table(c, rows);
    s += "<p>Every n: " + xml_escape(every_n_text(c.every_n)) +
         (c.every_n.note.empty() ? "" : " (" + xml_escape(c.every_n.note) + ")") + ".</p>\n";
    s += svg_plot(case_plot(c, rows, o.eps));
    s += list_html("notes", case_notes(c, rows));
    return s + "</section>\n";
}

} // namespace

std::string report_html(const std::vector<ReportCase> &cases, const std::vector<ReportRow> &rows,
                        const ReportOptions &o, const std::vector<std::string> &skipped,
                        const std::string &proofs) {
    std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<title>tempcert report: tight inverse temperatures</title>\n<style>" +
                    std::string(kStyle) + "</style>\n</head>\n<body>\n";
    h += "<h1>tempcert report: tight inverse temperatures</h1>\n<p>Produced by <code>tempcert " +
         std::string(TEMPCERT_VERSION) +
         " report</code>. Tolerance eps = " + xml_escape(to_string(o.eps)) +
         ", criterion tv (total variation between softmax and hard attention at every query), "
         "every input of length 1..n; brackets narrowed to rel " +
         xml_escape(to_string(o.rel)) + ".</p>\n";
    h += "<h2>How to read the tables</h2>\n<table class=\"columns\">\n<tr><th>column</th>"
         "<th>meaning</th></tr>\n";
    for (const auto &n : column_notes())
        h += "<tr><td>" + xml_escape(n.column) + "</td><td>" + note_html(n.meaning, proofs) +
             "</td></tr>\n";
    h += "</table>\n<p>Numbers are decimal roundings of exact or interval results in the safe "
         "direction: upper ends up, lower ends down. The same rows are in results.csv and "
         "results.json.</p>\n";
    h += "<h2>Overview</h2>\n" + svg_plot(overview_plot(cases, rows, o.eps));
    for (const auto &c : cases)
        h += case_section(c, rows, o);
    if (!skipped.empty()) h += "<h2>Not computed</h2>\n" + list_html("skipped", skipped);
    return h + "</body>\n</html>\n";
}

} // namespace tempcert::report
