// Instance checks of the model-level results (`tempcert theorem`, docs/commands.md, theorem and
// report): ahat-simulation (proofs/lemma-gt.md with proofs/layerwise.md's error propagation),
// ltl-unbounded-pe and ltl-temperature-scaling (proofs/ltl-construction.md). Every "certifies"
// below is a certification (exhaustive where the words fit the budget, layerwise beyond), and every
// counterexample a word the exhaustive certifier refuted.
#include "tempcert/certify.hpp"
#include "tempcert/error.hpp"
#include "tempcert/every_n.hpp"
#include "tempcert/layerwise.hpp"
#include "tempcert/ltl.hpp"
#include "tempcert/method.hpp"
#include "tempcert/theorems.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

namespace tempcert {

namespace {

std::string dec(const Rational &q) {
    return q == 0 ? std::string("0") : decimal_significant(q, 12, true);
}

std::size_t attention_layers(const Model &m) {
    std::size_t k = 0;
    for (const auto &layer : m.layers)
        k += !layer.heads.empty();
    return k;
}

std::string violation_text(const Model &m, std::size_t n, const Violation &v) {
    return "n = " + std::to_string(n) + ", word " + format_word(v.word, m.alphabet) + ": " +
           v.detail;
}

constexpr std::uint64_t kSearchWords = 1 << 16;

// A claim below some layer's need: the counterexample text "`claim` fails:
// n = .., word ..: .." for the smallest n in `ns` (within kSearchWords words)
// at which the exhaustive certifier refutes beta(n); Undecided ("`shortfall`,
// but no refuting word ...") when none does.
std::string refuting_word(const Model &m, const std::vector<std::size_t> &ns,
                          const std::function<Rational(std::size_t)> &beta, const Rational &eps,
                          const Limits &limits, const std::string &claim,
                          const std::string &shortfall) {
    for (std::size_t n : ns) {
        if (count_words(m.alphabet.size(), n) > kSearchWords) break;
        CertifyOptions o;
        o.n = n;
        o.eps = eps;
        o.limits = limits;
        CertifyResult r = certify_auto(m, BetaSpec::constant(beta(n)), o);
        if (r.verdict == Verdict::Refuted)
            return claim + " fails: " + violation_text(m, n, *r.counterexample);
    }
    throw Undecided(shortfall + ", but no refuting word was found within " +
                    std::to_string(kSearchWords) + " words");
}

// The least-squares slope of ys against xs (log-log growth exponents);
// nullopt with fewer than two points.
std::optional<double> loglog_slope(const std::vector<double> &xs, const std::vector<double> &ys) {
    if (xs.size() < 2) return std::nullopt;
    double mx = 0, my = 0;
    for (std::size_t k = 0; k < xs.size(); ++k) {
        mx += xs[k];
        my += ys[k];
    }
    mx /= static_cast<double>(xs.size());
    my /= static_cast<double>(xs.size());
    double sxy = 0, sxx = 0;
    for (std::size_t k = 0; k < xs.size(); ++k) {
        sxy += (xs[k] - mx) * (ys[k] - my);
        sxx += (xs[k] - mx) * (xs[k] - mx);
    }
    return sxy / sxx;
}

// The tight-or-sufficient beta t at n, a point of the log-log fit when t > 0.
struct GrowthFit {
    std::vector<double> xs, ys;
    void add(std::size_t n, const Rational &t) {
        if (t <= 0) return;
        xs.push_back(std::log(static_cast<double>(n)));
        ys.push_back(std::log(t.convert_to<double>()));
    }
    // The fitted exponent as a line of the outcome, with what the proof predicts.
    void report(TheoremOutcome &out, const std::string &prediction) const {
        auto slope = loglog_slope(xs, ys);
        if (!slope) return;
        char buf[96];
        std::snprintf(buf, sizeof buf, "beta ~ n^%.3f (least squares on log-log, %zu points; ",
                      *slope, xs.size());
        out.lines.push_back("fitted growth of the tight (or sufficient) beta: " + std::string(buf) +
                            prediction + ")");
    }
};

// The options of the tight question at n, as the theorem lines ask it.
CertifyOptions tight_options_at(std::size_t n, const Rational &eps, const Limits &limits) {
    CertifyOptions o;
    o.n = n;
    o.eps = eps;
    o.limits = limits;
    return o;
}

// Words a theorem line's tight bracket may enumerate.
constexpr std::uint64_t kTheoremTightWords = 1024;

// Whether the tight bracket at n enumerates every word (kTheoremTightWords).
bool enumerated_at(const Model &m, std::size_t n, const Rational &eps, const Limits &limits) {
    return choose_tight_method(m, tight_options_at(n, eps, limits), kTheoremTightWords).method ==
           TightMethod::Exhaustive;
}

// The text after "certified (layerwise)" for the tight bracket tr: t
// becomes its upper end, or 0 when an enumerated bracket refutes nothing
// (nothing is needed, no point to fit). Past enumeration without a refuting
// word: `need_text` and the certified upper end, with t left as it is.
std::string tight_text(const TightResult &tr, bool enumerated, const std::string &need_text,
                       Rational &t) {
    if (!enumerated && !tr.lo_witness)
        return need_text + "; no word refutes below " + decimal_significant(tr.beta_hi, 8, true);
    t = tr.lo_witness ? tr.beta_hi : Rational(0);
    std::string line = ", tight in [" + decimal_significant(tr.beta_lo, 8, false) + ", " +
                       decimal_significant(tr.beta_hi, 8, true) + "]";
    if (!enumerated)
        line += " (layerwise, refuted below by a word of length " +
                std::to_string(tr.lo_witness->word.size()) + ")";
    return line;
}

// The text after "certified (layerwise)" at n: the tight bracket when the
// words fit the enumeration budget (tight_text), else `need_text` with t
// left as the certified sufficient beta.
std::string tight_or_need(const Model &m, std::size_t n, const Rational &eps, const Limits &limits,
                          Rational &t, const std::string &need_text) {
    if (!enumerated_at(m, n, eps, limits)) return need_text;
    TightResult tr =
        tight_auto(m, tight_options_at(n, eps, limits), Rational(1, 10000), kTheoremTightWords);
    return tight_text(tr, true, need_text, t);
}

// A word in a line: whole up to 24 characters, else its ends and length.
std::string abbreviated(const std::string &word) {
    if (word.size() <= 24) return word;
    return word.substr(0, 10) + "..." + word.substr(word.size() - 10) + " (length " +
           std::to_string(word.size()) + ")";
}

// The tight bracket at n as `tight` finds it (enumeration up to 1024 words,
// else the layerwise bracket, whose lower end is refuted by the whole
// model's words; proofs/tight-bracket.md), in a line's words.
std::string bracket_at(const Model &m, std::size_t n, const Rational &eps, const Limits &limits) {
    TightResult t =
        tight_auto(m, tight_options_at(n, eps, limits), Rational(1, 1000000), kTheoremTightWords);
    if (!t.lo_witness) return "; no word refutes below " + decimal_significant(t.beta_hi, 12, true);
    return "; tight in [" + decimal_significant(t.beta_lo, 12, false) + ", " +
           decimal_significant(t.beta_hi, 12, true) + "], refuted below by " +
           abbreviated(format_word(t.lo_witness->word, m.alphabet));
}

// The layerwise need at n (the sharper of Lemma GT and the profile bound
// per layer), or Undecided when the layerwise method does not apply.
LayerwiseResult layers_at(const Model &m, std::size_t n, const Rational &eps,
                          const Limits &limits) {
    LayerwiseResult lw = certify_layerwise(m, n, eps, limits, true);
    if (!lw.applies)
        throw Undecided("the layerwise method does not apply at n = " + std::to_string(n) + ": " +
                        lw.failure);
    return lw;
}

} // namespace

TheoremOutcome check_ahat_simulation(const Model &m, std::size_t n, const Rational &eps,
                                     const std::optional<Rational> &claimed, const Limits &limits) {
    TheoremOutcome out;
    const Prec prec = kPrecStart;
    bool enumerable = count_words(m.alphabet.size(), n) <= limits.max_words;
    Rational beta;
    std::string source;
    if (attention_layers(m) <= 1) {
        if (!enumerable)
            throw LimitError("ahat-simulation: " + std::to_string(n) +
                             " is beyond --max-words for the exhaustive gaps");
        GapReport gaps = min_gaps_exhaustive(m, n, limits, PrecisionPolicy{});
        GapBound b = model_beta_gap(gaps, eps, prec);
        beta = beta_to_certify(b);
        source = "Lemma GT from the minimum gap " +
                 (gaps.min_gap ? to_string(*gaps.min_gap) : std::string("inf")) +
                 ": beta = " + dec(beta);
    } else {
        LayerwiseResult lw = certify_layerwise(m, n, eps, limits, false);
        if (!lw.applies)
            throw Undecided("ahat-simulation: the hypothesis of the multi-layer result (rounded "
                            "layers, proofs/layerwise.md) fails: " +
                            lw.failure);
        beta = lw.beta_up;
        source = "Lemma GT per layer over the layers' value sets (proofs/layerwise.md): beta = " +
                 dec(beta);
    }
    out.lines.push_back(source);
    Rational test = claimed ? *claimed : beta;
    if (claimed) out.lines.push_back("checking the claimed beta = " + to_string(*claimed));
    if (enumerable) {
        CertifyOptions o;
        o.n = n;
        o.eps = eps;
        o.limits = limits;
        CertifyResult r = certify_auto(m, BetaSpec::constant(test), o);
        if (r.verdict == Verdict::Refuted) {
            out.counterexample = violation_text(m, n, *r.counterexample);
            return out;
        }
        if (r.verdict == Verdict::Undecided)
            throw Undecided("ahat-simulation: undecided at the precision cap (" +
                            (r.undecided ? r.undecided->detail : std::string()) + ")");
        std::string slack;
        if (const Binding *b = r.binding())
            slack = ", slack >= " + decimal_significant(Rational(eps - b->value), 6, false) +
                    " (binding " + format_word(b->word, m.alphabet) + ")";
        out.lines.push_back("beta = " + dec(test) + " certifies tv <= " + to_string(eps) +
                            " on all " + std::to_string(r.words) + " words of length 1.." +
                            std::to_string(n) + " (exhaustive)" + slack);
    } else {
        // beyond enumeration: per-layer Lemma GT (O(n^2) per head; profiles
        // would be O(n^3))
        LayerwiseResult lw = certify_layerwise(m, n, eps, limits, false);
        if (!lw.applies)
            throw Undecided("ahat-simulation: the layerwise method does not apply at n = " +
                            std::to_string(n) + ": " + lw.failure);
        if (test < lw.beta_up)
            throw Undecided("ahat-simulation: beta = " + dec(test) +
                            " is below the layerwise need " + dec(lw.beta_up) +
                            " at n = " + std::to_string(n) + ", and n is beyond enumeration");
        out.lines.push_back("beta = " + dec(test) + " meets every layer's Lemma GT need (at most " +
                            dec(lw.beta_up) + ") for every word of length 1.." + std::to_string(n) +
                            " (layerwise)");
    }
    out.confirmed = true;
    return out;
}

TheoremOutcome check_ltl_unbounded_pe(const std::string &formula,
                                      const std::vector<std::string> &alphabet,
                                      const std::vector<std::size_t> &ns, const Rational &eps,
                                      const std::optional<Rational> &claimed,
                                      const Limits &limits) {
    TheoremOutcome out;
    Model m = compile_formula(Formula::parse(formula, alphabet), PositionEncoding::Unbounded, false,
                              limits);
    std::vector<Rational> need, gt;
    for (std::size_t n : ns) {
        check_budget(limits);
        LayerwiseResult lw = layers_at(m, n, eps, limits);
        need.push_back(lw.profile_up);
        gt.push_back(lw.beta_up);
    }
    Rational worst = *std::max_element(need.begin(), need.end());
    Rational beta = claimed ? *claimed : round_decimal(worst, 6, true);
    out.lines.push_back("compiled " + formula + " with the unbounded encoding (features j, n-j+1)");
    // each printed n's tight bracket where the claim holds; a refuted claim's
    // answer is its word (the brackets cost most of the theorem's time)
    const bool refuted = beta < worst;
    for (std::size_t k = 0; k < ns.size(); ++k)
        if (k == 0 || k + 1 == ns.size() || ns.size() <= 8)
            out.lines.push_back("n = " + std::to_string(ns[k]) + ": layers need beta >= " +
                                dec(need[k]) + " (Lemma GT alone: " + dec(gt[k]) + ")" +
                                (refuted ? "" : bracket_at(m, ns[k], eps, limits)));
    for (std::size_t k = 0; k < ns.size(); ++k)
        if (beta < need[k]) {
            out.counterexample = refuting_word(
                m, ns, [&](std::size_t) { return beta; }, eps, limits, "beta = " + dec(beta),
                "ltl-unbounded-pe: beta = " + dec(beta) + " is below the layers' need " +
                    dec(need[k]) + " at n = " + std::to_string(ns[k]));
            return out;
        }
    out.lines.push_back("one constant beta = " + dec(beta) + " certifies every n in " +
                        std::to_string(ns.front()) + ".." + std::to_string(ns.back()) +
                        " (layerwise, each layer's need from its profile bound)");
    out.lines.push_back(
        "the need varies by a factor " +
        decimal_significant(worst / std::max(need.front(), Rational(1, 1000000)), 6, true) +
        " over the range, while Lemma GT's beta grows from " + dec(gt.front()) + " to " +
        dec(gt.back()) + " (like ln n)");
    out.confirmed = true;
    return out;
}

TheoremOutcome check_ltl_unbounded_pe_every_n(const std::string &formula,
                                              const std::vector<std::string> &alphabet,
                                              const Rational &eps,
                                              const std::optional<Rational> &claimed,
                                              const Limits &limits) {
    TheoremOutcome out;
    Model m = compile_formula(Formula::parse(formula, alphabet), PositionEncoding::Unbounded, false,
                              limits);
    CertifyOptions o = tight_options_at(kEveryNLongestExact, eps, limits);
    const EveryNResult sup = tight_every_n(m, o, Rational(1, 1000000), false);
    if (!sup.bounded)
        throw Undecided("ltl-unbounded-pe --every-n: no constant beta serves every length (" +
                        sup.note + ")");
    const Rational beta = claimed ? *claimed : round_decimal(sup.beta_hi, 6, true);
    out.lines.push_back("compiled " + formula + " with the unbounded encoding (" +
                        std::to_string(m.layers.size()) + " layers)");
    out.lines.push_back("sup over every n of the tight beta in [" +
                        decimal_significant(sup.beta_lo, 12, false) + ", " + dec(sup.beta_hi) +
                        "]: " + sup.note);
    if (claimed) out.lines.push_back("checking the claimed beta = " + to_string(*claimed));
    if (beta >= sup.beta_hi) {
        out.lines.push_back("one constant beta = " + dec(beta) +
                            " certifies every word of every length n (proofs/every-n.md)");
        out.confirmed = true;
        return out;
    }
    // below the upper end: refuted only where the lower end's word fails at
    // beta itself, judged by evaluation
    if (sup.lo_witness && beta <= sup.beta_lo) {
        Violation v;
        Prec used = 0;
        o.n = sup.lo_witness->word.size();
        if (certify_word_streamed(m, sup.lo_witness->word, BetaSpec::constant(beta), o, v, used) ==
            Tri::False) {
            out.counterexample =
                "beta = " + dec(beta) + " fails: " + violation_text(m, v.word.size(), v);
            return out;
        }
    }
    throw Undecided("ltl-unbounded-pe --every-n: beta = " + dec(beta) +
                    " lies within the supremum's bracket, neither certified nor refuted");
}

TheoremOutcome check_ltl_temperature_scaling(const std::string &formula,
                                             const std::vector<std::string> &alphabet,
                                             const std::vector<std::size_t> &ns,
                                             const Rational &eps, const Rational &scale,
                                             const Limits &limits) {
    TheoremOutcome out;
    Model m = compile_formula(Formula::parse(formula, alphabet), PositionEncoding::Bounded, false,
                              limits);
    const Prec prec = kPrecStart;
    // the proof's beta(n): Lemma GT with gap 1/n and N = n
    auto proof_beta = [&](std::size_t n) {
        GapBound b = lemma_gt(n, Real(Rational(1, static_cast<long>(n))), eps, prec);
        return (b.trivial ? Rational(0) : b.beta_up) * scale;
    };
    out.lines.push_back("compiled " + formula +
                        " with the bounded encoding (features j/n, (n-j+1)/n)");
    out.lines.push_back(
        "beta(n) = " + (scale == 1 ? std::string() : to_string(scale) + " * ") +
        "n ln((n-1)(1-eps)/eps), Lemma GT with gap 1/n (proofs/ltl-construction.md)");
    GrowthFit fit;
    for (std::size_t n : ns) {
        check_budget(limits);
        if (n < 2) continue;
        Rational b = proof_beta(n);
        // past enumeration the tight bracket's certified upper end is the
        // layers' need: one layerwise analysis for both where beta(n) meets it
        std::optional<TightResult> beyond;
        if (!enumerated_at(m, n, eps, limits))
            beyond = tight_auto(m, tight_options_at(n, eps, limits), Rational(1, 10000),
                                kTheoremTightWords);
        Rational t;
        std::string tight;
        if (beyond && b >= beyond->beta_hi) {
            t = beyond->beta_hi;
            tight = tight_text(*beyond, false, ", layers need " + dec(t), t);
        } else {
            LayerwiseResult lw = layers_at(m, n, eps, limits);
            if (b < lw.profile_up) {
                out.counterexample = refuting_word(
                    m, ns, proof_beta, eps, limits, "beta(n)",
                    "ltl-temperature-scaling: beta(" + std::to_string(n) + ") = " + dec(b) +
                        " is below the layers' need " + dec(lw.profile_up));
                return out;
            }
            t = lw.profile_up;
            tight = beyond ? tight_text(*beyond, false, ", layers need " + dec(t), t)
                           : tight_or_need(m, n, eps, limits, t, ", layers need " + dec(t));
        }
        out.lines.push_back("n = " + std::to_string(n) + ": beta(n) = " + dec(b) +
                            " certified (layerwise)" + tight);
        fit.add(n, t);
    }
    fit.report(out, "the proof predicts n^1");
    out.confirmed = true;
    return out;
}

TheoremOutcome check_counting_temperature(const std::string &formula,
                                          const std::vector<std::string> &alphabet,
                                          const std::vector<std::size_t> &ns, const Rational &eps,
                                          const Rational &scale, const Limits &limits) {
    TheoremOutcome out;
    Formula f = Formula::parse(formula, alphabet);
    if (!f.has_counts())
        throw InputError("", "counting-temperature",
                         "the formula has no count #(...); ltl-unbounded-pe and "
                         "ltl-temperature-scaling are the theorems for LTL");
    Model m = compile_formula(f, PositionEncoding::Unbounded, false, limits);
    const Prec prec = kPrecStart;
    // the proof's beta(n): Lemma GT with N = n + 1 and gap 1/(2(n+1))
    auto proof_beta = [&](std::size_t n) {
        GapBound b = lemma_gt(n + 1, Real(Rational(1, 2 * static_cast<long>(n + 1))), eps, prec);
        return (b.trivial ? Rational(0) : b.beta_up) * scale;
    };
    out.lines.push_back("compiled " + f.to_string() +
                        " (BOS; uniform heads for the counts, a sign head per comparison)");
    out.lines.push_back("beta(n) = " + (scale == 1 ? std::string() : to_string(scale) + " * ") +
                        "2(n+1) ln(n(1-eps)/eps), Lemma GT with gap 1/(2(n+1)) and N = n + 1 "
                        "(proofs/counting-construction.md)");
    GrowthFit fit;
    for (std::size_t n : ns) {
        check_budget(limits);
        Rational b = proof_beta(n);
        LayerwiseResult lw = certify_layerwise(m, n, eps, limits, false);
        if (!lw.applies)
            throw Undecided("the layerwise method does not apply at n = " + std::to_string(n) +
                            ": " + lw.failure);
        if (b < lw.beta_up) {
            out.counterexample =
                refuting_word(m, ns, proof_beta, eps, limits, "beta(n)",
                              "counting-temperature: beta(" + std::to_string(n) + ") = " + dec(b) +
                                  " is below the layers' need " + dec(lw.beta_up));
            return out;
        }
        Rational t = lw.beta_up;
        std::string tight =
            tight_or_need(m, n, eps, limits, t, ", layers need " + dec(t) + " (Lemma GT)");
        out.lines.push_back("n = " + std::to_string(n) + ": beta(n) = " + dec(b) +
                            " certified (layerwise)" + tight);
        fit.add(n, t);
    }
    fit.report(out, "the proof's beta(n) grows like n ln n");
    out.confirmed = true;
    return out;
}

} // namespace tempcert
