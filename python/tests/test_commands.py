"""The module answers exactly as the command line does, on every bundled
case: the same JSON documents, and typed values that equal them exactly."""

import json
import os
from fractions import Fraction

import pytest

import tempcert
from conftest import CASES, bundled_cases

CASE_IDS = [c["id"] for c in bundled_cases()]


def model_path(case_id):
    case = next(c for c in bundled_cases() if c["id"] == case_id)
    return os.path.join(CASES, case["model"])


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_gap_matches_cli(case_id, cli):
    path = model_path(case_id)
    code, want, _ = cli("gap", path, "--n", 6)
    got = tempcert.gap(tempcert.load_model(path), 6)
    assert code == 0
    assert got.json == want
    if want["min_gap"] == "inf":
        assert got.min_gap is None
    else:
        assert got.min_gap == Fraction(want["min_gap"])
        assert isinstance(got.min_gap, Fraction)


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_eval_matches_cli_and_language(case_id, cli):
    case = next(c for c in bundled_cases() if c["id"] == case_id)
    path = model_path(case_id)
    m = tempcert.load_model(path)
    for want_accept, words in ((True, case["words"]["accept"]), (False, case["words"]["reject"])):
        for w in words:
            code, want, _ = cli("eval", path, "--input", w, "--hard")
            got = tempcert.eval(m, w)
            assert code == 0
            assert got.json == want
            assert got.accept is want_accept, w
            assert got.y.exact is not None and isinstance(got.y.lo, Fraction)


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_certify_matches_cli(case_id, cli, tmp_path):
    case = next(c for c in bundled_cases() if c["id"] == case_id)
    path = model_path(case_id)
    beta = case["demo_beta"]
    cert = tmp_path / "cli.cert"
    code, want, _ = cli("certify", path, "--n", 5, "--eps", "1/100", "--beta", beta, "-o", cert)
    got = tempcert.certify(tempcert.load_model(path), 5, Fraction(1, 100), beta=beta)
    assert got.json == want
    assert got.verdict == want["verdict"]
    assert {"certified": 0, "refuted": 1, "undecided": 3}[got.verdict] == code
    if got.verdict != "undecided":
        import json
        assert got.certificate == json.loads(cert.read_text())


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_tight_matches_cli(case_id, cli):
    path = model_path(case_id)
    code, want, _ = cli("tight", path, "--n", 4, "--eps", "1/100")
    got = tempcert.tight(tempcert.load_model(path), 4, "1/100")
    assert got.json == want
    assert got.lo == Fraction(want["beta_lo_exact"]) and got.hi == Fraction(want["beta_hi_exact"])
    assert got.lo <= got.hi
    assert got.converged == (code == 0)


def test_tight_writes_the_upper_end_certificate(tmp_path):
    # beyond enumeration: the profile need, certified again and written;
    # the checker (its own code) judges every query's profile at hi
    m = tempcert.load_model(model_path("prev-a-earlier-b"))
    out = tmp_path / "hi.cert"
    r = tempcert.tight(m, 1000, "1/100", output=out)
    assert r.converged and r.hi < 4.6052
    assert r.json["certificate"] == str(out) and r.json["certificate_method"] == "layerwise"
    assert tempcert.check(out, m)


def test_refutation_is_a_result_with_the_word():
    m = tempcert.load_model(model_path("has-b"))
    r = tempcert.certify(m, 6, Fraction(1, 100), beta=2)
    assert r.verdict == "refuted" and not r
    assert r.counterexample == "ab"
    assert r.certificate["counterexample"]["word"] == "ab"
    # the violating TV is above eps, as an exact enclosure
    assert r.counterexample_value.lo > Fraction(1, 100)
    # and the evaluation of that word at that beta shows the same TV
    e = tempcert.eval(m, "ab", beta=2)
    tv = e.json["soft"]["layers"][0]["heads"][0]["queries"][1]["tv"]
    tv = tempcert.Interval(Fraction(tv[0]), Fraction(tv[1]))
    assert tv.lo > Fraction(1, 100)
    assert tv.lo <= r.counterexample_value.hi and r.counterexample_value.lo <= tv.hi


