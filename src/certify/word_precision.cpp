// The precision loop of deciding one word (word_precision.hpp).
#include "word_precision.hpp"
#include "tempcert/error.hpp"

namespace tempcert {

Tri detail::decide_raising_precision(const CertifyOptions &o, const Word &w, Violation &violation,
                                     Prec &used, const std::function<Tri(Prec)> &decide) {
    for (Prec prec = o.precision.start;; prec *= 2) {
        if (prec > o.precision.cap) prec = o.precision.cap;
        used = prec;
        Tri t = Tri::Unknown;
        try {
            t = decide(prec);
        } catch (const Undecided &e) {
            violation = Violation{w, "precision", 0, 0, 0, Real(0L), Real(0L), e.what()};
        }
        if (t != Tri::Unknown || prec >= o.precision.cap) return t;
    }
}

} // namespace tempcert
