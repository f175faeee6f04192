"""Models built elsewhere come in as the command line reads them: every
bundled LTL formula compiles to the same model, and a Tracr export imports
to the same model and answers the same."""

import json
import os
import sys

import pytest

import tempcert
from conftest import CASES, ROOT


def ltl_formulas():
    with open(os.path.join(CASES, "ltl", "manifest.json")) as f:
        return json.load(f)["formulas"]


@pytest.mark.parametrize("pe", ["unbounded", "bounded"])
@pytest.mark.parametrize("case", ltl_formulas(), ids=lambda c: c["id"])
def test_compile_matches_cli_on_every_formula(case, pe, cli, tmp_path):
    out = tmp_path / "m.json"
    code, _, err = cli("compile", case["formula"], "--alphabet", ",".join(case["alphabet"]),
                       "--pe", pe, "-o", out, json_out=False)
    assert code == 0, err
    m = tempcert.compile(case["formula"], case["alphabet"], pe=pe)
    assert m == tempcert.load_model(out)
    assert m.to_dict() == json.loads(json.dumps(tempcert.load_model(out).to_dict()))


@pytest.fixture(scope="module")
def shift_export(tmp_path_factory):
    sys.path[:0] = [os.path.join(ROOT, "tools"), os.path.join(ROOT, "tests", "tracr")]
    import export_tracr
    import standins
    model, _ = standins.shift_by_one(coldness=5.0)
    path = tmp_path_factory.mktemp("tracr") / "shift.safetensors"
    export_tracr.export(model, str(path))
    return path


def test_import_tracr_matches_cli(shift_export, cli, tmp_path):
    out = tmp_path / "shift.json"
    code, _, err = cli("import", "tracr", shift_export, "-o", out, json_out=False)
    assert code == 0, err
    m = tempcert.import_tracr(shift_export)
    assert m == tempcert.load_model(out)
    assert m.to_dict()["beta_native"] == "(1/sqrt(10))"
    code, want, _ = cli("horizon", out, "--eps", "1/100", "--criterion", "decision")
    got = tempcert.horizon(m, "1/100", criterion="decision")
    assert got.certified_up_to == want["certified_up_to"] == 5
    assert got.counterexample == want["first_failure"]["word"] == "aaaaba"


def test_import_tracr_refuses_a_damaged_file(shift_export, tmp_path):
    bad = tmp_path / "cut.safetensors"
    bad.write_bytes(shift_export.read_bytes()[:-7])
    with pytest.raises(tempcert.BadInput, match="cut.safetensors"):
        tempcert.import_tracr(bad)


def test_categorical_labels_stay_labels(tmp_path):
    # make_length's classes are labelled "1", "2", ...: strings, not numbers
    sys.path[:0] = [os.path.join(ROOT, "tools"), os.path.join(ROOT, "tests", "tracr")]
    import export_tracr
    import standins
    model, _ = standins.make_length(coldness=100.0)
    path = tmp_path / "length.safetensors"
    export_tracr.export(model, str(path))
    e = tempcert.eval(tempcert.import_tracr(path), "aba", beta="native")
    assert [o.hard for o in e.outputs] == ["3", "3", "3"]
    assert [o.soft for o in e.outputs] == ["3", "3", "3"]  # coldness 100: soft decodes alike
