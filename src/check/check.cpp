// `tempcert check` / `tempcert-check`: independent re-verification of a
// certificate (proofs/certificate.md), in the manner of a small proof
// checker (drat-trim, lrat-check): it searches nothing and links only the
// kernel (numbers, model loading, exact hard evaluation); the soft model,
// every softmax weight and every TV are enclosed by its own code
// (check_soft.cpp). Every field of a certificate is re-derived and compared,
// or refused as not in the format; a claimed bound is compared as an
// inequality against the checker's own enclosure, never as a string. The
// first claim that does not hold is the reason for rejection, naming the
// JSON path and both values.
#include "tempcert/check.hpp"
#include "../eval/layer_ops.hpp"
#include "check_arguments.hpp"
#include "check_fields.hpp"
#include "check_judge.hpp"
#include "check_prefix.hpp"
#include "check_soft.hpp"
#include "check_tasks.hpp"
#include "tempcert/beta.hpp"
#include "tempcert/enumerate.hpp"
#include "tempcert/error.hpp"
#include "tempcert/mask.hpp"
#include "tempcert/printable.hpp"

#include <algorithm>

namespace tempcert {

namespace {

using namespace check;

// ---- the claim's parameters ----------------------------------------------

struct Claim {
    std::size_t n = 0;
    Rational eps;
    std::string criterion, verdict;
    BetaSpec beta;
};

Claim read_claim(const OJson &cert, const Model &m, const Limits &limits) {
    only_keys(cert, "$",
              {"format", "tool", "model", "n", "eps", "criterion", "method", "beta", "gaps",
               "verdict", "counterexample", "words_checked", "proofs"});
    Claim c;
    std::uint64_t n = count(cert, "$", "n");
    if (n < 1 || n > limits.max_n)
        reject("$.n", "expected 1 <= n <= " + std::to_string(limits.max_n));
    if (m.max_length && n > *m.max_length)
        reject("$.n", "the model is defined up to length " + std::to_string(*m.max_length));
    c.n = static_cast<std::size_t>(n);
    c.eps = exact(cert, "$", "eps");
    if (c.eps <= 0 || c.eps >= 1) reject("$.eps", "expected 0 < eps < 1, got " + to_string(c.eps));
    c.criterion = text(cert, "$", "criterion");
    if (c.criterion != "tv" && c.criterion != "output" && c.criterion != "decision")
        reject("$.criterion", "unknown criterion \"" + c.criterion + "\"");
    c.verdict = text(cert, "$", "verdict");
    std::string spec = text(field(cert, "$", "beta"), "$.beta", "spec");
    try {
        c.beta = BetaSpec::parse(spec, m.layers.size(), "$.beta.spec");
    } catch (const InputError &e) {
        reject("$.beta.spec", e.what());
    }
    return c;
}

// ---- gaps: every head's minimum gap, witness and tie, by an own scan -------

// Words in the order certificates name them: by length, then symbol by symbol.
bool word_before(const Word &a, const Word &b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
}

// Folds one word's queries (all of them, or the ones its last position
// adds) into the facts: the least gap, the first word attaining it (and its
// first query attaining it), the first word showing a tie.
void fold_gaps(const Model &m, const Word &w, const Trace &t, std::vector<HeadFacts> &facts) {
    std::size_t idx = 0;
    for (std::size_t l = 0; l < t.layers.size(); ++l)
        for (std::size_t h = 0; h < t.layers[l].heads.size(); ++h, ++idx) {
            HeadFacts &f = facts[idx];
            bool tie_seen = false, gap_seen = false;
            for (const auto &q : t.layers[l].heads[h].queries) {
                if (!tie_seen && m.layers[l].heads[h].kind != AttnKind::Average &&
                    q.argmax.size() > 1 && !q.ties_share_value &&
                    (f.tie.empty() || word_before(w, f.tie))) {
                    tie_seen = true;
                    f.tie = w;
                    f.tie_query = q.query;
                    f.tie_argmax = q.argmax;
                    f.tie_runner_up = q.runner_up;
                }
                if (!q.gap) continue;
                if (!q.gap->is_exact())
                    throw LimitError("$.gaps: the model has irrational gaps; the fast checker "
                                     "verifies exact gaps only (tempcert check verifies sqrt "
                                     "features)");
                const Rational &g = q.gap->exact();
                bool better = !f.min_gap || g < *f.min_gap ||
                              (g == *f.min_gap && !gap_seen && word_before(w, f.witness));
                if (!better) continue;
                gap_seen = true;
                f.min_gap = g;
                f.witness = w;
                f.witness_query = q.query;
                f.witness_argmax = q.argmax;
                f.witness_runner_up = q.runner_up;
            }
        }
}

// Folds facts found on other words into `into`, as fold_gaps would have.
void merge_facts(const std::vector<HeadFacts> &part, std::vector<HeadFacts> &into) {
    for (std::size_t i = 0; i < part.size(); ++i) {
        const HeadFacts &p = part[i];
        HeadFacts &f = into[i];
        if (!p.tie.empty() && (f.tie.empty() || word_before(p.tie, f.tie))) {
            f.tie = p.tie;
            f.tie_query = p.tie_query;
            f.tie_argmax = p.tie_argmax;
            f.tie_runner_up = p.tie_runner_up;
        }
        if (p.min_gap && (!f.min_gap || *p.min_gap < *f.min_gap ||
                          (*p.min_gap == *f.min_gap && word_before(p.witness, f.witness)))) {
            f.min_gap = p.min_gap;
            f.witness = p.witness;
            f.witness_query = p.witness_query;
            f.witness_argmax = p.witness_argmax;
            f.witness_runner_up = p.witness_runner_up;
        }
    }
}

std::vector<HeadFacts> scan_gaps(const Model &m, std::size_t n, const Limits &limits,
                                 const PrecisionPolicy &policy) {
    std::vector<HeadFacts> facts;
    for (const auto &layer : m.layers)
        for (const auto &head : layer.heads) {
            facts.emplace_back();
            facts.back().N = max_allowed(head.mask, n, m.has_bos());
        }
    if (prefix_walk_applies(m, nullptr)) {
        std::vector<std::vector<HeadFacts>> parts(1, facts);
        try {
            walk_words(
                m, n, nullptr, policy.start, false, nullptr, limits,
                [&](std::size_t count) { parts.resize(count, facts); },
                [&](std::size_t task, const Word &w, const Trace &hard, const Trace &) {
                    fold_gaps(m, w, hard, parts[task]);
                    return true;
                },
                check::TaskParts{&parts, nullptr});
            for (const auto &part : parts)
                merge_facts(part, facts);
            return facts;
        } catch (const Undecided &) {
            // irrational features: whole words at rising precision, below
        }
    }
    for_each_word(m.alphabet.size(), n, [&](const Word &w) {
        check_budget(limits);
        fold_gaps(m, w, evaluate_hard(m, w, policy), facts);
        return true;
    });
    return facts;
}

void compare_place(const OJson &doc, const std::string &p, const Model &m, std::size_t layer,
                   std::size_t head, const Word &w, std::size_t query,
                   const std::vector<std::size_t> &argmax,
                   const std::optional<std::size_t> &runner_up) {
    only_keys(doc, p, {"word", "layer", "head", "query", "argmax", "runner_up"});
    std::string word = format_word(w, m.alphabet);
    if (text(doc, p, "word") != word)
        reject(p + ".word", "claims " + text(doc, p, "word") + ", the first such word is " + word);
    same_count(doc, p, "layer", layer);
    same_count(doc, p, "head", head);
    same_count(doc, p, "query", query);
    OJson want_argmax = argmax;
    if (field(doc, p, "argmax") != want_argmax)
        reject(p + ".argmax",
               "claims " + field(doc, p, "argmax").dump() + ", recomputed " + want_argmax.dump());
    OJson want_runner = runner_up ? OJson(*runner_up) : OJson(nullptr);
    if (field(doc, p, "runner_up") != want_runner)
        reject(p + ".runner_up", "claims " + field(doc, p, "runner_up").dump() + ", recomputed " +
                                     want_runner.dump());
}

// One head's claims: identity, gap, N, witness, tie, its Lemma GT bound.
void compare_head(const OJson &h, const std::string &p, const Model &m, std::size_t layer,
                  std::size_t head, const HeadFacts &f, const Rational &eps,
                  const PrecisionPolicy &policy) {
    only_keys(h, p,
              {"layer", "head", "kind", "mask", "min_gap", "N", "witness", "ties", "beta_gap_up",
               "beta_gap_decimal_up"});
    const Head &model_head = m.layers[layer - 1].heads[head - 1];
    same_count(h, p, "layer", layer);
    same_count(h, p, "head", head);
    same_text(h, p, "kind", to_string(model_head.kind));
    same_text(h, p, "mask", to_string(model_head.mask));
    same_gap(h, p, "min_gap", f.min_gap);
    same_count(h, p, "N", f.N);
    const OJson &wit = field(h, p, "witness");
    if (f.min_gap) {
        compare_place(wit, p + ".witness", m, layer, head, f.witness, f.witness_query,
                      f.witness_argmax, f.witness_runner_up);
    } else if (!wit.is_null()) {
        reject(p + ".witness", "present for an infinite gap");
    }
    const OJson &tie = field(h, p, "ties");
    if (!f.tie.empty())
        compare_place(tie, p + ".ties", m, layer, head, f.tie, f.tie_query, f.tie_argmax,
                      f.tie_runner_up);
    else if (!tie.is_null())
        reject(p + ".ties", "claims a tie between different values; there is none");
    LemmaGt gt{f.N, f.min_gap, eps};
    rounded_up(h, p, "beta_gap_up", gt, policy);
    rounded_up(h, p, "beta_gap_decimal_up", gt, policy);
}

// Compares the certificate's gaps with the scan; returns the heads' bounds.
std::vector<LemmaGt> compare_gaps(const OJson &cert, const Model &m, const Claim &c,
                                  const Limits &limits, const PrecisionPolicy &policy) {
    std::vector<HeadFacts> facts = scan_gaps(m, c.n, limits, policy);
    const OJson &gaps = field(cert, "$", "gaps");
    only_keys(gaps, "$.gaps", {"min_gap", "heads"});
    const OJson &heads = field(gaps, "$.gaps", "heads");
    if (!heads.is_array() || heads.size() != facts.size())
        reject("$.gaps.heads",
               "expected one entry per head (" + std::to_string(facts.size()) + ")");
    std::vector<LemmaGt> bounds;
    std::optional<Rational> model_min;
    std::size_t idx = 0;
    for (std::size_t l = 0; l < m.layers.size(); ++l)
        for (std::size_t h = 0; h < m.layers[l].heads.size(); ++h, ++idx) {
            const HeadFacts &f = facts[idx];
            compare_head(heads[idx], "$.gaps.heads[" + std::to_string(idx) + "]", m, l + 1, h + 1,
                         f, c.eps, policy);
            bounds.push_back(LemmaGt{f.N, f.min_gap, c.eps});
            if (f.min_gap) model_min = model_min ? std::min(*model_min, *f.min_gap) : *f.min_gap;
        }
    same_gap(gaps, "$.gaps", "min_gap", model_min);
    return bounds;
}

// ---- beta: a "beta_gap" certificate certifies Lemma GT's bound -------------

void check_beta(const OJson &cert, const Claim &c, const std::vector<LemmaGt> &bounds,
                const PrecisionPolicy &policy) {
    const OJson &beta = field(cert, "$", "beta");
    std::string source = text(beta, "$.beta", "source");
    if (source == "user") {
        only_keys(beta, "$.beta", {"spec", "source"});
        return;
    }
    if (source != "beta_gap") reject("$.beta.source", "expected \"beta_gap\" or \"user\"");
    only_keys(beta, "$.beta", {"spec", "source", "exact", "decimal_up", "tau_decimal_down"});
    // the binding head: the largest bound (decided on enclosures)
    std::optional<LemmaGt> top = largest_bound(bounds, policy);
    std::string spec = text(beta, "$.beta", "spec");
    if (!top) {
        // no head needs a beta: the certifier states beta = 1
        same_text(beta, "$.beta", "spec", "1");
        same_text(beta, "$.beta", "exact", "0");
        same_text(beta, "$.beta", "decimal_up", "0");
        same_text(beta, "$.beta", "tau_decimal_down", "inf");
        return;
    }
    same_text(beta, "$.beta", "exact", top->exact_text());
    rounded_up(beta, "$.beta", "spec", *top, policy);
    rounded_up(beta, "$.beta", "decimal_up", *top, policy);
    rounded_down_reciprocal(beta, "$.beta", "tau_decimal_down", *top, policy);
    (void)c;
}

// ---- the verdict: every word (certified) or the counterexample (refuted) ---

// Raises the precision from policy.start to policy.cap until `judge` (on the
// soft trace at that precision) decides; returns its last answer.
template <class Judge>
Tri at_rising_precision(const Model &m, const Word &w, const Claim &c, const Trace &hard,
                        const Limits &limits, const PrecisionPolicy &policy, Judge &&judge) {
    Tri t = Tri::Unknown;
    for (Prec prec = policy.start;; prec *= 2) {
        if (prec > policy.cap) prec = policy.cap;
        try {
            std::vector<Real> betas;
            for (std::size_t l = 0; l < m.layers.size(); ++l)
                betas.push_back(c.beta.at(l, w.size(), prec));
            t = judge(soft_trace(m, w, betas, hard, prec, &limits), prec);
        } catch (const Undecided &) {
            t = Tri::Unknown;
        }
        if (t != Tri::Unknown || prec >= policy.cap) return t;
    }
}

void check_certified(const OJson &cert, const Model &m, const Claim &c, const Limits &limits,
                     const PrecisionPolicy &policy, CheckOutcome &out) {
    if (!field(cert, "$", "counterexample").is_null())
        reject("$.counterexample", "present in a certified certificate");
    const std::uint64_t words = count_words(m.alphabet.size(), c.n);
    same_count(cert, "$", "words_checked", words);
    // the whole word at rising precision: the reference path
    auto judge_whole = [&](const Word &w, std::string &where) {
        Trace hard = evaluate_hard(m, w, policy);
        return at_rising_precision(m, w, c, hard, limits, policy, [&](const Trace &soft, Prec p) {
            return judge_word(hard, soft, c.eps, c.criterion, p, where);
        });
    };
    std::optional<std::string> by_prefix = judge_words_by_prefix(
        m, c.n, c.eps, c.criterion, c.beta, limits, policy, out.words, judge_whole);
    std::string failure = by_prefix.value_or("");
    if (!by_prefix)
        for_each_word(m.alphabet.size(), c.n, [&](const Word &w) {
            check_budget(limits);
            limits.progress(out.words, words);
            std::string where;
            Tri t = judge_whole(w, where);
            ++out.words;
            if (t == Tri::True) return true;
            failure = "on word " + format_word(w, m.alphabet) + ", " + where +
                      (t == Tri::False ? " violates eps " : " cannot be shown within eps ") +
                      to_string(c.eps);
            return false;
        });
    if (!failure.empty()) reject("$.verdict", "claims certified, but " + failure);
}

void check_refuted(const OJson &cert, const Model &m, const Claim &c, const Limits &limits,
                   const PrecisionPolicy &policy, CheckOutcome &out) {
    if (cert.contains("words_checked"))
        reject("$.words_checked",
               "not a claim of a refuted certificate (it depends on the search)");
    const OJson &cx = field(cert, "$", "counterexample");
    const std::string p = "$.counterexample";
    if (!cx.is_object()) reject(p, "missing in a refuted certificate");
    Word w;
    try {
        w = parse_word(text(cx, p, "word"), m.alphabet, p + ".word");
    } catch (const InputError &e) {
        reject(p + ".word", e.what());
    }
    if (w.size() > c.n) reject(p + ".word", "longer than n");
    Trace hard = evaluate_hard(m, w, policy);
    Place place = read_place(cx, p, c.criterion, hard);
    check_hard_value(cx, p, hard, place, c.criterion);
    std::string where;
    Tri t = at_rising_precision(m, w, c, hard, limits, policy, [&](const Trace &soft, Prec prec) {
        return judge_place(cx, p, hard, soft, c.eps, c.criterion, place, prec, where,
                           prec >= policy.cap);
    });
    ++out.words;
    if (t != Tri::False)
        reject(p, "the word " + format_word(w, m.alphabet) + " does not violate the criterion" +
                      (where.empty() ? std::string() : " at " + where));
}

void verify_exhaustive(const OJson &cert, const Model &m, const Claim &c, const Limits &limits,
                       const PrecisionPolicy &policy, CheckOutcome &out) {
    check_word_budget(m.alphabet.size(), c.n, limits.max_words);
    same_list(cert, "$", "proofs",
              {"proofs/certificate.md", "proofs/lemma-gt.md", "proofs/softmax-enclosure.md"});
    std::vector<LemmaGt> bounds = compare_gaps(cert, m, c, limits, policy);
    check_beta(cert, c, bounds, policy);
    if (c.verdict == "certified")
        check_certified(cert, m, c, limits, policy, out);
    else if (c.verdict == "refuted")
        check_refuted(cert, m, c, limits, policy, out);
    else if (c.verdict == "undecided")
        reject("$.verdict", "an undecided certificate claims nothing to verify");
    else
        reject("$.verdict", "expected certified or refuted, got \"" + c.verdict + "\"");
}

void verify(const OJson &cert, const Model &m, const Limits &limits, const PrecisionPolicy &policy,
            CheckOutcome &out) {
    if (!cert.is_object()) malformed("$", "expected a JSON object");
    if (std::string format = text(cert, "$", "format"); format != "tempcert-certificate/1")
        malformed("$.format",
                  "claims \"" + abbreviated(format) + "\", expected \"tempcert-certificate/1\"");
    if (text(cert, "$", "tool").rfind("tempcert ", 0) != 0)
        reject("$.tool", "expected \"tempcert VERSION\"");
    const OJson &model = field(cert, "$", "model");
    only_keys(model, "$.model", {"name", "sha256", "file"});
    std::string want = text(model, "$.model", "sha256"), got = model_sha256(m);
    if (want != got)
        reject("$.model.sha256",
               "the certificate is for model " + want + ", the model given has SHA-256 " + got);
    same_text(model, "$.model", "name", m.name);
    text(model, "$.model", "file"); // where it was read from: a string, not a claim
    std::string method = text(cert, "$", "method");
    out.method = method;
    if (method == "layerwise" || method == "layerwise-perturbation") {
        std::uint64_t n = count(cert, "$", "n");
        if (n < 1 || n > limits.max_n)
            reject("$.n", "expected 1 <= n <= " + std::to_string(limits.max_n));
        if (m.max_length && n > *m.max_length)
            reject("$.n", "the model is defined up to length " + std::to_string(*m.max_length));
        Rational eps = exact(cert, "$", "eps");
        if (eps <= 0 || eps >= 1) reject("$.eps", "expected 0 < eps < 1, got " + to_string(eps));
        if (method == "layerwise")
            check::verify_layerwise(cert, m, static_cast<std::size_t>(n), eps,
                                    text(cert, "$", "criterion"), limits, policy);
        else
            check::verify_perturbation(cert, m, static_cast<std::size_t>(n), eps,
                                       text(cert, "$", "criterion"), limits, policy);
        return;
    }
    if (method != "exhaustive" && method != "exhaustive-prefix")
        reject("$.method",
               "\"" + method + "\" is not a method whose claims this checker re-verifies");
    verify_exhaustive(cert, m, read_claim(cert, m, limits), limits, policy, out);
}

} // namespace

std::string malformed_certificate_message(const std::string &cert_path, const std::string &reason) {
    if (reason.rfind(cert_path, 0) == 0) return reason;
    return cert_path + ": " + reason;
}

std::string verdict_line(const std::string &cert_path, const CheckOutcome &out) {
    // the fast (large) checker never says VERIFIED: that word is the small
    // checker's (docs/certificates.md, "Two checkers")
    if (!out.accepted) return "c fast check failed " + cert_path + ": " + printable(out.reason);
    std::string what =
        out.method == "layerwise"
            ? "layerwise argument recomputed: value sets, gaps, rounding checks; no enumeration"
        : out.method == "layerwise-perturbation"
            ? "perturbation argument recomputed: value sets, gaps, score deviations, TV bounds, "
              "radii; no enumeration"
            : std::to_string(out.words) + " words re-evaluated";
    return "c fast check passed " + cert_path + " (" + what + ")" +
           (out.claim.empty() ? "" : ": " + printable(out.claim));
}

namespace {

// The verified claim in words, from fields verify() has read and checked.
std::string claim_of(const OJson &cert) {
    auto field = [&](const OJson &obj, const char *key) {
        auto it = obj.find(key);
        if (it == obj.end()) return std::string("?");
        return it->is_string() ? it->get<std::string>() : it->dump();
    };
    const OJson &model = cert.at("model"), &beta = cert.at("beta");
    return field(cert, "verdict") + ": model " + field(model, "name") + " sha256 " +
           field(model, "sha256") + ", n <= " + field(cert, "n") + ", eps " + field(cert, "eps") +
           ", criterion " + field(cert, "criterion") + ", beta " + field(beta, "spec") + ", " +
           field(cert, "method") + " certificate";
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
        out.malformed = true;
        return out;
    }
    try {
        verify(cert, m, limits, policy, out);
        out.accepted = true;
        out.claim = claim_of(cert);
    } catch (const Reject &r) {
        out.reason = r.reason;
        out.malformed = r.malformed;
    }
    return out;
}

CheckOutcome check_certificate(const std::string &cert_path, const std::string &model_path,
                               const Limits &limits, const PrecisionPolicy &policy) {
    Model m = load_model_file(model_path, limits);
    std::string text;
    try {
        text = read_text_file(cert_path, limits.max_file_bytes, &limits);
    } catch (const InputError &e) {
        CheckOutcome out;
        out.reason = e.message();
        out.malformed = true;
        return out;
    }
    return check_certificate_text(text, cert_path, m, limits, policy);
}

} // namespace tempcert
