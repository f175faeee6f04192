// SVG plots for reports (see svg_plot.hpp). Coordinates are computed in
// doubles: plots display numbers whose exact values are in the tables.
#include "svg_plot.hpp"
#include "tempcert/printable.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tempcert::report {

namespace {

// 20 colours told apart at a glance (the first ten the usual plotting
// palette, then darker and lighter companions): an overview of up to 20
// cases gives each its own, and its own marker shape besides.
const char *kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                          "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22",
                          "#000075", "#800000", "#3cb44b", "#f032e6", "#9a6324",
                          "#469990", "#fabed4", "#808000", "#4363d8", "#ffd8b1"};
constexpr double kWidth = 760, kLeft = 70, kTop = 40, kPlotHeight = 300;
// the right margin, wider where the series are labelled at their line ends
constexpr double kRight = 20, kRightLabelled = 170;
constexpr double kLegendRow = 18;

const char *colour_of(const PlotSeries &s, std::size_t k) {
    std::size_t i = s.colour >= 0 ? static_cast<std::size_t>(s.colour) : k;
    return kColours[i % std::size(kColours)];
}

std::string num(double v);

// A point's marker, one shape per index: circle, square, triangle, diamond,
// then the four again turned or hollow.
std::string marker_svg(int shape, double x, double y, const char *colour,
                       const std::string &title) {
    const std::string t = title.empty() ? "" : "<title>" + title + "</title>";
    const int kind = shape < 0 ? 0 : shape % 8;
    const char *fill = kind >= 4 ? "#fff" : colour;
    const std::string paint =
        std::string("\" fill=\"") + fill + "\" stroke=\"" + colour + "\" stroke-width=\"1.2\">";
    switch (kind % 4) {
    case 1:
        return "<rect class=\"marker\" x=\"" + num(x - 2.8) + "\" y=\"" + num(y - 2.8) +
               "\" width=\"5.6\" height=\"5.6" + paint + t + "</rect>";
    case 2:
        return "<polygon class=\"marker\" points=\"" + num(x) + "," + num(y - 3.6) + " " +
               num(x - 3.2) + "," + num(y + 2.4) + " " + num(x + 3.2) + "," + num(y + 2.4) + paint +
               t + "</polygon>";
    case 3:
        return "<polygon class=\"marker\" points=\"" + num(x) + "," + num(y - 3.6) + " " +
               num(x + 3.2) + "," + num(y) + " " + num(x) + "," + num(y + 3.6) + " " +
               num(x - 3.2) + "," + num(y) + paint + t + "</polygon>";
    default:
        return "<circle class=\"marker\" cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"2.8" +
               paint + t + "</circle>";
    }
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

std::string tick_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

struct Range {
    double lo = 0, hi = 0;
};

// A linear axis range padded to "nice" ticks, with the tick step.
Range nice_range(double lo, double hi, double &step) {
    if (!(hi > lo)) {
        double pad = std::max(std::abs(lo) * 0.1, 1e-9);
        lo -= pad;
        hi += pad;
    }
    double raw = (hi - lo) / 5, mag = std::pow(10, std::floor(std::log10(raw)));
    double norm = raw / mag;
    step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
    return {std::floor(lo / step) * step, std::ceil(hi / step) * step};
}

class Frame {
  public:
    Frame(const Plot &p) : plot_(p) {
        bool any = false, any_x = false;
        for (const auto &s : p.series)
            for (const auto &pt : s.points) {
                if (!std::isfinite(pt.x)) continue;
                if (s.any_beta) { // on the x axis: the x range only
                    xmin_ = any_x ? std::min(xmin_, pt.x) : pt.x;
                    xmax_ = any_x ? std::max(xmax_, pt.x) : pt.x;
                    any_x = true;
                    continue;
                }
                if (!std::isfinite(pt.hi)) continue;
                double lo = s.band ? pt.lo : pt.hi;
                xmin_ = any_x ? std::min(xmin_, pt.x) : pt.x;
                xmax_ = any_x ? std::max(xmax_, pt.x) : pt.x;
                ymin_ = any ? std::min(ymin_, lo) : lo;
                ymax_ = any ? std::max(ymax_, pt.hi) : pt.hi;
                any = any_x = true;
            }
        if (any_x && !any) ymin_ = 0, ymax_ = 1; // only "any beta works" to show
        any = any_x;
        empty_ = !any;
        log_x_ = p.log_x && any && xmin_ > 0;
        if (log_x_) {
            xmin_ = std::log2(xmin_);
            xmax_ = std::log2(xmax_);
        }
        if (!(xmax_ > xmin_)) xmax_ = xmin_ + 1;
        log_y_ = p.log_y && any && ymin_ > 0;
        if (log_y_) {
            y_ = {std::floor(std::log10(ymin_)), std::ceil(std::log10(ymax_))};
            if (!(y_.hi > y_.lo)) y_.hi = y_.lo + 1;
        } else {
            y_ = nice_range(ymin_, ymax_, ystep_);
        }
    }
    bool empty() const { return empty_; }
    double px(double x) const {
        double v = log_x_ ? std::log2(x) : x;
        return kLeft + (v - xmin_) / (xmax_ - xmin_) * (kWidth - kLeft - right_margin());
    }
    double py(double y) const {
        double v = log_y_ ? std::log10(y) : y;
        return kTop + kPlotHeight - (v - y_.lo) / (y_.hi - y_.lo) * kPlotHeight;
    }
    // y ticks: at most kMaxTicks
    std::vector<double> y_ticks() const {
        std::vector<double> t;
        if (!log_y_) {
            for (double y = y_.lo; y <= y_.hi + ystep_ / 2; y += ystep_)
                t.push_back(y);
            return t;
        }
        // 1, 2 and 5 in each decade while that gives at most kMaxTicks
        // labels; else powers of ten, every k-th decade when there are many
        const double decades = y_.hi - y_.lo + 1;
        if (3 * decades <= static_cast<double>(kMaxTicks)) {
            for (double e = y_.lo; e <= y_.hi; e += 1)
                for (double m : {1.0, 2.0, 5.0}) {
                    double v = m * std::pow(10, e);
                    if (std::log10(v) <= y_.hi + 1e-9) t.push_back(v);
                }
            return t;
        }
        const double every = std::ceil(decades / static_cast<double>(kMaxTicks));
        for (double e = y_.lo; e <= y_.hi + 1e-9; e += every)
            t.push_back(std::pow(10, e));
        return t;
    }
    std::string axes() const;
    double right_margin() const { return plot_.end_labels ? kRightLabelled : kRight; }

  private:
    const Plot &plot_;
    double xmin_ = 0, xmax_ = 0, ymin_ = 0, ymax_ = 0, ystep_ = 1;
    Range y_;
    bool log_x_ = false, log_y_ = false, empty_ = true;
};

std::string Frame::axes() const {
    const double bottom = kTop + kPlotHeight, right = kWidth - right_margin();
    std::string s = "<rect x=\"" + num(kLeft) + "\" y=\"" + num(kTop) + "\" width=\"" +
                    num(right - kLeft) + "\" height=\"" + num(kPlotHeight) +
                    "\" fill=\"none\" stroke=\"#444\"/>\n";
    for (double y : y_ticks()) {
        s += "<line x1=\"" + num(kLeft) + "\" x2=\"" + num(right) + "\" y1=\"" + num(py(y)) +
             "\" y2=\"" + num(py(y)) + "\" stroke=\"#ddd\"/>";
        s += "<text x=\"" + num(kLeft - 6) + "\" y=\"" + num(py(y) + 4) +
             "\" text-anchor=\"end\">" + tick_text(y) + "</text>\n";
    }
    // x ticks: powers of two on a log axis, about eight steps otherwise
    std::vector<double> ticks;
    if (log_x_) { // every k-th power of two, at most kMaxTicks of them
        const double first = std::ceil(xmin_), count = std::floor(xmax_ + 1e-9) - first + 1;
        const double every = std::max(1.0, std::ceil(count / static_cast<double>(kMaxTicks)));
        for (double e = first; e <= xmax_ + 1e-9; e += every)
            ticks.push_back(std::exp2(e));
    } else {
        double step;
        Range r = nice_range(xmin_, xmax_, step);
        for (double x = r.lo; x <= r.hi + step / 2; x += step)
            if (x >= xmin_ - 1e-9 && x <= xmax_ + 1e-9) ticks.push_back(x);
    }
    for (double x : ticks) {
        s += "<line x1=\"" + num(px(x)) + "\" x2=\"" + num(px(x)) + "\" y1=\"" + num(kTop) +
             "\" y2=\"" + num(bottom) + "\" stroke=\"#eee\"/>";
        s += "<text x=\"" + num(px(x)) + "\" y=\"" + num(bottom + 16) +
             "\" text-anchor=\"middle\">" + tick_text(x) + "</text>\n";
    }
    s += "<text x=\"" + num((kLeft + right) / 2) + "\" y=\"" + num(bottom + 34) +
         "\" text-anchor=\"middle\">" + xml_escape(plot_.x_label) + (log_x_ ? " (log scale)" : "") +
         "</text>\n";
    s += "<text transform=\"translate(16," + num(kTop + kPlotHeight / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">" + xml_escape(plot_.y_label) +
         (log_y_ ? " (log scale)" : "") + "</text>\n";
    return s;
}

// Hollow markers on the x axis: the lengths at which any beta works.
std::string any_beta_svg(const Frame &f, const PlotSeries &s, const char *colour) {
    std::string g = "<g class=\"series any-beta\" data-label=\"" + xml_escape(s.label) + "\">\n";
    for (const auto &p : s.points)
        if (std::isfinite(p.x))
            g += "<circle cx=\"" + num(f.px(p.x)) + "\" cy=\"" + num(kTop + kPlotHeight) +
                 "\" r=\"4\" fill=\"#fff\" stroke=\"" + colour + "\" stroke-width=\"1.6\"><title>" +
                 xml_escape(s.label) + ": n = " + tick_text(p.x) + "</title></circle>\n";
    return g + "</g>\n";
}

// A band's lower edge at least this many pixels below its upper one, so a
// bracket as narrow as 1e-6 relative stays visible.
constexpr double kMinBandPixels = 4;

std::string series_svg(const Frame &f, const PlotSeries &s, const char *colour) {
    if (s.any_beta) return any_beta_svg(f, s, colour);
    std::string g = "<g class=\"series\" data-label=\"" + xml_escape(s.label) + "\">\n";
    std::vector<PlotPoint> pts;
    for (const auto &p : s.points)
        if (std::isfinite(p.x) && std::isfinite(p.hi) && (!s.band || std::isfinite(p.lo)))
            pts.push_back(p);
    std::sort(pts.begin(), pts.end(),
              [](const PlotPoint &a, const PlotPoint &b) { return a.x < b.x; });
    if (s.band && !pts.empty()) {
        std::string poly;
        for (const auto &p : pts)
            poly += num(f.px(p.x)) + "," + num(f.py(p.hi)) + " ";
        for (auto it = pts.rbegin(); it != pts.rend(); ++it)
            poly += num(f.px(it->x)) + "," +
                    num(std::max(f.py(it->lo), f.py(it->hi) + kMinBandPixels)) + " ";
        g += "<polygon class=\"band\" points=\"" + poly + "\" fill=\"" + colour +
             "\" fill-opacity=\"0.35\" stroke=\"" + colour + "\" stroke-width=\"0.8\"/>\n";
    }
    std::string line;
    for (const auto &p : pts)
        line += num(f.px(p.x)) + "," + num(f.py(p.hi)) + " ";
    g += "<polyline points=\"" + line + "\" fill=\"none\" stroke=\"" + colour +
         "\" stroke-width=\"1.6\"" + (s.dashed ? " stroke-dasharray=\"6,4\"" : "") + "/>\n";
    for (const auto &p : pts)
        g += marker_svg(s.marker, f.px(p.x), f.py(p.hi), colour,
                        xml_escape(s.label) + ": n = " + tick_text(p.x) + ", " +
                            (s.band && p.lo != p.hi
                                 ? "[" + tick_text(p.lo) + ", " + tick_text(p.hi) + "]"
                                 : tick_text(p.hi))) +
             "\n";
    return g + "</g>\n";
}

// Each labelled series' label beside its last point, in its colour, in the
// right margin; labels closer than a line apart are pushed down in turn.
std::string end_labels_svg(const Frame &f, const Plot &plot) {
    struct Label {
        double y;
        std::size_t k;
    };
    std::vector<Label> labels;
    for (std::size_t k = 0; k < plot.series.size(); ++k) {
        const PlotSeries &ser = plot.series[k];
        if (ser.end_label.empty() || ser.any_beta) continue;
        const PlotPoint *last = nullptr;
        for (const auto &p : ser.points)
            if (std::isfinite(p.x) && std::isfinite(p.hi) && (!last || p.x > last->x)) last = &p;
        if (last) labels.push_back({f.py(last->hi), k});
    }
    std::sort(labels.begin(), labels.end(), [](const Label &a, const Label &b) {
        return a.y < b.y || (a.y == b.y && a.k < b.k);
    });
    constexpr double kLine = 12;
    std::string out;
    double below = -1e9;
    const double x = kWidth - kRightLabelled + 8;
    for (auto &l : labels) {
        l.y = std::max(l.y, below + kLine);
        below = l.y;
        const PlotSeries &ser = plot.series[l.k];
        out += "<text class=\"end-label\" x=\"" + num(x) + "\" y=\"" + num(l.y + 4) + "\" fill=\"" +
               colour_of(ser, l.k) + "\">" + clipped_text(ser.end_label, kMaxEndLabelBytes) +
               "</text>\n";
    }
    return out;
}

} // namespace

std::string xml_escape(const std::string &raw) {
    // controls, bidirectional controls, non-characters and stray bytes
    // first become visible escapes (printable.hpp): XML 1.0 forbids some of
    // them, and U+202E would reverse the legend text around it
    const std::string s = printable(raw);
    std::string out;
    for (unsigned char c : s) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += static_cast<char>(c);
        }
    }
    return out;
}

