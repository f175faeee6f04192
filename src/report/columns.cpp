// Text report.md and report.html share: what each column means, the notes
// of a case, brackets.
#include "report_parts.hpp"

#include <set>

namespace tempcert::report {

const std::vector<ColumnNote> &column_notes() {
    static const std::vector<ColumnNote> notes = {
        {"n", "the longest input: every word of length 1..n over the case's alphabet"},
        {"method",
         "`exhaustive`: every word enumerated, tight bracket by bisection; `symbolic`: heads in "
         "layer 1, tight bracket from the score profiles without enumeration ({symbolic-gap.md}, "
         "{profile-bound.md}); `layerwise`: more than one layer, beyond enumeration: the upper end "
         "from per-layer bounds (exact rounding, {layerwise.md}, else the perturbation argument, "
         "{perturbation.md}), the lower end refuted by a word ({tight-bracket.md})"},
        {"min gap", "the smallest gap between the top score and the next, over all heads, queries "
                    "and words; `inf` when no query has a runner-up"},
        {"beta_gap", "Lemma GT: ln((N-1)(1-eps)/eps)/gamma, rounded up; certified sufficient for "
                     "every word ({lemma-gt.md}); `0` when any beta works"},
        {"profile", "the per-query threshold of the hard score profiles, maximised over queries "
                    "({profile-bound.md}): what softmax needs if the hard scores were its only "
                    "error source"},
        {"tight", "the least beta at which every word meets eps: certified at the upper end, "
                  "refuted by the witness word at the lower end ({tight-bracket.md}); "
                  "`threshold` when the criterion is monotone in beta, else `bracket`"},
        {"witness", "the word refuting the tight bracket's lower end, and where; rows without a "
                    "tight bracket: the word attaining the minimum gap"},
    };
    return notes;
}

std::vector<std::string> case_notes(const ReportCase &c, const std::vector<ReportRow> &rows) {
    std::set<std::string> notes;
    for (const auto &r : rows)
        if (r.case_id == c.id && !r.note.empty()) notes.insert(r.note);
    return {notes.begin(), notes.end()};
}

std::string bracket_text(const std::string &lo, const std::string &hi) {
    return lo.empty() ? std::string("-") : "[" + lo + ", " + hi + "]";
}

} // namespace tempcert::report
