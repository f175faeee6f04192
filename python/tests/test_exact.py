"""Exactness across the boundary: Fractions in and out, floats converted to
the binary rationals they store, from_arrays and to_arrays inverse."""

import os
from fractions import Fraction

import numpy as np
import pytest

import tempcert
from conftest import CASES

HAS_B = os.path.join(CASES, "models", "has-b.json")


def has_b_arrays(dtype):
    """has-b (s_ij = i [w_j = b] under a causal mask) as numpy arrays."""
    return dict(
        alphabet=["a", "b"],
        embedding=np.array([[1, 0, 0, 0], [0, 1, 0, 0]], dtype=dtype),
        positions=[{"dim": 2, "expr": "j"}],
        layers=[{"heads": [{"kind": "average", "mask": "causal",
                            "query": np.array([[0, 0, 1, 0]], dtype=dtype),
                            "key": np.array([[0, 1, 0, 0]], dtype=dtype),
                            "value": np.array([[0, 1, 0, 0]], dtype=dtype),
                            "output": np.array([[0], [0], [0], [1]], dtype=dtype)}],
                 "ffn": None}],
        output={"position": "last", "weights": np.array([0, 0, 0, 1], dtype=dtype),
                "bias": Fraction(-1, 2)},
        name="has-b")


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.int64])
def test_from_arrays_equals_the_bundled_file(dtype):
    m = tempcert.Model.from_arrays(**has_b_arrays(dtype))
    want = tempcert.load_model(HAS_B)
    d, w = m.to_dict(), want.to_dict()
    w.pop("description", None)
    assert d == w
    assert tempcert.gap(m, 8).json["min_gap"] == tempcert.gap(want, 8).json["min_gap"]


def test_floats_are_read_as_the_rationals_they_store():
    a = has_b_arrays(np.float32)
    a["layers"][0]["heads"][0]["query"] = np.array([[0, 0, 0.1, 0]], dtype=np.float32)
    m = tempcert.Model.from_arrays(**a)
    q = m.to_arrays()["layers"][0]["heads"][0]["query"]
    assert q[0, 2] == Fraction(np.float32(0.1).item()) == Fraction(13421773, 134217728)
    a["layers"][0]["heads"][0]["query"] = np.array([[0, 0, 0.1, 0]], dtype=np.float64)
    q = tempcert.Model.from_arrays(**a).to_arrays()["layers"][0]["heads"][0]["query"]
    assert q[0, 2] == Fraction(0.1) == Fraction(3602879701896397, 36028797018963968)


def test_arrays_round_trip():
    m = tempcert.load_model(HAS_B)
    a = m.to_arrays()
    assert a["embedding"].dtype == object and isinstance(a["embedding"][0, 0], Fraction)
    back = tempcert.Model.from_arrays(a["alphabet"], a["embedding"], a["layers"], a["output"],
                                      positions=a["positions"], bos=a["bos"], name=m.name,
                                      description=m.to_dict().get("description"))
    assert back == m and back.sha256 == m.sha256


def test_dict_round_trip_over_every_case():
    import json
    with open(os.path.join(CASES, "manifest.json")) as f:
        cases = json.load(f)["cases"]
    for c in cases:
        m = tempcert.load_model(os.path.join(CASES, c["model"]))
        assert tempcert.Model.from_dict(m.to_dict()).sha256 == m.sha256


def test_nonfinite_floats_refused():
    a = has_b_arrays(np.float64)
    a["embedding"][0, 0] = np.inf
    with pytest.raises(tempcert.BadInput, match="finite"):
        tempcert.Model.from_arrays(**a)


def test_float_eps_is_taken_exactly():
    r = tempcert.certify(HAS_B, 4, 0.01, beta=20)
    assert Fraction(r.certificate["eps"]) == Fraction(0.01) != Fraction(1, 100)
    r = tempcert.certify(HAS_B, 4, Fraction(1, 100), beta=Fraction(41, 2))
    assert r.certificate["eps"] == "1/100" and r.certificate["beta"]["spec"] == "41/2"


def test_eval_values_are_fractions_and_intervals():
    e = tempcert.eval(HAS_B, "ab", beta=3)
    out = e.outputs[0]
    assert out.hard == tempcert.Interval(Fraction(1, 2), Fraction(1, 2))
    assert isinstance(out.soft, tempcert.Interval) and out.soft.width > 0
    assert out.soft.hi < Fraction(1, 2) and Fraction(1, 2) not in out.soft
    assert e.accept is True and e.y.exact == Fraction(1, 2)


def test_interval_semantics():
    i = tempcert.Interval(Fraction(1, 3), Fraction(1, 2))
    assert i.contains(Fraction(2, 5)) and 0.4 in i and not i.contains(1)
    assert i.exact is None and tempcert.Interval(Fraction(1), Fraction(1)).exact == 1
    with pytest.raises(ValueError):
        tempcert.Interval(Fraction(1), Fraction(0))
    assert tempcert.exact(0.1) == Fraction(3602879701896397, 36028797018963968)
    with pytest.raises(TypeError):
        tempcert.exact(True)