def test_certify_writes_a_certificate_the_checker_accepts(tmp_path, cli):
    path = model_path("has-b")
    out = tmp_path / "has-b.cert"
    r = tempcert.certify(path, 6, "1/100", output=out)
    assert r.verdict == "certified" and r
    assert out.exists() and r.certificate["verdict"] == "certified"
    ok = tempcert.check(out, path)
    assert ok and ok.accepted and ok.words > 0
    # the claim verified, as the verdict line echoes it
    assert ok.claim.startswith("certified: model has-b sha256 ") and ", n <= " in ok.claim
    code, want, _ = cli("check", out, "--model", path)
    assert code == 0 and ok.json == want
    # a tampered certificate is a result (not accepted), not an exception
    text = out.read_text().replace('"n": 6', '"n": 7')
    bad = tmp_path / "tampered.cert"
    bad.write_text(text)
    no = tempcert.check(bad, path)
    assert not no and no.reason and not no.json["malformed"]
    # a malformed one is bad input, as a malformed model is
    broken = tmp_path / "broken.cert"
    broken.write_text(text.replace('"format"', '"formats"'))
    with pytest.raises(tempcert.BadInput, match=r"broken\.cert: \$\.format: missing"):
        tempcert.check(broken, path)


def test_bound_is_exact(cli):
    code, want, _ = cli("bound", "--n", 10, "--gap", 2, "--eps", "1/100")
    got = tempcert.bound(10, 2, Fraction(1, 100))
    assert got.json == want
    assert got.beta_exact == "ln(891)/(2)"
    assert got.beta_up == Fraction(want["beta_up"])
    # beta_up is an upper bound of ln(891)/2, tight to 1e-20, and the
    # printed decimal rounds it up (ln computed here independently, 50 digits)
    import decimal
    with decimal.localcontext() as ctx:
        ctx.prec = 50
        lo = Fraction(decimal.Decimal(891).ln() / 2) - Fraction(1, 10**45)
        hi = lo + Fraction(2, 10**45)
    assert lo <= got.beta_up and got.beta_up - hi < Fraction(1, 10**20)
    assert got.beta_up <= got.beta


def test_tight_method_asked_is_the_method_used():
    # enumeration by default at n = 6; the layerwise bracket when asked
    # (tight accepted --method and ignored it before); the two overlap
    path = model_path("prev-a-earlier-b")
    auto = tempcert.tight(path, 6, "1/100")
    layers = tempcert.tight(path, 6, "1/100", method="layerwise")
    assert auto.json["method"] == "exhaustive-prefix" and layers.json["method"] == "layerwise"
    assert layers.lo <= auto.hi and auto.lo <= layers.hi


def test_symbolic_tight_at_n_1000():
    # has-b at n = 1000: ln(99)/2 to 1e-6 (proofs/tight-bracket.md), through the module
    t = tempcert.tight(model_path("has-b"), 1000, "1/100")
    assert t.converged
    assert t.lo <= Fraction(22975599, 10**7) and t.hi >= Fraction(22975577, 10**7)
    assert t.hi - t.lo <= Fraction(1, 10**5)
    assert t.lo_word is not None


def test_horizon_matches_cli(cli):
    path = model_path("has-b")
    code, want, _ = cli("horizon", path, "--eps", "1/100", "--beta", 3, "--max-n", 40)
    got = tempcert.horizon(path, "1/100", beta=3, max_n=40)
    assert got.json == want
    assert got.certified_up_to == want["certified_up_to"]


