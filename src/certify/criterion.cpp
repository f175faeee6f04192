// The three criteria of docs/semantics.md judged on one word's hard and soft traces.
// Every comparison is one-sided on intervals: a criterion holds only if the
// whole enclosure satisfies it, fails only if the whole enclosure violates it.
#include "tempcert/certify.hpp"
#include "tempcert/error.hpp"

#include <cmath>
#include <mpfr.h>

namespace tempcert {

namespace {

// |soft - hard| of a read-out: for a categorical one the largest over its
// class coordinates.
Real output_distance(const OutputValue &ys, const OutputValue &yh, Prec prec) {
    auto dist = [prec](const Real &a, const Real &b) {
        return Real(abs(sub(a.enclose(prec), b.enclose(prec), prec)));
    };
    if (ys.classes.empty()) return dist(ys.y, yh.y);
    Real d = dist(ys.classes[0], yh.classes[0]);
    for (std::size_t k = 1; k < ys.classes.size(); ++k)
        d = max(d, dist(ys.classes[k], yh.classes[k]), prec);
    return d;
}

// Decision on a categorical read-out: where the hard model decodes a label
// the soft one must decode the same; where it decodes none (a tie) the
// program defines no output there and nothing is compared (docs/model-format.md).
Tri judge_label(const OutputValue &ys, const OutputValue &yh, const Word &w, Violation &violation) {
    if (!yh.label) return Tri::True;
    Tri holds = !ys.decided ? Tri::Unknown : (ys.label == yh.label ? Tri::True : Tri::False);
    if (holds != Tri::True)
        violation = Violation{w,
                              "decision",
                              0,
                              0,
                              ys.position,
                              ys.y,
                              yh.y,
                              "soft output at position " + std::to_string(ys.position) + " is " +
                                  ys.decoded + ", hard is " + yh.decoded};
    return holds;
}

} // namespace

const char *to_string(Criterion c) {
    switch (c) {
    case Criterion::Tv:
        return "tv";
    case Criterion::Output:
        return "output";
    case Criterion::Decision:
        return "decision";
    }
    return "?";
}

bool parse_criterion(const std::string &text, Criterion &c) {
    if (text == "tv")
        c = Criterion::Tv;
    else if (text == "output")
        c = Criterion::Output;
    else if (text == "decision")
        c = Criterion::Decision;
    else
        return false;
    return true;
}

const char *to_string(Verdict v) {
    switch (v) {
    case Verdict::Certified:
        return "certified";
    case Verdict::Refuted:
        return "refuted";
    case Verdict::Undecided:
        return "undecided";
    }
    return "?";
}

namespace {

// Rounds an upper bound up to kBindingBits significant bits, and up to at
// least 2^kBindingFloorExp. Both the double filter (53 bits) and MPFI
// (>= 128) enclose a head's value far more tightly than 40 bits, so words
// whose values tie exactly compare equal whichever path bounded them, and
// the tie goes to the first word. The floor keeps a TV like exp(-10^11)
// (MPFR's exponent range is far wider than a double's) from becoming a
// rational with a 10^11-bit denominator.
constexpr mpfr_prec_t kBindingBits = 40;
constexpr long kBindingFloorExp = -1000;
Rational round_up_bits(mpfr_srcptr x) {
    mpfr_t f;
    mpfr_init2(f, kBindingBits);
    if (!mpfr_number_p(x)) {
        mpfr_clear(f);
        throw Undecided("a bound's enclosure has an infinite or NaN end");
    }
    mpfr_set(f, x, MPFR_RNDU);
    if (mpfr_sgn(f) != 0 && mpfr_get_exp(f) < kBindingFloorExp)
        mpfr_set_ui_2exp(f, 1, kBindingFloorExp, MPFR_RNDU);
    mpq_t out;
    mpq_init(out);
    mpfr_get_q(out, f);
    Rational r(out);
    mpq_clear(out);
    mpfr_clear(f);
    return r;
}
Rational round_up_bits(const Rational &q) {
    mpfr_t f;
    mpfr_init2(f, kBindingBits);
    mpfr_set_q(f, q.backend().data(), MPFR_RNDU);
    Rational r = round_up_bits(f);
    mpfr_clear(f);
    return r;
}
Rational round_up_bits(const Interval &x) {
    mpfr_t f;
    mpfr_init2(f, x.prec());
    mpfi_get_right(f, x.raw());
    Rational r = round_up_bits(f);
    mpfr_clear(f);
    return r;
}

} // namespace

double binding_keep_threshold(double best_lower) {
    // every value at or below the floor rounds to it: all of them may tie
    if (best_lower <= std::ldexp(1.0, kBindingFloorExp + 1)) return 0.0;
    // A place ties with the maximum M >= best_lower only if its MPFI upper
    // end rounds up to M: it exceeds the grid point below M, so it is above
    // best_lower less one step of the kBindingBits grid (a step is at most
    // 2^-39 of the value). Its filtered upper end encloses the same value,
    // so it is above that too, less MPFI's width, far below a step. The
    // threshold is two steps below best_lower (the double product's error
    // is another 2^-53 of it).
    return best_lower * (1.0 - std::ldexp(1.0, -(kBindingBits - 2)));
}

void record_binding_value(std::vector<Binding> &b, std::size_t idx, Binding candidate) {
    if (b.size() <= idx) b.resize(idx + 1);
    candidate.value = round_up_bits(candidate.value);
    // ties go to the first word in enumeration order, whichever path ran
    if (b[idx].word.empty() || candidate.value > b[idx].value ||
        (candidate.value == b[idx].value && word_before(candidate.word, b[idx].word)))
        b[idx] = std::move(candidate);
}

void record_binding(std::vector<Binding> &b, const Trace &hard, const Trace &soft, Criterion c,
                    const Word &w) {
    auto update = [&](std::size_t idx, std::size_t layer, std::size_t head, const Real &v,
                      std::size_t query) {
        Rational up = v.is_exact() ? v.exact() : round_up_bits(*v.interval());
        record_binding_value(b, idx, Binding{layer, head, up, w, query});
    };
    if (c == Criterion::Tv) {
        std::size_t idx = 0;
        for (std::size_t l = 0; l < soft.layers.size(); ++l)
            for (std::size_t h = 0; h < soft.layers[l].heads.size(); ++h, ++idx)
                for (const auto &q : soft.layers[l].heads[h].queries)
                    if (q.tv) update(idx, l + 1, h + 1, *q.tv, q.query);
        return;
    }
    if (c == Criterion::Output)
        for (std::size_t k = 0; k < soft.outputs.size(); ++k)
            update(0, 0, 0, output_distance(soft.outputs[k], hard.outputs[k], soft.prec),
                   soft.outputs[k].position);
}

const Binding *CertifyResult::binding() const {
    const Binding *best = nullptr;
    for (const auto &b : bindings)
        if (!b.word.empty() && (!best || b.value > best->value)) best = &b;
    return best;
}

Tri judge_query(const QueryTrace &q, std::size_t layer, std::size_t head, const Rational &eps,
                Prec prec, const Word &w, Violation &violation) {
    if (!q.tv) return Tri::True; // no allowed position: nothing to compare
    Tri holds = less_equal(q.tv->enclose(prec), Interval(eps, prec));
    if (holds != Tri::True)
        violation = Violation{w,
                              "tv",
                              layer,
                              head,
                              q.query,
                              *q.tv,
                              Real(0L),
                              "TV at layer " + std::to_string(layer) + " head " +
                                  std::to_string(head) + " query " + std::to_string(q.query) +
                                  " is " + to_string(*q.tv, 15) + " against eps " + to_string(eps)};
    return holds;
}

Tri judge_output(const OutputValue &ys, const OutputValue &yh, const Rational &eps, Criterion c,
                 Prec prec, const Word &w, Violation &violation) {
    if (c == Criterion::Decision && !yh.classes.empty()) return judge_label(ys, yh, w, violation);
    if (c == Criterion::Output) {
        Real diff = output_distance(ys, yh, prec);
        Tri holds = less_equal(diff.enclose(prec), Interval(eps, prec));
        if (holds != Tri::True)
            violation =
                Violation{w,
                          "output",
                          0,
                          0,
                          ys.position,
                          diff,
                          yh.y,
                          "|y_S - y_H| at position " + std::to_string(ys.position) + " is " +
                              to_string(diff, 15) + " against eps " + to_string(eps)};
        return holds;
    }
    if (yh.y.is_exact() && yh.y.exact() == 0) {
        violation = Violation{w,
                              "decision",
                              0,
                              0,
                              ys.position,
                              ys.y,
                              yh.y,
                              "degenerate: the hard read-out at position " +
                                  std::to_string(ys.position) + " is exactly 0"};
        return Tri::Unknown;
    }
    Tri holds = ys.accept == Tri::Unknown ? Tri::Unknown
                                          : (ys.accept == yh.accept ? Tri::True : Tri::False);
    if (holds != Tri::True)
        violation = Violation{w,
                              "decision",
                              0,
                              0,
                              ys.position,
                              ys.y,
                              yh.y,
                              "soft read-out at position " + std::to_string(ys.position) + " is " +
                                  to_string(ys.y, 15) + ", hard is " + to_string(yh.y)};
    return holds;
}

Tri judge_word(const Trace &hard, const Trace &soft, const Rational &eps, Criterion c,
               Violation &violation, const Word &w) {
    Tri verdict = Tri::True;
    Violation v;
    auto fold = [&](Tri t) {
        if (t == Tri::True) return false;
        if (t == Tri::False) {
            verdict = Tri::False;
            violation = v;
            return true; // a certain failure ends the word
        }
        if (verdict == Tri::True) {
            verdict = Tri::Unknown;
            violation = v;
        }
        return false;
    };
    if (c == Criterion::Tv) {
        for (std::size_t l = 0; l < soft.layers.size(); ++l)
            for (std::size_t h = 0; h < soft.layers[l].heads.size(); ++h)
                for (const auto &q : soft.layers[l].heads[h].queries)
                    if (fold(judge_query(q, l + 1, h + 1, eps, soft.prec, w, v))) return verdict;
        return verdict;
    }
    for (std::size_t k = 0; k < soft.outputs.size(); ++k)
        if (fold(judge_output(soft.outputs[k], hard.outputs[k], eps, c, soft.prec, w, v)))
            return verdict;
    return verdict;
}

} // namespace tempcert
