#!/usr/bin/env python3
"""Every claim `tight --per-layer` prints holds as printed.

usage: per_layer_claims.py TEMPCERT COUNT [SEED]

For COUNT random two-layer models (two symbols, one head a layer, every kind
and mask, small rational weights) at n = 4, eps 1/100: each layer's lower
end must be refuted by `tempcert certify` at the whole vector of betas the
output names for it (refuted_at_betas), and that vector must be the final
one with the layer's own beta at its lower end whenever the output says the
passes settled ("stable"); the final vector must be certified. Before the
passes repeated, a layer's lower end was refuted with the later layers at
their earlier betas, and did not hold at the final vector printed. Prints
a summary; exit 1 on any claim that does not hold."""
import json
import os
import random
import subprocess
import sys
import tempfile
from fractions import Fraction

tempcert, count = sys.argv[1], int(sys.argv[2])
if os.environ.get("TEMPCERT_SANITIZED") == "1":
    count = max(1, count // 4)  # the sanitized stage: each run several times slower
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
work = tempfile.mkdtemp()


def num():
    return str(Fraction(rng.randint(-4, 4), rng.choice([1, 2])))


def mat(rows, cols):
    return [[num() if rng.random() < 0.6 else 0 for _ in range(cols)] for _ in range(rows)]


def model():
    d = 4
    m = {"format": "tempcert-model/1", "name": "per-layer-random", "alphabet": ["a", "b"],
         "bos": None, "width": d, "embedding": {s: [num() for _ in range(d)] for s in "ab"},
         "positions": [{"dim": 3, "expr": "j"}] if rng.random() < 0.5 else [], "layers": []}
    for _ in range(2):
        head = {"kind": rng.choice(["leftmost", "rightmost", "average"]),
                "mask": rng.choice(["none", "causal", "strict", "future"]),
                "query": mat(1, d), "key": mat(1, d), "value": mat(1, d), "output": mat(d, 1)}
        m["layers"].append({"heads": [head], "ffn": None})
    m["output"] = {"position": "last", "weights": [num() for _ in range(d)], "bias": "1/3"}
    return m


def run(args):
    r = subprocess.run([tempcert] + args, capture_output=True, text=True, timeout=600)
    return r.returncode, r.stdout, r.stderr


failures, checked, unsettled, tried = [], 0, 0, 0
for k in range(count):
    path = os.path.join(work, f"m{k}.json")
    with open(path, "w") as f:
        json.dump(model(), f)
    code, out, err = run(["tight", path, "--n", "4", "--eps", "1/100", "--per-layer", "--json"])
    if code != 0:
        continue  # not simulable, undecided or a tie: nothing printed to hold
    tried += 1
    t = json.loads(out)
    final = [l["beta_hi_exact"] for l in t["per_layer"]]
    unsettled += not t["stable"]
    code, _, err = run(["certify", path, "--n", "4", "--eps", "1/100", "--beta", ",".join(final)])
    if code != 0:
        failures.append(f"model {k}: the final vector is not certified (exit {code}): {err.strip()}")
    for i, layer in enumerate(t["per_layer"]):
        if not layer.get("lo_witness"):
            continue
        at = layer["refuted_at_betas"]
        if t["stable"] and at != final[:i] + [layer["beta_lo_exact"]] + final[i + 1:]:
            failures.append(f"model {k} layer {i + 1}: settled, but refuted at {at}, not the final "
                            f"vector with its lower end")
        code, out2, _ = run(["certify", path, "--n", "4", "--eps", "1/100", "--beta", ",".join(at)])
        checked += 1
        if code != 1:
            failures.append(f"model {k} layer {i + 1}: its lower end is not refuted at the betas "
                            f"printed for it (certify exits {code})")
for f in failures:
    print("FAIL", f)
print(f"per-layer claims: {tried} of {count} random models bracketed, {checked} lower ends "
      f"re-refuted at their printed betas, {unsettled} without settling; {len(failures)} failures")
sys.exit(1 if failures else 0)
