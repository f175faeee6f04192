// export coq: see include/engine/tempcert/export_coq.hpp. The file it writes is
// read by Coq alone, so everything the claim is about (the model, beta,
// eps, n) is written from the model and the certificate, not from anything
// tempcert computed; what tempcert computed (the gap table) is proved in the
// file or, if wrong, makes the file fail to check.
#include "tempcert/export_coq.hpp"

#include "tempcert/check.hpp"
#include "tempcert/enumerate.hpp"
#include "tempcert/error.hpp"
#include "tempcert/expr.hpp"
#include "tempcert/interval.hpp"
#include "tempcert/model.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

namespace tempcert {

namespace {

// Bounds e >= e^(-beta g) are rounded up to this many bits and inflated by
// 2^-30 (relative), so that the interval tactic proves them at 80 bits;
// the check then needs that much slack below eps, which a certificate at
// its beta_gap has by far.
constexpr Prec kTableBits = 64;

struct Refusal {
    std::string place, what;
};

std::pair<std::string, std::string> num_den(const Rational &q) {
    std::string t = to_string(q);
    std::size_t slash = t.find('/');
    if (slash == std::string::npos) return {t, "1"};
    return {t.substr(0, slash), t.substr(slash + 1)};
}

std::string q_literal(const Rational &q) {
    auto [num, den] = num_den(q);
    if (den == "1") return num[0] == '-' ? "(" + num + ")" : num;
    return "((" + num + ") # " + den + ")";
}

std::string r_literal(const Rational &q) {
    auto [num, den] = num_den(q);
    if (den == "1") return "(IZR (" + num + "))";
    return "(IZR (" + num + ") / IZR (" + den + "))";
}

// + - * / and negation read alike over Q and over R (Coq's notations for
// both); nullopt for any other operation.
template <class SubA, class SubB>
std::optional<std::string> arithmetic(Expr::Op op, const SubA &a, const SubB &b) {
    switch (op) {
    case Expr::Op::Add:
        return "(" + a() + " + " + b() + ")";
    case Expr::Op::Sub:
        return "(" + a() + " - " + b() + ")";
    case Expr::Op::Mul:
        return "(" + a() + " * " + b() + ")";
    case Expr::Op::Div:
        return "(" + a() + " / " + b() + ")";
    case Expr::Op::Neg:
        return "(- " + a() + ")";
    default:
        return std::nullopt;
    }
}

// A positional feature over Q: j and n are the function's parameters. The
// model is rational (check_model), so no log or sqrt is left.
std::string q_term(const Expr &e, int i) {
    const Expr::Node &x = e.nodes().at(static_cast<std::size_t>(i));
    auto a = [&] { return q_term(e, x.a); };
    auto b = [&] { return q_term(e, x.b); };
    if (auto infix = arithmetic(x.op, a, b)) return *infix;
    switch (x.op) {
    case Expr::Op::Number:
        return q_literal(x.value);
    case Expr::Op::J:
        return "j";
    case Expr::Op::N:
        return "n";
    case Expr::Op::Pow:
        return "(Qpower " + a() + " (" + std::to_string(x.exponent) + ")%Z)";
    case Expr::Op::Delta:
        return "(if Qeq_bool " + a() + " 0 then 1 else 0)";
    case Expr::Op::Log:
    case Expr::Op::Sqrt:
    default: // the arithmetic above
        break;
    }
    throw std::logic_error("export coq: an irrational feature passed check_model");
}

// Beta over R: a constant expression (log and sqrt allowed).
std::string r_term(const Expr &e, int i) {
    const Expr::Node &x = e.nodes().at(static_cast<std::size_t>(i));
    auto a = [&] { return r_term(e, x.a); };
    auto b = [&] { return r_term(e, x.b); };
    if (auto infix = arithmetic(x.op, a, b)) return *infix;
    switch (x.op) {
    case Expr::Op::Number:
        return r_literal(x.value);
    case Expr::Op::Pow:
        return x.exponent >= 0 ? "(" + a() + " ^ " + std::to_string(x.exponent) + ")"
                               : "(/ (" + a() + " ^ " + std::to_string(-x.exponent) + "))";
    case Expr::Op::Log:
        return "(ln " + a() + ")";
    case Expr::Op::Sqrt:
        return "(sqrt " + a() + ")";
    case Expr::Op::J:
    case Expr::Op::N:
    case Expr::Op::Delta:
    default: // the arithmetic above
        break;
    }
    throw Refusal{"$.beta.spec", "depends on the position or the length: the export writes a "
                                 "constant beta"};
}

std::string q_vector(const Vector &v) {
    std::string out = "[";
    for (std::size_t c = 0; c < v.size(); ++c)
        out += (c ? "; " : "") + q_literal(v[c]);
    return out + "]";
}

std::string q_matrix(const Matrix &m) {
    std::string out = "[";
    for (std::size_t r = 0; r < m.size(); ++r)
        out += (r ? ";\n    " : "") + q_vector(m[r]);
    return out + "]";
}

const char *mask_name(Mask mask) {
    switch (mask) {
    case Mask::None:
        return "none (every position)";
    case Mask::Causal:
        return "causal (j <= i)";
    case Mask::Strict:
        return "strict (j < i)";
    case Mask::Future:
        return "future (j >= i)";
    case Mask::StrictFuture:
        return "strict future (j > i)";
    }
    return "";
}

std::string mask_test(Mask mask) {
    switch (mask) {
    case Mask::None:
        return "true";
    case Mask::Causal:
        return "Nat.leb j i";
    case Mask::Strict:
        return "Nat.ltb j i";
    case Mask::Future:
        return "Nat.leb i j";
    case Mask::StrictFuture:
        return "Nat.ltb i j";
    }
    return "false";
}

// Every gap max - s below the maximum of some query of some head, over
// every word of length 1..n (the same words the file's check enumerates).
std::set<Rational> gaps_that_occur(const Model &m, std::size_t n, const Limits &limits,
                                   const PrecisionPolicy &policy, std::uint64_t &words) {
    std::set<Rational> gaps;
    check_word_budget(m.alphabet.size(), n, limits.max_words);
    for_each_word(m.alphabet.size(), n, [&](const Word &w) {
        check_budget(limits);
        ++words;
        Trace t = evaluate_hard(m, w, policy);
        for (const auto &head : t.layers.at(0).heads)
            for (const auto &q : head.queries) {
                if (q.scores.empty()) continue;
                Rational top = q.scores.front().exact();
                for (const auto &s : q.scores)
                    top = std::max(top, s.exact());
                for (const auto &s : q.scores)
                    if (s.exact() < top) gaps.insert(top - s.exact());
            }
        return true;
    });
    return gaps;
}

// e >= e^(-beta g) (1 + 2^-30), rounded up at kTableBits.
Rational exp_bound(const Expr &beta, std::size_t n, const Rational &g) {
    Interval b =
        beta.eval(Rational(0), Rational(static_cast<long>(n)), kTableBits).enclose(kTableBits);
    Interval v = exp(neg(mul(b, g, kTableBits)), kTableBits);
    Rational inflate = 1 + Rational(1, 1 << 30);
    return mul(v, inflate, kTableBits).upper_exact();
}

struct Claim {
    std::size_t n = 0;
    Rational eps;
    std::string beta_spec;
};

Claim read_claim(const std::string &cert_text) {
    auto j = nlohmann::json::parse(cert_text);
    auto need = [&](const char *key, const std::string &want) {
        std::string got = j.at(key).get<std::string>();
        if (got != want)
            throw Refusal{std::string("$.") + key,
                          "is \"" + got + "\"; the export writes " + want + " certificates"};
    };
    need("verdict", "certified");
    need("criterion", "tv");
    std::string method = j.at("method").get<std::string>();
    if (method != "exhaustive" && method != "exhaustive-prefix")
        throw Refusal{"$.method", "is \"" + method +
                                      "\"; the export writes exhaustive certificates (every word "
                                      "enumerated in Coq)"};
    Claim c;
    c.n = j.at("n").get<std::size_t>();
    std::string why;
    c.eps = *parse_rational(j.at("eps").get<std::string>(), why, 4000);
    c.beta_spec = j.at("beta").at("spec").get<std::string>();
    return c;
}

void check_model(const Model &m) {
    if (m.layers.size() != 1)
        throw Refusal{"$.layers", "has " + std::to_string(m.layers.size()) +
                                      " layers; the export writes single-layer models"};
    if (m.layers[0].heads.empty()) throw Refusal{"$.layers[0].heads", "is empty: nothing to prove"};
    if (!m.is_rational())
        throw Refusal{"$.positions", "uses log or sqrt: the export writes rational features only"};
}

// The model's exact scores: embeddings, features, every head's scores.
void write_model(std::ostringstream &f, const Model &m) {
    f << "Open Scope Q_scope.\n\n(* symbols:";
    for (std::size_t a = 0; a < m.alphabet.size(); ++a)
        f << (a ? ", " : " ") << a << " = " << m.alphabet[a];
    f << " *)\nDefinition symbols : nat := " << m.alphabet.size() << ".\n";
    f << "Definition embedding (a : nat) : list Q :=\n  nth a [";
    for (std::size_t a = 0; a < m.alphabet.size(); ++a)
        f << (a ? ";\n    " : "") << q_vector(m.embedding.at(m.alphabet[a]));
    f << "] [].\n";
    if (m.bos)
        f << "Definition bos_embedding : list Q := " << q_vector(m.embedding.at(*m.bos)) << ".\n";
    // positional features: each coordinate the sum of the features on it
    std::vector<std::string> coord(m.width, "");
    for (const auto &p : m.positions) {
        std::string term = q_term(p.expr, p.expr.root());
        coord[p.dim] = coord[p.dim].empty() ? term : "(" + coord[p.dim] + " + " + term + ")";
    }
    f << "Definition features (j n : Q) : list Q := [";
    for (std::size_t c = 0; c < m.width; ++c)
        f << (c ? "; " : "") << (coord[c].empty() ? "0" : coord[c]);
    f << "].\n";
    const std::size_t first = m.has_bos() ? 0 : 1;
    f << "(* position j of word w: its symbol's embedding (BOS at 0) plus the features at j, n *)\n"
      << "Definition activation (w : list nat) (j : nat) : list Q :=\n  qvadd ("
      << (m.has_bos() ? "if Nat.eqb j 0 then bos_embedding else " : "")
      << "embedding (nth (j - 1) w 0%nat))\n"
      << "    (features (inject_Z (Z.of_nat j)) (inject_Z (Z.of_nat (length w)))).\n"
      << "Definition first_position : nat := " << first << ".\n\n";
    for (std::size_t h = 0; h < m.layers[0].heads.size(); ++h) {
        const Head &head = m.layers[0].heads[h];
        std::string id = std::to_string(h + 1);
        f << "(* head " << id << ": "
          << (head.kind == AttnKind::Average    ? "average"
              : head.kind == AttnKind::Leftmost ? "leftmost"
                                                : "rightmost")
          << " hard attention, mask " << mask_name(head.mask) << " *)\n"
          << "Definition query" << id << " : list (list Q) :=\n  " << q_matrix(head.query) << ".\n"
          << "Definition key" << id << " : list (list Q) :=\n  " << q_matrix(head.key) << ".\n"
          << "(* the scores W_Q x_i . W_K x_j of query i at its allowed positions j *)\n"
          << "Definition scores" << id << " (w : list nat) (i : nat) : list Q :=\n"
          << "  map (fun j => qdot (qmatvec query" << id << " (activation w i)) (qmatvec key" << id
          << " (activation w j)))\n"
          << "      (filter (fun j => " << mask_test(head.mask)
          << ") (seq first_position (S (length w) - first_position))).\n\n";
    }
    f << "Definition heads : list Head := [";
    for (std::size_t h = 0; h < m.layers[0].heads.size(); ++h)
        f << (h ? "; " : "") << "("
          << (m.layers[0].heads[h].kind == AttnKind::Average ? "false" : "true") << ", scores"
          << h + 1 << ")";
    f << "].\n";
}

void write_proof(std::ostringstream &f, const Model &m, const Claim &c, const Expr &beta,
                 const std::set<Rational> &gaps) {
    f << "Definition n_max : nat := " << c.n << ".\n"
      << "Definition eps : Q := " << q_literal(c.eps) << ".\n"
      << "(* e >= e^(-beta g) for each gap g that occurs; proved below *)\n"
      << "Definition table : list (Q * Q) := [";
    bool any = false;
    for (const Rational &g : gaps) {
        f << (any ? ";\n  " : "\n  ") << "(" << q_literal(g) << ", "
          << q_literal(exp_bound(beta, c.n, g)) << ")";
        any = true;
    }
    f << "].\nClose Scope Q_scope.\n\n"
      << "(* the certified inverse temperature ($.beta.spec: " << c.beta_spec << ") *)\n"
      << "Definition beta : R := " << r_term(beta, beta.root()) << ".\n\n"
      << "Lemma table_ok : exp_table_ok beta table.\n"
      << "Proof.\n  unfold exp_table_ok, table, beta.\n"
      << "  repeat (apply Forall_cons;\n"
      << "          [unfold Q2R; cbn [fst snd Qnum Qden]; interval with (i_prec 80) |]).\n"
      << "  apply Forall_nil.\nQed.\n\n"
      << "Lemma every_word_checked : instance_ok table eps first_position symbols n_max heads = "
         "true.\n"
      << "Proof. vm_compute. reflexivity. Qed.\n\n"
      << "Lemma eps_between : 0 < Q2R eps < 1.\n"
      << "Proof. unfold Q2R, eps. simpl. split; lra. Qed.\n";
    for (std::size_t h = 0; h < m.layers[0].heads.size(); ++h) {
        std::string id = std::to_string(h + 1);
        bool unique = m.layers[0].heads[h].kind != AttnKind::Average;
        f << "\n(* The certificate's claim for head " << id
          << (unique
                  ? " (with one maximal position, so the " +
                        std::string(m.layers[0].heads[h].kind == AttnKind::Leftmost ? "leftmost"
                                                                                    : "rightmost") +
                        "-hard weight is the average-hard one tv compares with)"
                  : "")
          << ". *)\nTheorem certified_head" << id << " : forall w,\n"
          << "  (1 <= length w <= n_max)%nat -> Forall (fun a => (a < symbols)%nat) w ->\n"
          << "  forall i, (first_position <= i <= length w)%nat ->\n"
          << "  forall mx, is_max mx (map Q2R (scores" << id << " w i)) ->\n"
          << "  tv beta mx (map Q2R (scores" << id << " w i)) <= Q2R eps"
          << (unique ? " /\\ count_max mx (map Q2R (scores" + id + " w i)) = 1%nat" : "") << ".\n"
          << "Proof.\n  intros w Hl Hw i Hi mx Hmx.\n"
          << "  pose proof (instance_sound beta table eps first_position symbols n_max heads "
             "table_ok\n"
          << "    eps_between every_word_checked w Hl Hw " << (unique ? "true" : "false")
          << " scores" << id << ") as H.\n"
          << "  destruct (H ltac:(simpl; auto 20) i Hi mx Hmx) as [Htv Hk].\n"
          << (unique ? "  split; [exact Htv | exact (Hk eq_refl)].\n" : "  exact Htv.\n")
          << "Qed.\n";
    }
}

} // namespace

CoqExport export_coq(const std::string &cert_path, const std::string &cert_text, const Model &m,
                     const Limits &limits, const PrecisionPolicy &policy) {
    CheckOutcome checked = check_certificate_text(cert_text, cert_path, m, limits, policy);
    if (!checked.accepted)
        throw InputError(cert_path, "",
                         "does not verify, so there is nothing to export: " + checked.reason);
    try {
        Claim c = read_claim(cert_text);
        check_model(m);
        Expr beta = Expr::parse(c.beta_spec);
        if (beta.uses_j() || beta.uses_n())
            throw Refusal{"$.beta.spec", "depends on n: the export writes a constant beta"};
        CoqExport out;
        out.heads = m.layers[0].heads.size();
        std::set<Rational> gaps = gaps_that_occur(m, c.n, limits, policy, out.words);
        out.gaps = gaps.size();
        std::ostringstream f;
        f << "(* Generated by tempcert " << TEMPCERT_VERSION << " export coq from " << cert_path
          << "\n   (model " << m.name << ", SHA-256 " << model_sha256(m) << ").\n"
          << "   The certificate's claim, proved from the model's exact weights: for every word\n"
          << "   over the alphabet of length 1.." << c.n
          << ", every head and every query, the total\n"
          << "   variation between softmax at beta and hard attention is at most eps.\n"
          << "   Check it with the proofs it uses (Coq 8.16, coq-interval):\n"
          << "     make -C proofs/coq && coqc -Q proofs/coq TempcertProofs THIS_FILE.v *)\n"
          << "From Coq Require Import Reals QArith Qreals List Lra.\n"
          << "From Interval Require Import Tactic.\n"
          << "From TempcertProofs Require Import Softmax Instance.\n"
          << "Import ListNotations.\n\n";
        write_model(f, m);
        write_proof(f, m, c, beta, gaps);
        out.text = f.str();
        return out;
    } catch (const Refusal &r) {
        bool about_model =
            r.place.rfind("$.layers", 0) == 0 || r.place.rfind("$.positions", 0) == 0;
        throw InputError(about_model ? m.source : cert_path, r.place, r.what);
    } catch (const ExprError &e) {
        throw InputError(cert_path, "$.beta.spec", e.what());
    }
}

} // namespace tempcert
