// Plots as standalone SVG text, drawn here rather than by an outside
// program: a report's plots need no gnuplot, and report.html embeds the same
// SVG inline. Series are lines through points or bands between a lower and
// an upper curve (brackets); x may be logarithmic. The legend sits below the
// plotting area, so it never covers a curve. Every text from an input (case
// names, labels) is XML-escaped.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tempcert::report {

struct PlotPoint {
    double x, lo, hi; // a line uses hi; a band spans lo..hi
};

struct PlotSeries {
    std::string label;
    std::vector<PlotPoint> points;
    bool band = false; // a filled band lo..hi with its upper edge drawn
    bool dashed = false;
    int colour = -1; // index into the palette; -1: the series' own index
    // Lengths n at which any beta works (no query has a gap, so softmax
    // equals the hard weights at every beta): hollow markers on the x axis
    // at each point's x, outside the y range (a beta of 0 has no place on
    // a log axis, and a bisection's upper end near 0 would stretch it).
    bool any_beta = false;
    int marker = 0;             // the points' shape (svg_plot.cpp: marker_svg)
    std::string end_label = ""; // drawn beside the last point when not empty
};

// At most this many labelled ticks on an axis.
constexpr std::size_t kMaxTicks = 10;

struct Plot {
    std::string title, x_label, y_label;
    std::vector<PlotSeries> series;
    bool log_x = false;
    bool log_y = false;      // used when every plotted value is positive
    bool end_labels = false; // a right margin for the series' end labels
};

// The SVG document (no XML declaration, so it can be inlined in HTML). Each
// series is one <g class="series" data-label="..."> group; an empty series
// list gives a frame saying "no data".
std::string svg_plot(const Plot &plot);

// Text for XML and HTML content and attribute values.
std::string xml_escape(const std::string &s);

// Text for an SVG <text> element: escaped as xml_escape does and, past
// `max_bytes`, clipped (at a character boundary, with an ellipsis) with the
// whole text in a <title> child, so a long name cannot overflow the plot.
std::string clipped_text(const std::string &text, std::size_t max_bytes);
constexpr std::size_t kMaxTitleBytes = 90;
constexpr std::size_t kMaxLegendBytes = 80;
constexpr std::size_t kMaxEndLabelBytes = 24;

} // namespace tempcert::report
