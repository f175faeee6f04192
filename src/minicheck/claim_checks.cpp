// Comparing claims with re-derived facts; see claim_checks.hpp.
#include "claim_checks.hpp"

namespace minicheck {
namespace {
const Q kRelative(1, 1000000000); // a rounding may exceed the value by 1e-9 relative ...
Q absolute_slack() {              // ... plus 1e-30
    return Q(1) / Q(mpz_class("1" + std::string(30, '0'), 10));
}
} // namespace

Q exact_at(const Json &obj, const std::string &path, const char *key) {
    auto q = parse_number(text_at(obj, path, key), false);
    if (!q) malformed(std::string(path) + "." + key, "expected an exact number \"p/q\"");
    return *q;
}

void same(bool equal, const std::string &path, const std::string &claimed,
          const std::string &recomputed) {
    if (!equal) rejected(path, "claims " + claimed.substr(0, 200) + ", recomputed " + recomputed);
}

void same_at(const Json &obj, const std::string &path, const char *key, const Json &want) {
    auto shown = [](const Json &j) { return j.is_string() ? j.get<std::string>() : j.dump(); };
    same(at(obj, path, key) == want, path + "." + key, shown(at(obj, path, key)), shown(want));
}

void same_count(const Json &obj, const std::string &path, const char *key, std::size_t want) {
    same(count_at(obj, path, key) == want, path + "." + key, at(obj, path, key).dump(),
         std::to_string(want));
}

SqrtSum exact_form_at(const Json &obj, const std::string &path, const char *key) {
    const std::string where = path + "." + key, text = text_at(obj, path, key);
    if (auto q = parse_number(text, false)) return *q;
    Expr e = Expr::parse(text, where);
    if (e.uses(Expr::Op::J) || e.uses(Expr::Op::N) || e.uses(Expr::Op::Log))
        malformed(where, "expected an exact number, or a constant with sqrt");
    return e.exact_sum(0, 0, where);
}

std::pair<Q, Q> enclosure_at(const Json &obj, const std::string &path, const char *key) {
    const Json &v = at(obj, path, key);
    std::optional<Q> lo, hi;
    if (v.is_string()) lo = hi = parse_number(v.get<std::string>());
    if (v.is_array() && v.size() == 2 && v[0].is_string() && v[1].is_string()) {
        lo = parse_number(v[0].get<std::string>());
        hi = parse_number(v[1].get<std::string>());
    }
    const std::string where = path + "." + key;
    if (!lo || !hi) malformed(where, "expected \"p/q\" or [\"lo\", \"hi\"], exact numbers");
    if (*lo > *hi) rejected(where, "its lower end is above its upper");
    return {*lo, *hi};
}

void compare_gap(const Json &obj, const std::string &path, const std::optional<SqrtSum> &want) {
    const std::string got = text_at(obj, path, "min_gap"), p = path + ".min_gap_enclosure";
    if (got == "inf" || !want)
        return same(!want && got == "inf", path + ".min_gap", got, want ? want->text() : "inf");
    same(exact_form_at(obj, path, "min_gap") == *want, path + ".min_gap", got, want->text());
    if (want->rational()) // an irrational gap has its enclosure [lo, hi] beside it
        return same(!obj.contains("min_gap_enclosure"), p, "one", "none (a rational gap)");
    const auto [lo, hi] = enclosure_at(obj, path, "min_gap_enclosure");
    if (*want < lo || SqrtSum(hi) < *want) rejected(p, "does not contain the gap " + want->text());
}

void rounded_up(const Json &obj, const std::string &path, const char *key, const LemmaGt &b,
                long cap) {
    Q c = exact_at(obj, path, key);
    if (!b.needed()) {
        same(c == 0, path + "." + key, to_text(c), "0 (no beta is needed)");
        return;
    }
    at_rising_precision(cap, path + "." + key, b.text() + " rounded up", [&](long prec) {
        Iv v = b.enclose(prec);
        if (!v.finite()) return Tri::Unknown;
        Q lo = v.lower(), hi = v.upper();
        if (c < lo || c > hi * (1 + kRelative) + absolute_slack()) return Tri::False;
        return c >= hi && c <= lo * (1 + kRelative) + absolute_slack() ? Tri::True : Tri::Unknown;
    });
}

void reciprocal_rounded_down(const Json &obj, const std::string &path, const char *key,
                             const LemmaGt &b, long cap) {
    Q c = exact_at(obj, path, key);
    at_rising_precision(cap, path + "." + key, "1/(" + b.text() + ") rounded down", [&](long prec) {
        Iv v = Iv(1, prec) / b.enclose(prec);
        if (!v.finite()) return Tri::Unknown;
        Q lo = v.lower(), hi = v.upper();
        if (c > hi || c < lo * (1 - kRelative) - absolute_slack()) return Tri::False;
        return c <= lo && c >= hi * (1 - kRelative) - absolute_slack() ? Tri::True : Tri::Unknown;
    });
}

std::string check_binding(const Json &cert, const Model &m) {
    require_object(cert, "$");
    if (text_at(cert, "$", "format") != "tempcert-certificate/1")
        malformed("$.format", "expected \"tempcert-certificate/1\"");
    if (text_at(cert, "$", "tool").rfind("tempcert ", 0) != 0)
        rejected("$.tool", "expected \"tempcert VERSION\"");
    const Json &model = at(cert, "$", "model");
    only_keys(model, "$.model", {"name", "sha256", "file"});
    std::string sha = text_at(model, "$.model", "sha256");
    same(sha == m.sha256, "$.model.sha256", sha, m.sha256 + " (the model given)");
    same_at(model, "$.model", "name", m.name);
    text_at(model, "$.model", "file"); // provenance, not a claim
    return text_at(cert, "$", "method");
}

Claim read_claim(const Json &cert, const Model &m) {
    Claim c;
    std::uint64_t n = count_at(cert, "$", "n");
    if (n < 1) rejected("$.n", "expected n >= 1");
    if (m.max_length && n > *m.max_length)
        rejected("$.n", "the model is defined up to length " + std::to_string(*m.max_length));
    if (n > (std::uint64_t(1) << 40)) unsupported("$.n", "above 2^40");
    c.n = static_cast<std::size_t>(n);
    c.eps = exact_at(cert, "$", "eps");
    if (c.eps <= 0 || c.eps >= 1) rejected("$.eps", "expected 0 < eps < 1");
    c.criterion = text_at(cert, "$", "criterion");
    if (c.criterion != "tv" && c.criterion != "output" && c.criterion != "decision")
        rejected("$.criterion", "expected tv, output or decision");
    return c;
}

std::vector<Expr> read_betas(const Json &cert, const Model &m) {
    std::string spec = text_at(at(cert, "$", "beta"), "$.beta", "spec");
    std::vector<Expr> out;
    for (std::size_t start = 0;;) {
        std::size_t comma = spec.find(',', start);
        out.push_back(Expr::parse(spec.substr(start, comma - start), "$.beta.spec"));
        if (out.back().uses(Expr::Op::J)) malformed("$.beta.spec", "beta may not depend on j");
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (out.size() != 1 && out.size() != m.layers.size())
        malformed("$.beta.spec", "expected one beta or one per layer");
    return out;
}

void require_positive(const Expr &beta, long cap, const std::string &path) {
    if (beta.rational()) {
        const Q b = beta.exact(0, 1, path);
        same(b > 0, path, to_text(b), "a positive beta");
        return;
    }
    at_rising_precision(cap, path, "shown positive", [&](long prec) {
        Iv b = beta.enclose(1, prec, path);
        if (b.above(0)) return Tri::True;
        return b.at_most(0) ? Tri::False : Tri::Unknown;
    });
}
} // namespace minicheck