def test_tight_every_n(cli):
    # has-b: ln(99)/2 for every length, attained at n = 2; earlier-b-strict:
    # no constant beta, the need grows like ln n (proofs/every-n.md)
    path = model_path("has-b")
    code, want, _ = cli("tight", path, "--eps", "1/100", "--every-n")
    got = tempcert.tight_every_n(path, "1/100")
    assert code == 0 and got.json == want
    assert got.bounded and got.converged and got.lo_word is not None and got.method == "tail"
    assert got.lo <= Fraction(22975599, 10**7) and got.hi >= Fraction(22975577, 10**7)
    # the quadratic lookup by Theorem T (scores a fixed profile of j - i)
    lookup = tempcert.tight_every_n(os.path.join(CASES, "literature", "quadratic-lookup.json"),
                                    "1/100")
    assert lookup.bounded and lookup.converged and lookup.method == "windows"
    assert Fraction(5288266, 10**6) <= lookup.lo <= lookup.hi <= Fraction(5288268, 10**6)
    unbounded = tempcert.tight_every_n(model_path("earlier-b-strict"), "1/100")
    assert not unbounded.bounded and unbounded.growth == "log n"
    assert unbounded.growth_rate == 1
    with pytest.raises(tempcert.Undecided, match="reads n"):
        tempcert.tight_every_n(model_path("first-is-a-bounded"), "1/100")


def test_sqrt_features_irrational_gaps(tmp_path):
    # the layer-norm hash lookup: its least gap 1 - 43/sqrt(1850) as an
    # Interval, the certificate stating the exact form, verified by check
    path = os.path.join(CASES, "literature", "layernorm-hash-lookup.json")
    out = tmp_path / "ln.cert"
    r = tempcert.certify(path, 7, "1/100", beta=30000, output=out)
    assert r.verdict == "certified" and r.not_written is None
    assert isinstance(r.min_gap, tempcert.Interval)
    assert Fraction(270306803154185, 10**18) < r.min_gap.lo <= r.min_gap.hi < Fraction(270306803154186, 10**18)
    assert r.certificate["gaps"]["min_gap"] == "(1) + (-43/370)*sqrt(74)"
    assert tempcert.check(out, path)
    g = tempcert.gap(path, 7)
    assert g.min_gap.lo <= r.min_gap.lo and r.min_gap.hi <= g.min_gap.hi + Fraction(1, 10**30)


def test_certify_says_why_no_certificate_was_written(tmp_path):
    # a log feature: certified, but the small checker leaves the certificate
    # out, so none is written, and the result says why
    with open(model_path("has-b")) as f:
        m = json.load(f)
    m["name"] = "has-b-log"
    m["positions"] = m["positions"] + [{"dim": m["width"] - 1, "expr": "log(j + 1)"}]
    path = tmp_path / "log.json"
    path.write_text(json.dumps(m))
    out = tmp_path / "log.cert"
    r = tempcert.certify(path, 4, "1/100", output=out)
    assert r.verdict == "certified" and r.certificate is None and not out.exists()
    assert r.not_written.startswith("no certificate written: the small checker leaves it out")
    assert "log makes the model irrational" in r.not_written


def test_certify_every_n(tmp_path):
    # beta 2.3 for every length of has-b, its certificate verified by check
    path = model_path("has-b")
    out = tmp_path / "every.cert"
    r = tempcert.certify(path, None, "1/100", beta="2.3", every_n=True, output=out)
    assert r.verdict == "certified" and r.certificate["n"] == "every"
    assert r.certificate["method"] == "every-n"
    c = tempcert.check(out, path)
    assert c and "every n" in c.claim
    low = tempcert.certify(path, None, "1/100", beta="2.29", every_n=True)
    assert low.verdict == "refuted" and low.counterexample == "ba"


def test_horizon_every_n():
    # no max_n, no max_length: every length at 4.6052, the first failure at 4.6051
    path = model_path("last-cd-is-d")
    every = tempcert.horizon(path, "1/100", beta="4.6052")
    assert every.every_n and every.certified_up_to == "every"
    short = tempcert.horizon(path, "1/100", beta="4.6051")
    assert not short.every_n and short.certified_up_to == 3
    assert short.first_failure["n"] == 4


