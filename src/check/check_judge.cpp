// Judging words and counterexample places; see check_judge.hpp.
#include "check_judge.hpp"

namespace tempcert::check {

namespace {

std::string shown(const Real &r) {
    if (r.is_exact()) return to_string(r.exact());
    return "[" + r.interval()->lower_decimal() + ", " + r.interval()->upper_decimal() + "]";
}

// Whether value <= eps: True, False (certainly above), Unknown.
Tri within(const Interval &value, const Rational &eps, Prec prec) {
    Interval e(eps, prec);
    if (less(e, value) == Tri::True) return Tri::False;
    return less_equal(value, e) == Tri::True ? Tri::True : Tri::Unknown;
}

// The quantity a criterion bounds at a read-out: |y_S - y_H| (output) or
// y_S (decision, judged by its sign against y_H's).
// For a categorical read-out, the largest distance over the classes.
Interval output_distance(const OutputValue &soft, const OutputValue &hard, Prec prec) {
    Interval d = abs(sub(soft.y.enclose(prec), hard.y.enclose(prec), prec));
    if (!hard.classes.empty()) {
        d = abs(sub(soft.classes[0].enclose(prec), hard.classes[0].enclose(prec), prec));
        for (std::size_t k = 1; k < hard.classes.size(); ++k) {
            Interval e =
                abs(sub(soft.classes[k].enclose(prec), hard.classes[k].enclose(prec), prec));
            d = max(Real(d), Real(e), prec).enclose(prec);
        }
    }
    return d;
}

// Categorical: the same label where the hard model decodes one; nothing is
// compared where it decodes none (a tie: the program has no output there).
Tri decision_holds(const OutputValue &soft, const OutputValue &hard) {
    if (!hard.classes.empty()) {
        if (!hard.label) return Tri::True;
        if (!soft.decided) return Tri::Unknown;
        return soft.label == hard.label ? Tri::True : Tri::False;
    }
    if (hard.y.is_exact() && hard.y.exact() == 0) return Tri::Unknown; // degenerate
    if (soft.accept == Tri::Unknown) return Tri::Unknown;
    return soft.accept == hard.accept ? Tri::True : Tri::False;
}

// Folds one place's answer: the first False wins, then the first Unknown.
void fold(Tri t, const std::string &here, Tri &result, std::string &where) {
    if (t == Tri::False && result != Tri::False) {
        result = Tri::False;
        where = here;
    } else if (t == Tri::Unknown && result == Tri::True) {
        result = Tri::Unknown;
        where = here;
    }
}

std::size_t output_index(const Trace &t, std::size_t position) {
    for (std::size_t k = 0; k < t.outputs.size(); ++k)
        if (t.outputs[k].position == position) return k;
    return t.outputs.size();
}

// The claimed value ("p/q", or ["lo", "hi"] decimals, with an exponent
// of at most 4 digits as certify writes values below 1e-7: "1.1e-8") must
// meet the checker's enclosure: if the two are disjoint the claim is false.
// Returns the claimed [lo, hi].
std::pair<Rational, Rational> check_claimed_value(const OJson &cx, const std::string &path,
                                                  const Interval &value) {
    const OJson &v = field(cx, path, "value");
    std::string why;
    std::optional<Rational> lo, hi;
    if (v.is_string()) {
        lo = hi = parse_rational_scientific(v.get<std::string>(), why, 4000);
    } else if (v.is_array() && v.size() == 2 && v[0].is_string() && v[1].is_string()) {
        lo = parse_rational_scientific(v[0].get<std::string>(), why, 4000);
        if (lo) hi = parse_rational_scientific(v[1].get<std::string>(), why, 4000);
    }
    if (!lo || !hi)
        malformed(path + ".value", "expected \"p/q\" or [\"lo\", \"hi\"], exact numbers as text" +
                                       (why.empty() ? std::string() : ": " + why));
    if (*lo > *hi)
        reject(path + ".value", "claims " + v.dump() + ", whose lower end is above its upper");
    if (*hi < value.lower_exact() || *lo > value.upper_exact())
        reject(path + ".value", "claims " + v.dump() + ", but the value lies in [" +
                                    value.lower_decimal() + ", " + value.upper_decimal() + "]");
    return {*lo, *hi};
}

// A counterexample's claimed enclosure must itself show the violation: a
// claim widened until it no longer does (a tv of [0, 1] against eps 1/100)
// asserts nothing, even if it meets the true value.
void check_claim_violates(const std::pair<Rational, Rational> &claim, const std::string &path,
                          const Rational &eps, const char *quantity) {
    if (claim.first <= eps)
        reject(path + ".value", std::string("claims a ") + quantity + " whose lower end " +
                                    to_string(claim.first) + " is not above eps " + to_string(eps) +
                                    ": it does not show a violation");
}

// A violation stands once the claimed value contains the enclosure, or at
// the cap; until then the precision rises (the claim may yet be refuted).
Tri until_contained(Tri verdict, const std::pair<Rational, Rational> &claim, const Interval &value,
                    bool at_cap) {
    bool contained = claim.first <= value.lower_exact() && value.upper_exact() <= claim.second;
    return verdict == Tri::False && !contained && !at_cap ? Tri::Unknown : verdict;
}

} // namespace

Tri judge_word(const Trace &hard, const Trace &soft, const Rational &eps,
               const std::string &criterion, Prec prec, std::string &where) {
    // the place's description is built only where the answer is not True
    Tri result = Tri::True;
    if (criterion == "tv") {
        for (std::size_t l = 0; l < soft.layers.size(); ++l)
            for (std::size_t h = 0; h < soft.layers[l].heads.size(); ++h)
                for (const auto &q : soft.layers[l].heads[h].queries) {
                    if (!q.tv) continue;
                    Tri t = within(q.tv->enclose(prec), eps, prec);
                    if (t == Tri::True) continue;
                    fold(t,
                         "tv at layer " + std::to_string(l + 1) + " head " + std::to_string(h + 1) +
                             " query " + std::to_string(q.query) + " = " + shown(*q.tv),
                         result, where);
                }
        return result;
    }
    for (std::size_t k = 0; k < soft.outputs.size(); ++k) {
        const OutputValue &ys = soft.outputs[k], &yh = hard.outputs[k];
        Tri t = criterion == "output" ? within(output_distance(ys, yh, prec), eps, prec)
                                      : decision_holds(ys, yh);
        if (t == Tri::True) continue;
        fold(t,
             "the read-out at position " + std::to_string(ys.position) + " (soft " + shown(ys.y) +
                 ", hard " + shown(yh.y) + ")",
             result, where);
    }
    return result;
}

Place read_place(const OJson &cx, const std::string &path, const std::string &criterion,
                 const Trace &hard) {
    same_text(cx, path, "quantity", criterion);
    Place place;
    if (criterion == "tv") {
        only_keys(cx, path, {"word", "quantity", "layer", "head", "query", "value"});
        place.layer = count(cx, path, "layer");
        place.head = count(cx, path, "head");
        place.query = count(cx, path, "query");
        if (place.layer < 1 || place.layer > hard.layers.size())
            reject(path + ".layer", "no such layer");
        if (place.head < 1 || place.head > hard.layers[place.layer - 1].heads.size())
            reject(path + ".head", "no such head in layer " + std::to_string(place.layer));
        const auto &qs = hard.layers[place.layer - 1].heads[place.head - 1].queries;
        bool found = false;
        for (const auto &q : qs)
            found = found || (q.query == place.query && !q.allowed.empty());
        if (!found) reject(path + ".query", "no query attends at that position on this word");
        return place;
    }
    only_keys(cx, path, {"word", "quantity", "position", "hard_y", "value"});
    place.position = count(cx, path, "position");
    if (output_index(hard, place.position) == hard.outputs.size())
        reject(path + ".position", "the model reads no output at that position on this word");
    return place;
}

void check_hard_value(const OJson &cx, const std::string &path, const Trace &hard,
                      const Place &place, const std::string &criterion) {
    if (criterion == "tv") return;
    const Real &y = hard.outputs[output_index(hard, place.position)].y;
    const OJson &claim = field(cx, path, "hard_y");
    if (y.is_exact()) {
        std::string why;
        std::optional<Rational> q;
        if (claim.is_string()) q = parse_rational(claim.get<std::string>(), why, 4000);
        if (!q || *q != y.exact())
            reject(path + ".hard_y",
                   "claims " + claim.dump() + ", the hard read-out is " + to_string(y.exact()));
        return;
    }
    OJson wrapped{{"value", claim}};
    check_claimed_value(wrapped, path + ".hard_y", y.enclose(kPrecStart));
}

Tri judge_place(const OJson &cx, const std::string &path, const Trace &hard, const Trace &soft,
                const Rational &eps, const std::string &criterion, const Place &place, Prec prec,
                std::string &where, bool at_cap) {
    if (criterion == "tv") {
        const auto &qs = soft.layers[place.layer - 1].heads[place.head - 1].queries;
        for (const auto &q : qs) {
            if (q.query != place.query || !q.tv) continue;
            Interval tv = q.tv->enclose(prec);
            auto claim = check_claimed_value(cx, path, tv);
            check_claim_violates(claim, path, eps, "tv");
            where = "tv = " + shown(*q.tv);
            return until_contained(within(tv, eps, prec), claim, tv, at_cap);
        }
        return Tri::Unknown;
    }
    std::size_t k = output_index(hard, place.position);
    const OutputValue &ys = soft.outputs[k], &yh = hard.outputs[k];
    where = "the read-out at position " + std::to_string(place.position) + " (soft " + shown(ys.y) +
            ", hard " + shown(yh.y) + ")";
    if (criterion == "output") {
        Interval d = output_distance(ys, yh, prec);
        auto claim = check_claimed_value(cx, path, d);
        check_claim_violates(claim, path, eps, "distance");
        return until_contained(within(d, eps, prec), claim, d, at_cap);
    }
    Interval y = ys.y.enclose(prec);
    auto [lo, hi] = check_claimed_value(cx, path, y);
    // a linear read-out accepts when y > 0: the claimed soft y must lie
    // wholly on the other side from the hard one's
    if (yh.classes.empty() && yh.accept == Tri::True && hi > 0)
        reject(path + ".value", "claims a soft read-out reaching " + to_string(hi) +
                                    " > 0, where the hard one accepts: no violation shown");
    if (yh.classes.empty() && yh.accept == Tri::False && lo <= 0)
        reject(path + ".value", "claims a soft read-out reaching " + to_string(lo) +
                                    " <= 0, where the hard one rejects: no violation shown");
    return until_contained(decision_holds(ys, yh), {lo, hi}, y, at_cap);
}

} // namespace tempcert::check
