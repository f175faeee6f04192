// The gap and bound answers rendered (include/engine/tempcert/outcome.hpp).
#include "render_parts.hpp"
#include "tempcert/certificate.hpp"
#include "tempcert/error.hpp"
#include "tempcert/outcome.hpp"
#include "tempcert/word.hpp"

#include <sstream>

namespace tempcert {

namespace {

std::string argmax_text(const std::vector<std::size_t> &v) {
    std::string s;
    for (auto x : v)
        s += (s.empty() ? "" : " ") + std::to_string(x);
    return "{" + s + "}";
}

nlohmann::ordered_json gap_json(const std::optional<Real> &gap) {
    if (!gap) return "inf";
    if (gap->is_exact()) return to_string(gap->exact());
    return nlohmann::ordered_json::array(
        {gap->interval()->lower_decimal(), gap->interval()->upper_decimal()});
}

} // namespace

bool GapOutcome::ties() const {
    for (const auto &h : report.heads)
        if (h.tie) return true;
    return false;
}

int exit_code(const GapOutcome &g) {
    return g.ties() ? kExitRefuted : kExitOk;
}

nlohmann::ordered_json to_json(const GapOutcome &g) {
    const Model &m = *g.model;
    auto heads = nlohmann::ordered_json::array();
    for (const auto &h : g.report.heads)
        heads.push_back(
            {{"layer", h.layer},
             {"head", h.head},
             {"kind", to_string(h.kind)},
             {"mask", to_string(h.mask)},
             {"min_gap", gap_json(h.min_gap)},
             {"N", h.max_allowed},
             {"witness", h.witness ? witness_json(*h.witness, m) : nlohmann::ordered_json()},
             {"ties", h.tie ? witness_json(*h.tie, m) : nlohmann::ordered_json()}});
    return {{"model", m.name},
            {"n", g.n},
            {"heads", heads},
            {"min_gap", app::gap_text(g.report.min_gap)},
            {"method", to_string(g.report.method)},
            {"words", g.report.words}};
}

std::string to_text(const GapOutcome &g) {
    const Model &m = *g.model;
    std::ostringstream os;
    if (g.report.method == GapMethod::Symbolic)
        os << "minimum gaps of " << m.name << " over all words of length 1.." << g.n
           << " (symbolic, no enumeration; proofs/symbolic-gap.md)\n";
    else
        os << "minimum gaps of " << m.name << " over all " << g.report.words
           << " words of length 1.." << g.n << " (" << to_string(g.report.method) << ")\n";
    for (const auto &h : g.report.heads) {
        os << "  layer " << h.layer << " head " << h.head << " (" << to_string(h.kind) << ", "
           << to_string(h.mask) << "): min gap " << app::gap_text(h.min_gap)
           << ", N = " << h.max_allowed;
        if (h.witness)
            os << "; witness " << format_word(h.witness->word, m.alphabet) << " query "
               << h.witness->query << " argmax " << argmax_text(h.witness->argmax) << " runner-up "
               << *h.witness->runner_up;
        os << "\n";
        if (h.tie)
            os << "    TIES: unique-hard query " << h.tie->query << " on "
               << format_word(h.tie->word, m.alphabet) << " ties positions "
               << argmax_text(h.tie->argmax)
               << " with different values: softmax cannot simulate this head\n";
    }
    os << "model minimum gap: " << app::gap_text(g.report.min_gap)
       << (g.ties() ? "; tie check FAILED" : "; tie check passed") << "\n";
    return os.str();
}

nlohmann::ordered_json to_json(const BoundOutcome &b) {
    return {{"N", b.N},
            {"gap", to_string(b.gap)},
            {"eps", to_string(b.eps)},
            {"trivial", b.bound.trivial},
            {"argument", to_string(b.bound.argument)},
            {"beta_exact", b.bound.exact},
            {"beta_up", to_string(b.bound.beta_up)},
            {"beta", b.bound.beta_decimal_up},
            {"tau", b.bound.tau_decimal_down},
            {"proof", "proofs/lemma-gt.md"}};
}

std::string to_text(const BoundOutcome &b) {
    if (b.bound.trivial)
        return "(N-1)(1-eps)/eps = " + to_string(b.bound.argument) +
               " <= 1: every beta >= 0 gives TV <= eps (proofs/lemma-gt.md)\n";
    return "Lemma GT: beta_gap = " + b.bound.exact + " <= " + b.bound.beta_decimal_up +
           " (rounded up)\n          tau_gap = 1/beta_gap >= " + b.bound.tau_decimal_down +
           " (rounded down)\n(proofs/lemma-gt.md)\n";
}

} // namespace tempcert