std::string clipped_text(const std::string &text, std::size_t max_bytes) {
    const std::string shown = printable(text);
    if (shown.size() <= max_bytes) return xml_escape(shown);
    std::size_t cut = max_bytes;
    while (cut > 0 && (static_cast<unsigned char>(shown[cut]) & 0xC0) == 0x80)
        --cut; // not inside a UTF-8 sequence
    return "<title>" + xml_escape(text) + "</title>" + xml_escape(shown.substr(0, cut)) + "\u2026";
}

std::string svg_plot(const Plot &plot) {
    Frame f(plot);
    const std::size_t rows = plot.series.empty() ? 1 : plot.series.size();
    const double height = kTop + kPlotHeight + 50 + kLegendRow * static_cast<double>(rows);
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kWidth) +
                    "\" height=\"" + num(height) + "\" viewBox=\"0 0 " + num(kWidth) + " " +
                    num(height) + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    s += "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
    s += "<text x=\"" + num(kWidth / 2) + "\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">" +
         clipped_text(plot.title, kMaxTitleBytes) + "</text>\n";
    if (f.empty()) {
        s += "<text x=\"" + num(kWidth / 2) + "\" y=\"" + num(kTop + kPlotHeight / 2) +
             "\" text-anchor=\"middle\">no data</text>\n";
        return s + "</svg>\n";
    }
    s += f.axes();
    for (std::size_t k = 0; k < plot.series.size(); ++k)
        s += series_svg(f, plot.series[k], colour_of(plot.series[k], k));
    s += end_labels_svg(f, plot);
    // legend below the plotting area, one row per series
    double y = kTop + kPlotHeight + 56;
    for (std::size_t k = 0; k < plot.series.size(); ++k, y += kLegendRow) {
        const PlotSeries &ser = plot.series[k];
        const char *colour = colour_of(ser, k);
        s += "<g class=\"legend\">";
        if (ser.band)
            s += "<rect x=\"" + num(kLeft) + "\" y=\"" + num(y - 9) +
                 "\" width=\"28\" height=\"10\" fill=\"" + colour + "\" fill-opacity=\"0.35\"/>";
        if (ser.any_beta)
            s += "<circle cx=\"" + num(kLeft + 14) + "\" cy=\"" + num(y - 4) +
                 "\" r=\"4\" fill=\"#fff\" stroke=\"" + colour + "\" stroke-width=\"1.6\"/>";
        else
            s += "<line x1=\"" + num(kLeft) + "\" x2=\"" + num(kLeft + 28) + "\" y1=\"" +
                 num(y - 4) + "\" y2=\"" + num(y - 4) + "\" stroke=\"" + colour +
                 "\" stroke-width=\"1.6\"" + (ser.dashed ? " stroke-dasharray=\"6,4\"" : "") + "/>";
        s += "<text x=\"" + num(kLeft + 36) + "\" y=\"" + num(y) + "\">" +
             clipped_text(ser.label, kMaxLegendBytes) + "</text></g>\n";
    }
    return s + "</svg>\n";
}

} // namespace tempcert::report
