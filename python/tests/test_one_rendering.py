"""Every command's --json result, from the executable and from the module,
is one rendering: the value the module hands to Python (_core.run_json,
dicts built from the command's own JSON value, never its printed text
parsed back) equals what the executable prints, for each command that has
a --json form. The typed results of the package are built from that value."""

import os

import pytest

from tempcert import _core
from conftest import CASES

HAS_B = os.path.join(CASES, "models", "has-b.json")
TWO_LAYER = os.path.join(CASES, "models", "has-ab-two-layer.json")


def in_process(*args):
    code, value, out, err = _core.run_json([str(a) for a in args])
    assert out == b"", f"--json printed text besides its result: {out[:200]!r}"
    return code, value, err.decode()


def both(cli, *args):
    """(exit code, result) of the executable and of the module; they must agree."""
    code, want, err = cli(*args)
    got_code, got, got_err = in_process(*args)
    assert (got_code, got) == (code, want), (args, err, got_err)
    assert isinstance(want, (dict, list)), (args, want)
    return code, want


def test_eval(cli):
    code, j = both(cli, "eval", HAS_B, "--input", "abba", "--hard", "--beta", "3")
    assert code == 0 and j["outputs"][0]["hard"] == "1/2" and j["word"] == "abba"


def test_gap_every_method(cli):
    for method in ("symbolic", "exhaustive", "plain"):
        code, j = both(cli, "gap", HAS_B, "--n", 5, "--method", method)
        assert code == 0 and j["min_gap"] == "2", method


def test_bound(cli):
    code, j = both(cli, "bound", "--n", 10, "--gap", 2, "--eps", "1/100")
    assert j["beta_exact"] == "ln(891)/(2)"


def test_certify_each_method(cli, tmp_path):
    cert = tmp_path / "c.cert"
    code, j = both(cli, "certify", HAS_B, "--n", 5, "--eps", "1/100", "--beta", 3, "-o", cert)
    assert code == 0 and j["verdict"] == "certified"
    code, j = both(cli, "certify", HAS_B, "--n", 5, "--eps", "1/100", "--beta", "1/2")
    assert code == 1 and j["verdict"] == "refuted"
    code, j = both(cli, "certify", HAS_B, "--n", 200, "--eps", "1/100", "--method", "layerwise")
    assert code == 0 and j["method"] == "layerwise"
    code, j = both(cli, "certify", TWO_LAYER, "--n", 40, "--eps", "1/100", "--beta", 12,
                   "--method", "layerwise")
    assert code == 0


def test_tight_each_method(cli):
    code, j = both(cli, "tight", HAS_B, "--n", 4, "--eps", "1/100")
    assert code == 0 and j["converged"] is True
    code, j = both(cli, "tight", HAS_B, "--n", 300, "--eps", "1/100")
    assert code == 0 and j["method"] == "symbolic"
    code, j = both(cli, "tight", TWO_LAYER, "--n", 40, "--eps", "1/100")
    assert j["method"] == "layerwise"


def test_check(cli, tmp_path):
    cert = tmp_path / "c.cert"
    assert cli("certify", HAS_B, "--n", 5, "--eps", "1/100", "--beta", 3, "-o", cert)[0] == 0
    code, j = both(cli, "check", cert, "--model", HAS_B)
    assert code == 0 and j["accepted"] is True
    cert.write_text(cert.read_text().replace('"n": 5', '"n": 6'))
    code, j = both(cli, "check", cert, "--model", HAS_B)
    assert code == 1 and j["accepted"] is False


def test_horizon(cli):
    code, j = both(cli, "horizon", HAS_B, "--eps", "1/100", "--beta", 3, "--max-n", 40)
    assert code == 0 and j["certified_up_to"] > 0


def test_compile(cli, tmp_path):
    out = tmp_path / "asb.json"
    code, j = both(cli, "compile", "a S b", "--alphabet", "a,b", "--pe", "unbounded", "-o", out)
    assert code == 0 and len(j["sha256"]) == 64


def test_theorem(cli):
    code, j = both(cli, "theorem", "--list")
    assert code == 0 and len(j) > 0
    code, j = both(cli, "theorem", "gap-lemma", "--n", 10, "--gap", 2, "--eps", "1/100")
    assert code == 0 and j["confirmed"] is True


def test_report(cli, tmp_path):
    code, j = both(cli, "report", "has-b", "--n", "2,3", "--out", tmp_path / "r")
    assert code == 0 and j["rows"] == 2


def test_export_coq(cli, tmp_path):
    cert, v = tmp_path / "c.cert", tmp_path / "C.v"
    assert cli("certify", HAS_B, "--n", 3, "--eps", "1/100", "--beta", 3, "-o", cert)[0] == 0
    code, j = both(cli, "export", "coq", cert, "--model", HAS_B, "-o", v)
    assert code == 0 and v.exists()


def test_bad_input_has_no_result():
    code, value, err = in_process("gap", HAS_B, "--n", 0)
    assert code == _core.exit_codes["bad_input"] and value is None and "--n" in err


def test_import(cli, tmp_path):
    import sys
    root = os.path.dirname(CASES)
    sys.path[:0] = [os.path.join(root, "tools"), os.path.join(root, "tests", "tracr")]
    try:
        import export_tracr
        import standins
    finally:
        del sys.path[:2]
    model, _ = standins.shift_by_one(vocab=("a", "b"), max_seq_len=4)
    st, out = tmp_path / "shift.safetensors", tmp_path / "shift.json"
    export_tracr.export(model, str(st))
    code, j = both(cli, "import", "tracr", st, "-o", out)
    assert code == 0 and out.exists() and j["alphabet"] == ["a", "b"]
