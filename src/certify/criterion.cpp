// The three criteria of SPEC 5.3 judged on one word's hard and soft traces.
// Every comparison is one-sided on intervals: a criterion holds only if the
// whole enclosure satisfies it, fails only if the whole enclosure violates it.
#include "tempcert/certify.hpp"

namespace tempcert {

const char *to_string(Criterion c) {
    switch (c) {
    case Criterion::Tv: return "tv";
    case Criterion::Output: return "output";
    case Criterion::Decision: return "decision";
    }
    return "?";
}

bool parse_criterion(const std::string &text, Criterion &c) {
    if (text == "tv") c = Criterion::Tv;
    else if (text == "output") c = Criterion::Output;
    else if (text == "decision") c = Criterion::Decision;
    else return false;
    return true;
}

const char *to_string(Verdict v) {
    switch (v) {
    case Verdict::Certified: return "certified";
    case Verdict::Refuted: return "refuted";
    case Verdict::Undecided: return "undecided";
    }
    return "?";
}

namespace {

// Folds one check into the word's verdict: a certain failure wins; the
// first undecided place is kept otherwise.
void fold(Tri holds, Tri &verdict, Violation &out, Violation candidate) {
    if (holds == Tri::True || verdict == Tri::False) return;
    if (holds == Tri::False) {
        verdict = Tri::False;
        out = std::move(candidate);
    } else if (verdict == Tri::True) {
        verdict = Tri::Unknown;
        out = std::move(candidate);
    }
}

} // namespace

Tri judge_word(const Trace &hard, const Trace &soft, const Rational &eps,
               Criterion c, Violation &violation, const Word &w) {
    Prec prec = soft.prec;
    Tri verdict = Tri::True;
    Interval e(eps, prec);
    if (c == Criterion::Tv) {
        for (std::size_t l = 0; l < soft.layers.size(); ++l)
            for (std::size_t h = 0; h < soft.layers[l].heads.size(); ++h)
                for (const auto &q : soft.layers[l].heads[h].queries) {
                    if (!q.tv) continue; // no allowed position: nothing to compare
                    Interval tv = q.tv->enclose(prec);
                    Tri holds = less_equal(tv, e);
                    if (holds == Tri::True) continue;
                    Violation v{w, "tv", l + 1, h + 1, q.query, *q.tv, Real(0L),
                                "TV at layer " + std::to_string(l + 1) + " head " +
                                    std::to_string(h + 1) + " query " + std::to_string(q.query) +
                                    " is " + to_string(*q.tv, 15) + " against eps " +
                                    to_string(eps)};
                    fold(holds, verdict, violation, std::move(v));
                    if (verdict == Tri::False) return verdict;
                }
        return verdict;
    }
    for (std::size_t k = 0; k < soft.outputs.size(); ++k) {
        const OutputValue &ys = soft.outputs[k], &yh = hard.outputs[k];
        if (c == Criterion::Output) {
            Real diff = abs(sub(ys.y.enclose(prec), yh.y.enclose(prec), prec));
            Tri holds = less_equal(diff.enclose(prec), e);
            fold(holds, verdict, violation,
                 Violation{w, "output", 0, 0, ys.position, diff, yh.y,
                           "|y_S - y_H| at position " + std::to_string(ys.position) + " is " +
                               to_string(diff, 15) + " against eps " + to_string(eps)});
        } else {
            if (yh.y.is_exact() && yh.y.exact() == 0) {
                fold(Tri::Unknown, verdict, violation,
                     Violation{w, "decision", 0, 0, ys.position, ys.y, yh.y,
                               "degenerate: the hard read-out at position " +
                                   std::to_string(ys.position) + " is exactly 0"});
                continue;
            }
            Tri holds = ys.accept == Tri::Unknown ? Tri::Unknown
                                                  : (ys.accept == yh.accept ? Tri::True : Tri::False);
            fold(holds, verdict, violation,
                 Violation{w, "decision", 0, 0, ys.position, ys.y, yh.y,
                           "soft read-out at position " + std::to_string(ys.position) + " is " +
                               to_string(ys.y, 15) + ", hard is " + to_string(yh.y)});
        }
        if (verdict == Tri::False) return verdict;
    }
    return verdict;
}

} // namespace tempcert
