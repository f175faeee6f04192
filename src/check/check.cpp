// `tempcert check`: independent re-verification of a certificate (SPEC 5.4,
// proofs/certificate.md), in the manner of a small proof checker: it
// searches nothing, shares no code with src/certify/ or src/gap/, and uses
// only the plain evaluators (exact rationals, plain MPFI, one word at a time,
// no prefix sharing, no filter). Every claim of the certificate is
// recomputed and compared; the first difference is the reason for rejection,
// naming the JSON path and both values.
#include "check_fields.hpp"
#include "check_layerwise.hpp"
#include "tempcert/certificate.hpp"
#include "tempcert/enumerate.hpp"
#include "tempcert/error.hpp"

namespace tempcert {

namespace {

using namespace check;

std::string real_text(const Real &r) {
    if (r.is_exact()) return to_string(r.exact());
    return "[" + r.interval()->lower_decimal() + ", " + r.interval()->upper_decimal() + "]";
}

// Per-head minimum gap recomputed from plain hard traces.
struct HeadFacts {
    std::optional<Rational> min_gap; // nullopt: inf
    std::string witness_word;
    std::size_t witness_query = 0;
    std::string tie_word;
    std::size_t N = 0;
};

std::size_t allowed_count_max(const Model &m, Mask mask, std::size_t n) {
    // N counted directly on the longest length: allowed sets only grow with n.
    std::size_t best = 0, first = m.has_bos() ? 0 : 1;
    for (std::size_t i = first; i <= n; ++i) {
        std::size_t c = 0;
        for (std::size_t j = first; j <= n; ++j) {
            bool ok = mask == Mask::None || (mask == Mask::Causal && j <= i) ||
                      (mask == Mask::Strict && j < i) || (mask == Mask::Future && j >= i) ||
                      (mask == Mask::StrictFuture && j > i);
            c += ok;
        }
        best = std::max(best, c);
    }
    return best;
}

// Does the criterion hold on this word? True / False / Unknown, with where.
Tri judge(const Trace &hard, const Trace &soft, const Rational &eps, const std::string &criterion,
          std::string &where) {
    Prec prec = soft.prec;
    Interval e(eps, prec);
    Tri result = Tri::True;
    auto note = [&](Tri t, const std::string &w) {
        if (t == Tri::False && result != Tri::False) {
            result = Tri::False;
            where = w;
        } else if (t == Tri::Unknown && result == Tri::True) {
            result = Tri::Unknown;
            where = w;
        }
    };
    if (criterion == "tv") {
        for (std::size_t l = 0; l < soft.layers.size(); ++l)
            for (std::size_t h = 0; h < soft.layers[l].heads.size(); ++h)
                for (const auto &q : soft.layers[l].heads[h].queries)
                    if (q.tv) {
                        Interval tv = q.tv->enclose(prec);
                        Tri ok = less(e, tv) == Tri::True
                                     ? Tri::False
                                     : (less_equal(tv, e) == Tri::True ? Tri::True : Tri::Unknown);
                        note(ok, "tv layer " + std::to_string(l + 1) + " head " +
                                     std::to_string(h + 1) + " query " + std::to_string(q.query) +
                                     " = " + real_text(*q.tv));
                    }
        return result;
    }
    for (std::size_t k = 0; k < soft.outputs.size(); ++k) {
        const auto &ys = soft.outputs[k];
        const auto &yh = hard.outputs[k];
        std::string w = "read-out at position " + std::to_string(ys.position) + ": soft " +
                        real_text(ys.y) + ", hard " + real_text(yh.y);
        if (criterion == "output") {
            Interval d = abs(sub(ys.y.enclose(prec), yh.y.enclose(prec), prec));
            note(less(e, d) == Tri::True
                     ? Tri::False
                     : (less_equal(d, e) == Tri::True ? Tri::True : Tri::Unknown),
                 w);
        } else {
            if (yh.y.is_exact() && yh.y.exact() == 0)
                note(Tri::Unknown, w + " (degenerate)");
            else if (ys.accept == Tri::Unknown)
                note(Tri::Unknown, w);
            else
                note(ys.accept == yh.accept ? Tri::True : Tri::False, w);
        }
    }
    return result;
}

Tri judge_word_plain(const Model &m, const Word &w, const BetaSpec &beta, const Rational &eps,
                     const std::string &criterion, const PrecisionPolicy &policy,
                     std::string &where) {
    Trace hard = evaluate_hard(m, w, policy);
    for (Prec prec = policy.start;; prec *= 2) {
        if (prec > policy.cap) prec = policy.cap;
        Tri t = Tri::Unknown;
        try {
            t = judge(hard, evaluate_soft_at(m, w, beta, hard, prec), eps, criterion, where);
        } catch (const Undecided &e) {
            where = e.what();
        }
        if (t != Tri::Unknown || prec >= policy.cap) return t;
    }
}

void verify(const OJson &cert, const Model &m, const Limits &limits, const PrecisionPolicy &policy,
            CheckOutcome &out) {
    if (text(cert, "$", "format") != "tempcert-certificate/1")
        reject("$.format", "expected \"tempcert-certificate/1\"");
    // 1. The model is the one certified.
    const OJson &model = field(cert, "$", "model");
    std::string want = text(model, "$.model", "sha256"), got = model_sha256(m);
    if (want != got)
        reject("$.model.sha256",
               "the certificate is for model " + want + ", the model given has SHA-256 " + got);
    // 2. The claim's parameters.
    std::uint64_t n = count(cert, "$", "n");
    if (n < 1 || n > limits.max_n)
        reject("$.n", "expected 1 <= n <= " + std::to_string(limits.max_n));
    Rational eps = exact(cert, "$", "eps");
    if (eps <= 0 || eps >= 1) reject("$.eps", "expected 0 < eps < 1, got " + to_string(eps));
    std::string criterion = text(cert, "$", "criterion");
    if (criterion != "tv" && criterion != "output" && criterion != "decision")
        reject("$.criterion", "unknown criterion \"" + criterion + "\"");
    std::string method = text(cert, "$", "method");
    out.method = method;
    if (method == "layerwise") {
        check::verify_layerwise(cert, m, n, eps, criterion, limits, policy);
        return;
    }
    if (method != "exhaustive" && method != "exhaustive-prefix")
        reject("$.method",
               "\"" + method + "\" is not a method whose claims this checker re-verifies");
    const OJson &beta_doc = field(cert, "$", "beta");
    std::string beta_text = text(beta_doc, "$.beta", "spec");
    BetaSpec beta = [&] {
        try {
            return BetaSpec::parse(beta_text, m.layers.size(), "$.beta.spec");
        } catch (const InputError &e) {
            reject("$.beta.spec", e.what());
        }
    }();
    std::size_t k = m.alphabet.size();
    check_word_budget(k, n, limits.max_words);
    std::uint64_t words = count(cert, "$", "words_checked");
    std::string verdict = text(cert, "$", "verdict");

    // 3. Gaps: recomputed from plain hard traces of every word.
    std::vector<HeadFacts> facts;
    for (const auto &layer : m.layers)
        for (const auto &head : layer.heads) {
            HeadFacts f;
            f.N = allowed_count_max(m, head.mask, n);
            facts.push_back(f);
        }
    for_each_word(k, n, [&](const Word &w) {
        check_budget(limits);
        Trace t = evaluate_hard(m, w, policy);
        std::size_t idx = 0;
        for (std::size_t l = 0; l < t.layers.size(); ++l)
            for (std::size_t h = 0; h < t.layers[l].heads.size(); ++h, ++idx)
                for (const auto &q : t.layers[l].heads[h].queries) {
                    if (m.layers[l].heads[h].kind != AttnKind::Average && q.argmax.size() > 1 &&
                        !q.ties_share_value && facts[idx].tie_word.empty())
                        facts[idx].tie_word = format_word(w, m.alphabet);
                    if (!q.gap) continue;
                    if (!q.gap->is_exact())
                        reject(
                            "$.gaps",
                            "the model has irrational gaps; this checker verifies exact gaps only");
                    if (!facts[idx].min_gap || q.gap->exact() < *facts[idx].min_gap) {
                        facts[idx].min_gap = q.gap->exact();
                        facts[idx].witness_word = format_word(w, m.alphabet);
                        facts[idx].witness_query = q.query;
                    }
                }
        return true;
    });
    const OJson &gaps = field(cert, "$", "gaps");
    const OJson &heads = field(gaps, "$.gaps", "heads");
    if (!heads.is_array() || heads.size() != facts.size())
        reject("$.gaps.heads",
               "expected one entry per head (" + std::to_string(facts.size()) + ")");
    Rational beta_gap = 0;
    std::optional<Rational> model_min;
    for (std::size_t i = 0; i < facts.size(); ++i) {
        std::string p = "$.gaps.heads[" + std::to_string(i) + "]";
        const OJson &h = heads[i];
        const HeadFacts &f = facts[i];
        std::string claimed = text(h, p, "min_gap");
        std::string actual = f.min_gap ? to_string(*f.min_gap) : "inf";
        if (claimed != actual)
            reject(p + ".min_gap", "claims " + claimed + ", recomputed " + actual);
        if (count(h, p, "N") != f.N)
            reject(p + ".N", "claims " + std::to_string(count(h, p, "N")) + ", recomputed " +
                                 std::to_string(f.N));
        const OJson &wit = field(h, p, "witness");
        if (f.min_gap) {
            if (!wit.is_object()) reject(p + ".witness", "missing for a finite gap");
            if (text(wit, p + ".witness", "word") != f.witness_word ||
                count(wit, p + ".witness", "query") != f.witness_query)
                reject(p + ".witness",
                       "claims word " + text(wit, p + ".witness", "word") + " query " +
                           std::to_string(count(wit, p + ".witness", "query")) +
                           ", the first word attaining the gap is " + f.witness_word + " query " +
                           std::to_string(f.witness_query));
        } else if (!wit.is_null()) {
            reject(p + ".witness", "present for an infinite gap");
        }
        const OJson &tie = field(h, p, "ties");
        std::string tie_claim = tie.is_null() ? "" : text(tie, p + ".ties", "word");
        if (tie_claim != f.tie_word)
            reject(p + ".ties", "claims \"" + tie_claim + "\", recomputed \"" + f.tie_word + "\"");
        Rational up = beta_gap_up(f.N, f.min_gap, eps);
        if (exact(h, p, "beta_gap_up") != up)
            reject(p + ".beta_gap_up",
                   "claims " + text(h, p, "beta_gap_up") + ", recomputed " + to_string(up));
        beta_gap = std::max(beta_gap, up);
        if (f.min_gap) model_min = model_min ? std::min(*model_min, *f.min_gap) : *f.min_gap;
    }
    std::string min_claim = text(gaps, "$.gaps", "min_gap");
    std::string min_actual = model_min ? to_string(*model_min) : "inf";
    if (min_claim != min_actual)
        reject("$.gaps.min_gap", "claims " + min_claim + ", recomputed " + min_actual);

    // 4. beta: a beta_gap certificate certifies exactly the recomputed bound,
    // and every decimal it prints errs on the safe side.
    std::string source = text(beta_doc, "$.beta", "source");
    if (source == "beta_gap") {
        std::string why;
        auto spec = parse_rational(beta_text, why);
        Rational expected = beta_gap == 0 ? Rational(1) : beta_gap;
        if (!spec || *spec != expected)
            reject("$.beta.spec",
                   "claims beta_gap = " + beta_text + ", recomputed " + to_string(expected));
        if (beta_doc.contains("decimal_up") && beta_gap != 0) {
            auto dec = parse_rational(text(beta_doc, "$.beta", "decimal_up"), why);
            if (!dec || *dec < *spec)
                reject("$.beta.decimal_up", text(beta_doc, "$.beta", "decimal_up") +
                                                " is below beta " + beta_text +
                                                ": rounded the wrong way");
        }
        if (beta_doc.contains("tau_decimal_down") && beta_gap != 0) {
            auto dec = parse_rational(text(beta_doc, "$.beta", "tau_decimal_down"), why);
            if (!dec || *dec * *spec > 1)
                reject("$.beta.tau_decimal_down", text(beta_doc, "$.beta", "tau_decimal_down") +
                                                      " is above 1/beta: rounded the wrong way");
        }
    } else if (source != "user") {
        reject("$.beta.source", "expected \"beta_gap\" or \"user\"");
    }

    // 5. The verdict.
    const OJson &cx = field(cert, "$", "counterexample");
    if (verdict == "certified") {
        if (!cx.is_null()) reject("$.counterexample", "present in a certified certificate");
        if (words != count_words(k, n))
            reject("$.words_checked", "claims " + std::to_string(words) + ", but there are " +
                                          std::to_string(count_words(k, n)) +
                                          " words of length 1.." + std::to_string(n));
        std::string failure;
        for_each_word(k, n, [&](const Word &w) {
            check_budget(limits);
            if (limits.progress) limits.progress(out.words, count_words(k, n));
            std::string where;
            Tri t = judge_word_plain(m, w, beta, eps, criterion, policy, where);
            ++out.words;
            if (t != Tri::True) {
                failure = "on word " + format_word(w, m.alphabet) + ", " + where +
                          (t == Tri::False ? " violates eps " : " cannot be shown within eps ") +
                          to_string(eps);
                return false;
            }
            return true;
        });
        if (!failure.empty()) reject("$.verdict", "claims certified, but " + failure);
    } else if (verdict == "refuted") {
        if (!cx.is_object()) reject("$.counterexample", "missing in a refuted certificate");
        Word w = [&] {
            try {
                return parse_word(text(cx, "$.counterexample", "word"), m.alphabet,
                                  "$.counterexample.word");
            } catch (const InputError &e) {
                reject("$.counterexample.word", e.what());
            }
        }();
        if (w.size() > n) reject("$.counterexample.word", "longer than n");
        std::string where;
        Tri t = judge_word_plain(m, w, beta, eps, criterion, policy, where);
        ++out.words;
        if (t != Tri::False)
            reject("$.counterexample", "the word " + format_word(w, m.alphabet) +
                                           " does not violate the criterion" +
                                           (where.empty() ? std::string() : " (" + where + ")"));
    } else if (verdict == "undecided") {
        reject("$.verdict", "an undecided certificate claims nothing to verify");
    } else {
        reject("$.verdict", "expected certified, refuted or undecided, got \"" + verdict + "\"");
    }
}

} // namespace

CheckOutcome check_certificate_text(const std::string &cert_text, const std::string &cert_name,
                                    const Model &m, const Limits &limits,
                                    const PrecisionPolicy &policy) {
    CheckOutcome out;
    OJson cert;
    try {
        cert = parse_json_strict(cert_text, cert_name);
    } catch (const InputError &e) {
        out.reason = e.message();
        return out;
    }
    try {
        verify(cert, m, limits, policy, out);
        out.accepted = true;
    } catch (const Reject &r) {
        out.reason = r.reason;
    }
    return out;
}

CheckOutcome check_certificate(const std::string &cert_path, const std::string &model_path,
                               const Limits &limits, const PrecisionPolicy &policy) {
    Model m = load_model_file(model_path, limits);
    std::string text;
    try {
        text = read_text_file(cert_path, limits.max_file_bytes);
    } catch (const InputError &e) {
        CheckOutcome out;
        out.reason = e.message();
        return out;
    }
    return check_certificate_text(text, cert_path, m, limits, policy);
}

} // namespace tempcert
