// The report's "every n" column (proofs/every-n.md): each case's supremum
// of the tight beta over every length, by the function `tight --every-n`
// calls.
#include "tempcert/error.hpp"
#include "tempcert/every_n.hpp"
#include "tempcert/printable.hpp"
#include "tempcert/report.hpp"

namespace tempcert {

void add_every_n(std::vector<ReportCase> &cases, const ReportOptions &o) {
    for (auto &c : cases) {
        CertifyOptions co;
        co.eps = o.eps;
        co.limits = o.limits;
        co.precision = o.precision;
        co.n = kEveryNLongestExact;
        ReportEveryN &e = c.every_n;
        e = ReportEveryN{};
        const std::string why = every_n_unavailable(c.model, co);
        if (!why.empty()) {
            e.note = "outside every-n's scope: " + why;
            continue;
        }
        try {
            EveryNResult r = tight_every_n(c.model, co, o.rel, false);
            e.computed = true;
            e.bounded = r.bounded;
            if (r.bounded) {
                e.lo = decimal_significant(r.beta_lo, 10, false);
                e.hi = decimal_significant(r.beta_hi, 10, true);
                e.note = r.converged ? "sup over every n: beta_hi certified for every length"
                                     : "sup over every n, not narrowed to rel: " + r.note;
            } else {
                e.growth = r.growth + ", rate " + to_string(r.growth_rate);
                e.note = r.note;
            }
        } catch (const Undecided &u) {
            e.note = std::string("every n undecided: ") + u.what();
        } catch (const LimitError &l) {
            check_budget(o.limits);
            e.note = std::string("every n: ") + l.what();
        }
    }
}

std::string every_n_text(const ReportEveryN &e) {
    if (!e.computed) return "-";
    if (!e.bounded) return e.growth;
    return "[" + e.lo + ", " + e.hi + "]";
}

} // namespace tempcert
