// A report's rows and the report command's answer rendered
// (include/engine/tempcert/outcome.hpp).
#include "tempcert/outcome.hpp"

#include <sstream>

namespace tempcert {

const std::vector<std::string> &report_columns() {
    static const std::vector<std::string> columns = {
        "case",       "n",        "method",   "words", "min_gap", "beta_gap",      "profile_lo",
        "profile_hi", "tight_lo", "tight_hi", "kind",  "witness", "witness_place", "note"};
    return columns;
}

std::vector<std::string> report_fields(const ReportRow &r) {
    return {r.case_id,       r.n ? std::to_string(r.n) : "",
            r.method,        std::to_string(r.words),
            r.min_gap,       r.beta_gap,
            r.profile_lo,    r.profile_hi,
            r.tight_lo,      r.tight_hi,
            r.kind,          r.witness,
            r.witness_place, r.note};
}

nlohmann::json to_json(const ReportRow &r) {
    const auto &columns = report_columns();
    const auto f = report_fields(r);
    nlohmann::json row;
    for (std::size_t k = 0; k < f.size(); ++k)
        row[columns[k]] = f[k];
    row["n"] = r.n;
    row["words"] = r.words;
    return row;
}

nlohmann::ordered_json to_json(const ReportOutcome &r) {
    nlohmann::ordered_json results = nlohmann::ordered_json::array();
    for (const auto &row : r.rows)
        results.push_back(nlohmann::ordered_json(to_json(row))); // keys stay sorted
    return {
        {"files", r.files}, {"rows", r.rows.size()}, {"results", results}, {"skipped", r.skipped}};
}

std::string to_text(const ReportOutcome &r) {
    std::ostringstream out;
    out << "report: " << r.rows.size() << " rows over " << r.cases << " case"
        << (r.cases == 1 ? "" : "s") << "\n";
    for (const auto &f : r.files)
        out << "  " << f << "\n";
    return out.str();
}

} // namespace tempcert
