// Tables for `eval`: one row per query with its allowed positions, scores,
// maximising set, gap and weights. Soft intervals are shown to 12 digits.
#include "trace_text.hpp"

#include <iomanip>
#include <sstream>

namespace tempcert::app {

namespace {

std::string short_real(const Real &r) {
    if (r.is_exact()) return to_string(r.exact());
    return "[" + r.interval()->lower_decimal(12) + ", " + r.interval()->upper_decimal(12) + "]";
}

template <class T> std::string list(const std::vector<T> &v) {
    std::ostringstream ss;
    for (std::size_t i = 0; i < v.size(); ++i)
        ss << (i ? " " : "") << v[i];
    return ss.str();
}

std::string reals_text(const RealVector &v) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i)
        out += (i ? "  " : "") + short_real(v[i]);
    return out;
}

const char *verdict(Tri t) {
    return t == Tri::True ? "accept" : t == Tri::False ? "reject" : "undecided";
}

} // namespace

void print_trace(std::ostream &os, const Model &m, const Trace &t, bool soft) {
    for (std::size_t l = 0; l < t.layers.size(); ++l) {
        for (std::size_t h = 0; h < t.layers[l].heads.size(); ++h) {
            const Head &head = m.layers[l].heads[h];
            os << "  layer " << l + 1 << " head " << h + 1 << " (" << to_string(head.kind) << ", "
               << to_string(head.mask) << ")\n";
            for (const auto &q : t.layers[l].heads[h].queries) {
                os << "    query " << std::setw(3) << q.query << ": ";
                if (q.allowed.empty()) {
                    os << "no allowed position\n";
                    continue;
                }
                os << "allowed {" << list(q.allowed) << "}  scores " << reals_text(q.scores);
                if (!soft) {
                    os << "  argmax {" << list(q.argmax) << "}  gap "
                       << (q.gap ? short_real(*q.gap) : std::string("inf"));
                    if (q.runner_up) os << " (runner-up " << *q.runner_up << ")";
                }
                os << "\n              weights " << reals_text(q.weights);
                if (soft && q.tv) os << "  TV " << short_real(*q.tv);
                os << "\n";
            }
        }
    }
    for (const auto &o : t.outputs) {
        if (m.output.kind == ReadKind::Categorical) {
            os << "  output at position " << o.position << ": " << o.decoded << "  (classes "
               << reals_text(o.classes) << ")\n";
            continue;
        }
        os << "  read-out at position " << o.position << ": y = " << short_real(o.y) << "  "
           << verdict(o.accept) << "\n";
    }
}

} // namespace tempcert::app
