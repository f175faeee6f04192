// The numbers of a report: per case and n, the tight command's computation
// by the same method chooser (include/engine/tempcert/method.hpp): enumeration
// within the word budget, beyond it the symbolic tight bracket (heads in
// layer 1) or the layerwise bracket (exact rounding or the perturbation
// argument). No number is computed twice by different code: a test compares
// each with `tight`, `gap` and `bound`.
#include "tempcert/error.hpp"
#include "tempcert/method.hpp"
#include "tempcert/report.hpp"
#include "tempcert/symbolic.hpp"

#include <algorithm>
#include <cctype>

namespace tempcert {

namespace {

std::string gap_text(const std::optional<Real> &g) {
    return g ? to_string(*g) : std::string("inf");
}

std::string place(std::size_t layer, std::size_t head, std::size_t query) {
    if (layer == 0) return "read-out at " + std::to_string(query);
    return "layer " + std::to_string(layer) + " head " + std::to_string(head) + " query " +
           std::to_string(query);
}

std::string beta_text(const GapBound &b) {
    return beta_shown_up(b);
}

CertifyOptions tight_options(std::size_t n, const ReportOptions &o) {
    CertifyOptions co;
    co.n = n;
    co.eps = o.eps;
    co.limits = o.limits;
    // the words a row may enumerate, as `tight --max-words` gives them
    // (the chooser's budget, and the lower end's seed beyond enumeration)
    co.limits.max_words = o.tight_words;
    co.pump_length = o.pump_length;
    co.precision = o.precision;
    return co;
}

// The columns a tight bracket fills, whichever method produced it.
void fill_tight(ReportRow &r, const ReportCase &c, const TightResult &t) {
    r.min_gap = gap_text(t.gaps.min_gap);
    r.beta_gap = beta_text(t.beta_gap);
    r.profile_lo = decimal_significant(t.profile.bound.lo, 15, false);
    r.profile_hi = decimal_significant(t.profile.bound.hi, 15, true);
    r.tight_lo = decimal_significant(t.beta_lo, 15, false);
    r.tight_hi = decimal_significant(t.beta_hi, 15, true);
    r.kind = to_string(t.kind);
    if (t.lo_witness) {
        r.witness = format_word(t.lo_witness->word, c.model.alphabet);
        r.witness_place = place(t.lo_witness->layer, t.lo_witness->head, t.lo_witness->query);
    }
    r.note = t.note;
    if (!t.converged && r.note.empty()) r.note = "bracket not converged";
}

// The columns of a bracket found beyond enumeration by the layerwise or
// perturbation argument: the least head gap over the layers' value sets
// when known, no Lemma GT beta for the model and no profile.
void fill_layers(ReportRow &r, const ReportCase &c, const TightResult &t) {
    fill_tight(r, c, t);
    if (!t.gaps.min_gap) r.min_gap.clear();
    r.beta_gap.clear();
    r.profile_lo.clear();
    r.profile_hi.clear();
}

// Unique-hard ties between different values stop the symbolic bracket: the
// row keeps the gaps and says why there is no bracket.
void fill_symbolic_gaps(ReportRow &r, const ReportCase &c, std::size_t n, const ReportOptions &o,
                        const Undecided &e) {
    SymbolicOptions so;
    so.eps = o.eps;
    so.rel = o.rel;
    so.precision = o.precision;
    so.limits = o.limits;
    SymbolicReport s = analyse_symbolic(c.model, n, so);
    r.min_gap = gap_text(s.gaps.min_gap);
    r.beta_gap = beta_text(model_beta_gap(s.gaps, o.eps, o.precision.start));
    r.note = std::string("no tight bracket: ") + e.what();
}

// The row of (case, n) by the method the tight command would use (one
// chooser: include/engine/tempcert/method.hpp), or nullopt with `why` when that
// method has no answer.
std::optional<ReportRow> row_for(const ReportCase &c, std::size_t n, const ReportOptions &o,
                                 std::string &why) {
    ReportRow r;
    r.case_id = c.id;
    r.n = n;
    CertifyOptions co = tight_options(n, o);
    TightChoice choice;
    try {
        TightResult t = tight_auto(c.model, co, o.rel, o.tight_words, &choice);
        r.method = to_string(choice.method);
        if (choice.method == TightMethod::Exhaustive)
            r.words = count_words(c.model.alphabet.size(), n);
        if (choice.method == TightMethod::Layers)
            fill_layers(r, c, t);
        else
            fill_tight(r, c, t);
        return r;
    } catch (const Undecided &e) {
        r.method = to_string(choice.method);
        if (choice.method == TightMethod::Symbolic) {
            fill_symbolic_gaps(r, c, n, o, e);
            return r;
        }
        why = e.what();
        return std::nullopt;
    } catch (const LimitError &e) {
        // a method's cost refused up front (--max-queries, --max-words):
        // this row is skipped and says why; the run's own budget (time,
        // Ctrl-C) still ends the whole report
        check_budget(o.limits);
        why = std::string("limit reached: ") + e.what();
        return std::nullopt;
    }
}

} // namespace

std::vector<ReportRow> compute_report(const std::vector<ReportCase> &cases, const ReportOptions &o,
                                      std::vector<std::string> &skipped) {
    std::vector<ReportRow> rows;
    std::size_t total = cases.size() * o.ns.size(), k = 0;
    for (const auto &c : cases)
        for (std::size_t n : o.ns) {
            if (o.progress) o.progress(k++, total, c.id, n);
            check_budget(o.limits);
            std::string why;
            if (auto r = row_for(c, n, o, why))
                rows.push_back(std::move(*r));
            else
                skipped.push_back(c.id + " at n = " + std::to_string(n) + ": " + why);
        }
    return rows;
}

std::vector<std::size_t> parse_n_list(const std::string &text, std::size_t max_n,
                                      const std::string &option) {
    std::vector<std::size_t> ns;
    auto bad = [&](const std::string &why) -> InputError {
        return InputError("", option, "expected lengths like 2..10,12,16; " + why);
    };
    auto number = [&](const std::string &s) -> std::size_t {
        if (s.empty() || s.size() > 9 ||
            !std::all_of(s.begin(), s.end(), [](unsigned char ch) { return std::isdigit(ch); }))
            throw bad("\"" + s + "\" is not a length");
        std::size_t v = std::stoul(s);
        if (v < 1) throw bad("lengths start at 1");
        if (v > max_n)
            throw LimitError(option + " " + s + " is more than the limit " + std::to_string(max_n) +
                             " (--max-n)");
        return v;
    };
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t comma = text.find(',', start);
        std::string item =
            text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        std::size_t dots = item.find("..");
        if (dots == std::string::npos) {
            ns.push_back(number(item));
        } else {
            std::size_t a = number(item.substr(0, dots)), b = number(item.substr(dots + 2));
            if (a > b) throw bad("the range " + item + " is empty");
            if (b - a > 100000) throw bad("the range " + item + " is too long");
            for (std::size_t v = a; v <= b; ++v)
                ns.push_back(v);
        }
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    std::sort(ns.begin(), ns.end());
    ns.erase(std::unique(ns.begin(), ns.end()), ns.end());
    if (ns.size() > 1000) throw bad("more than 1000 lengths");
    return ns;
}

} // namespace tempcert
