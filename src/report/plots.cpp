// The report's plots from its rows (report_parts.hpp). Values are the
// rows' decimal strings read as doubles: plots display, the tables hold the
// safely rounded numbers.
#include "report_parts.hpp"

#include <algorithm>
#include <cstdlib>

namespace tempcert::report {

namespace {

// A plotted value: none for "", "0" (any beta works) and "inf".
bool value(const std::string &text, double &v) {
    if (text.empty() || text == "0" || text == "inf") return false;
    char *end = nullptr;
    v = std::strtod(text.c_str(), &end);
    return end && *end == '\0';
}

// No query has a gap at this length: every allowed set's scores tie, so
// softmax gives the hard weights at every beta (the tight beta is 0, and
// the bracket's upper end is only where the bisection stopped).
bool any_beta_works(const ReportRow &r) {
    return r.min_gap == "inf";
}

constexpr const char *kAnyBetaLabel = "any beta works: no query has a gap (marked on the n axis)";

bool needs_log_x(const std::vector<ReportRow> &rows) {
    std::size_t lo = 0, hi = 0;
    for (const auto &r : rows) {
        lo = lo == 0 ? r.n : std::min(lo, r.n);
        hi = std::max(hi, r.n);
    }
    return lo > 0 && hi >= 16 * lo;
}

std::string eps_text(const Rational &eps) {
    return "eps = " + to_string(eps);
}

} // namespace

Plot case_plot(const ReportCase &c, const std::vector<ReportRow> &rows, const Rational &eps) {
    Plot p;
    p.title = c.id + ": inverse temperature against n, " + eps_text(eps);
    p.x_label = "n (longest input)";
    p.y_label = "inverse temperature beta";
    PlotSeries gap{"Lemma GT beta_gap (sufficient)", {}, false, true, 1};
    PlotSeries profile{"profile bound (proofs/profile-bound.md)", {}, false, false, 2};
    PlotSeries tight{"tight beta: certified above, refuted below", {}, true, false, 0};
    PlotSeries any{kAnyBetaLabel, {}, false, false, 3};
    any.any_beta = true;
    std::vector<ReportRow> mine;
    for (const auto &r : rows) {
        if (r.case_id != c.id) continue;
        mine.push_back(r);
        double x = static_cast<double>(r.n), lo, hi;
        if (any_beta_works(r)) {
            any.points.push_back({x, 0, 0});
            continue;
        }
        if (value(r.beta_gap, hi)) gap.points.push_back({x, hi, hi});
        if (value(r.profile_hi, hi)) profile.points.push_back({x, hi, hi});
        if (value(r.tight_lo, lo) && value(r.tight_hi, hi)) tight.points.push_back({x, lo, hi});
    }
    // the supremum over every n, where it exists, across the plotted lengths
    PlotSeries sup{"sup over every n (proofs/every-n.md)", {}, false, true, 4};
    double s_hi;
    if (c.every_n.computed && c.every_n.bounded && value(c.every_n.hi, s_hi) && !mine.empty()) {
        sup.points.push_back({static_cast<double>(mine.front().n), s_hi, s_hi});
        sup.points.push_back({static_cast<double>(mine.back().n), s_hi, s_hi});
    }
    // the tight band last, drawn over the profile line it would hide under
    for (auto *s : {&gap, &profile, &sup, &tight, &any})
        if (!s->points.empty()) p.series.push_back(*s);
    p.log_x = needs_log_x(mine);
    return p;
}

Plot overview_plot(const std::vector<ReportCase> &cases, const std::vector<ReportRow> &rows,
                   const Rational &eps) {
    Plot p;
    p.title = "every case: tight beta (solid) and Lemma GT beta_gap (dashed), " + eps_text(eps);
    p.x_label = "n (longest input)";
    p.y_label = "inverse temperature beta";
    PlotSeries any{kAnyBetaLabel, {}, false, false, static_cast<int>(cases.size())};
    any.any_beta = true;
    for (std::size_t k = 0; k < cases.size(); ++k) {
        PlotSeries tight{cases[k].id + ": tight", {}, false, false, static_cast<int>(k)};
        PlotSeries gap{cases[k].id + ": beta_gap", {}, false, true, static_cast<int>(k)};
        tight.marker = gap.marker = static_cast<int>(k); // a shape per case, as a colour
        tight.end_label = cases[k].id;
        for (const auto &r : rows) {
            if (r.case_id != cases[k].id) continue;
            double x = static_cast<double>(r.n), v;
            if (any_beta_works(r)) {
                any.points.push_back({x, 0, 0}); // cases sharing an n share the marker
                continue;
            }
            if (value(r.tight_hi, v)) tight.points.push_back({x, v, v});
            if (value(r.beta_gap, v)) gap.points.push_back({x, v, v});
        }
        if (!tight.points.empty()) p.series.push_back(tight);
        if (!gap.points.empty()) p.series.push_back(gap);
    }
    if (!any.points.empty()) p.series.push_back(any);
    p.log_x = needs_log_x(rows);
    p.end_labels = true;
    // cases differ by orders of magnitude (bounded encodings grow like n)
    double lo = 0, hi = 0;
    for (const auto &s : p.series)
        for (const auto &pt : s.points) {
            if (s.any_beta) continue;
            lo = lo == 0 ? pt.hi : std::min(lo, pt.hi);
            hi = std::max(hi, pt.hi);
        }
    p.log_y = lo > 0 && hi > 20 * lo;
    return p;
}

} // namespace tempcert::report
