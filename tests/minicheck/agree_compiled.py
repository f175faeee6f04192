#!/usr/bin/env python3
"""The small checker against tempcert-check on the compiled cases.

usage: agree_compiled.py TEMPCERT TEMPCERT_CHECK TEMPCERT_MINICHECK CASES N_LTL N_COUNTING

Every LTL formula of CASES/ltl (both positional encodings, n = N_LTL) and
every counting formula of CASES/counting (n = N_COUNTING; with
TEMPCERT_SANITIZED=1 at most 10 and 40, tv alone) is compiled and
certified by the layerwise method under the tv and decision criteria;
each certificate written goes to both checkers, and so does a copy with
one head's least gap doubled (a false claim). Both must verify every
written certificate (or the small checker say exit 3, outside its class:
profile-judged heads, counted) and refuse every forgery. Prints a
summary; exit 1 on any disagreement or if fewer than half the written
certificates were verified by both."""
import json
import os
import subprocess
import sys
import tempfile
from fractions import Fraction

tempcert, check, mini, cases, n_ltl, n_counting = sys.argv[1:7]
criteria = ["tv", "decision"]
if os.environ.get("TEMPCERT_SANITIZED") == "1":
    # the sanitized stage: the same formulas, certificates and forgeries at
    # shorter n, under the tv criterion alone (106 s -> about 25 s under
    # ASan; most of the time is starting sanitized processes)
    n_ltl, n_counting = str(min(int(n_ltl), 10)), str(min(int(n_counting), 40))
    criteria = ["tv"]
work = tempfile.mkdtemp()
stats = {"written": 0, "both_verified": 0, "left_out": 0, "forged_refused": 0}
bad = 0


def run(*args):
    p = subprocess.run(args, capture_output=True, text=True, timeout=900)
    return p.returncode, p.stdout + p.stderr


def both(cert, model):
    return run(check, cert, "--model", model), run(mini, cert, "--model", model)


def forged(d):
    """d with one finite head gap doubled, or None."""
    for layer in d["layers"]:
        for head in layer["heads"]:
            if head["min_gap"] != "inf":
                e = json.loads(json.dumps(d))
                g = 2 * Fraction(head["min_gap"])
                e["layers"][layer["layer"] - 1]["heads"][head["head"] - 1]["min_gap"] = \
                    f"{g.numerator}/{g.denominator}" if g.denominator != 1 else str(g.numerator)
                return e
    return None


for kind, n, encodings in [("ltl", n_ltl, ["unbounded", "bounded"]),
                           ("counting", n_counting, ["unbounded"])]:
    for f in json.load(open(os.path.join(cases, kind, "manifest.json")))["formulas"]:
        for pe in encodings:
            model = os.path.join(work, f"{f['id']}-{pe}.json")
            code, out = run(tempcert, "compile", f["formula"], "--alphabet",
                            ",".join(f["alphabet"]), "--pe", pe, "-o", model)
            if code != 0:
                bad += 1
                print("compile failed:", f["formula"], out)
                continue
            for criterion in criteria:
                cert = f"{model}.{criterion}.cert"
                code, out = run(tempcert, "certify", model, "--n", n, "--eps", "1/100",
                                "--criterion", criterion, "--method", "layerwise", "-o", cert)
                if code != 0 or not os.path.exists(cert):
                    continue  # outside the method (a read-out the soft model perturbs)
                stats["written"] += 1
                (c1, o1), (c2, o2) = both(cert, model)
                if c2 == 3 and c1 == 0:
                    stats["left_out"] += 1
                elif c1 != 0 or c2 != 0:
                    bad += 1
                    print("DISAGREE on", f["formula"], pe, criterion, c1, c2, o1, o2)
                else:
                    stats["both_verified"] += 1
                e = forged(json.load(open(cert)))
                if e is None:
                    continue
                json.dump(e, open(cert + ".forged", "w"))
                (c1, o1), (c2, o2) = both(cert + ".forged", model)
                if c1 == 1 and c2 in (1, 3):
                    stats["forged_refused"] += 1
                else:
                    bad += 1
                    print("FORGERY NOT REFUSED", f["formula"], pe, criterion, c1, c2, o1, o2)

print(" ".join(f"{k}={v}" for k, v in stats.items()), f"disagreements={bad}")
if stats["both_verified"] * 2 < stats["written"]:
    print("FAIL: fewer than half the certificates verified by both checkers")
    sys.exit(1)
sys.exit(1 if bad else 0)