def test_compile_matches_cli(cli, tmp_path):
    out = tmp_path / "asb.json"
    code, want, _ = cli("compile", "a S b", "--alphabet", "a,b", "--pe", "unbounded", "-o", out)
    m = tempcert.compile("a S b", ["a", "b"], pe="unbounded")
    assert code == 0 and m.sha256 == want["sha256"]
    # a S b: a b somewhere, and only a's after the last such b
    for w, want in (("ab", True), ("ba", True), ("aa", False),
                    ("baa", True), ("bba", True), ("a", False)):
        assert tempcert.eval(m, w).accept is want, w


def test_compile_counting_needs_no_pe(cli, tmp_path):
    out = tmp_path / "maj.json"
    code, want, _ = cli("compile", "#(a) > #(b)", "--alphabet", "a,b", "-o", out)
    m = tempcert.compile("#(a) > #(b)", "a,b")
    assert code == 0 and m.sha256 == want["sha256"]
    assert want["pe"] == "none" and want["bos"] and want["counting"]
    for w, accept in (("aab", True), ("ab", False), ("abb", False), ("a", True), ("bba", False)):
        assert tempcert.eval(m, w).accept is accept, w
    c = tempcert.certify(m, n=1000, eps="1/100", criterion="decision")
    assert c.verdict == "certified" and c.method == "layerwise"


def test_report_writes_its_files(tmp_path):
    r = tempcert.report(["has-b"], n=[2, 3], out=tmp_path / "rep")
    assert r.rows == 2
    assert all(os.path.exists(f) for f in r.files)
    # the rows are results.json's, from the same renderer
    with open(tmp_path / "rep" / "results.json") as f:
        assert r.results == json.load(f)["rows"]
    assert [row["n"] for row in r.results] == [2, 3]
    assert r.results[0]["case"] == "has-b" and r.results[0]["kind"] == "threshold"
    assert r.skipped == []


def test_layerwise_without_exact_rounding_is_the_perturbation_argument():
    # Has-abb-three-layer has ReLU units on their kinks
    r = tempcert.certify(tempcert.load_model(model_path("has-abb-three-layer")), 1000,
                         Fraction(1, 100), method="layerwise")
    assert r.verdict == "certified" and r.json["argument"] == "perturbation"
    assert r.certificate["method"] == "layerwise-perturbation"
    assert Fraction(r.json["beta"]) == Fraction(11791, 1024)
    t = tempcert.tight(tempcert.load_model(model_path("has-abb-three-layer")), 1000, "1/100",
                       pump_length=256)
    assert t.lo < t.hi and 11 < t.hi < 12  # hi: the argument's beta, bisected to --rel
    # lo: refuted by a pumped word of the whole model (layer 1 alone: ln 100),
    # of length 256 here (the default pumps to 1024: 11.50, slower)
    assert not t.converged and Fraction(10) < t.lo < 11 and len(t.lo_word) == 256


def test_eval_summary_matches_the_full_trace(cli):
    """summary=True: each head's least gap and largest TV are the extremes
    of the full evaluation's queries, and the JSON is the command line's."""
    path = os.path.join(CASES, "models", "earlier-b-strict.json")
    full = tempcert.eval(path, "babaaaaaab", 2)
    got = tempcert.eval(path, "babaaaaaab", 2, summary=True)
    code, want, _ = cli("eval", path, "--input", "babaaaaaab", "--hard", "--beta", 2,
                        "--summary")
    assert code == 0 and got.json == want
    assert full.heads == [] and len(got.heads) == 1
    head = got.heads[0]
    queries = full.json["soft"]["layers"][0]["heads"][0]["queries"]
    tvs = [(Fraction(q["tv"][0]), q["query"]) for q in queries if "tv" in q]
    best = max(tvs, key=lambda t: t[0])
    assert (head.largest_tv.lo, head.largest_tv_query) == best
    gaps = [Fraction(q["gap"]) for q in full.json["hard"]["layers"][0]["heads"][0]["queries"]
            if q["gap"] not in (None, "inf")]
    assert head.least_gap.exact == min(gaps)
    assert head.tv_at_most.hi >= max(Fraction(q["tv"][1]) for q in queries if "tv" in q)
    assert got.soft_y == full.soft_y and got.y == full.y
