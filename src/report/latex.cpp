// report.tex: the table of tight temperatures as a LaTeX booktabs table a
// paper can \input (it needs \usepackage{booktabs}). The numbers are the
// rows' own decimal strings, rounded in the safe direction as in report.md
// (upper ends up, lower ends down); only their typesetting changes. Every
// text from an input (case ids, methods) is escaped for LaTeX.
#include "report_parts.hpp"

namespace tempcert::report {

std::string latex_escape(const std::string &raw) {
    std::string out;
    for (unsigned char c : raw) {
        switch (c) {
        case '\\':
            out += "\\textbackslash{}";
            break;
        case '&':
        case '%':
        case '$':
        case '#':
        case '_':
        case '{':
        case '}':
            out += '\\';
            out += static_cast<char>(c);
            break;
        case '~':
            out += "\\textasciitilde{}";
            break;
        case '^':
            out += "\\textasciicircum{}";
            break;
        default: // controls become spaces: nothing raw reaches the typesetter
            out += c < 0x20 || c == 0x7f ? ' ' : static_cast<char>(c);
        }
    }
    return out;
}

namespace {

// A number cell: "--" when not computed, else in math mode ("inf" as \infty).
std::string number(const std::string &text) {
    if (text.empty()) return "--";
    if (text == "inf") return "$\\infty$";
    return "$" + latex_escape(text) + "$";
}

std::string bracket(const std::string &lo, const std::string &hi) {
    if (lo.empty() && hi.empty()) return "--";
    return "$[" + latex_escape(lo) + ", " + latex_escape(hi) + "]$";
}

} // namespace

std::string report_latex(const std::vector<ReportCase> &cases, const std::vector<ReportRow> &rows,
                         const ReportOptions &o) {
    std::string t = "% tempcert " + std::string(TEMPCERT_VERSION) +
                    " report: tight inverse temperatures (needs \\usepackage{booktabs}).\n"
                    "% Decimal roundings in the safe direction: upper ends up, lower ends "
                    "down;\n% exact values in results.json.\n";
    t += "\\begin{tabular}{llrllll}\n\\toprule\n"
         "case & method & $n$ & min gap & $\\beta_{\\mathrm{gap}}$ & tight $\\beta$ & kind \\\\\n"
         "\\midrule\n";
    bool first_case = true;
    for (const auto &c : cases) {
        bool first_row = true;
        for (const auto &r : rows) {
            if (r.case_id != c.id) continue;
            if (first_row && !first_case) t += "\\midrule\n";
            t += (first_row ? "\\texttt{" + latex_escape(c.id) + "}" : std::string()) + " & " +
                 latex_escape(r.method) + " & " + std::to_string(r.n) + " & " + number(r.min_gap) +
                 " & " + number(r.beta_gap) + " & " + bracket(r.tight_lo, r.tight_hi) + " & " +
                 (r.kind.empty() ? "--" : latex_escape(r.kind)) + " \\\\\n";
            first_row = false;
            first_case = false;
        }
    }
    t += "\\bottomrule\n\\end{tabular}\n";
    t += "\n% The supremum over every n (tight --every-n, proofs/every-n.md).\n"
         "\\begin{tabular}{ll}\n\\toprule\ncase & every $n$ \\\\\n\\midrule\n";
    for (const auto &c : cases)
        t += "\\texttt{" + latex_escape(c.id) + "} & " +
             (c.every_n.computed && c.every_n.bounded
                  ? bracket(c.every_n.lo, c.every_n.hi)
                  : (c.every_n.computed ? latex_escape(c.every_n.growth) : std::string("--"))) +
             " \\\\\n";
    t += "\\bottomrule\n\\end{tabular}\n";
    t += "% eps = " + to_string(o.eps) +
         ", criterion tv, every input of length 1..n; brackets "
         "narrowed to rel " +
         to_string(o.rel) + ".\n";
    return t;
}

} // namespace tempcert::report
