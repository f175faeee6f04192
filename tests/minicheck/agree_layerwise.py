#!/usr/bin/env python3
"""The small checker against tempcert-check on layerwise certificates of
random models.

usage: agree_layerwise.py TEMPCERT TEMPCERT_CHECK TEMPCERT_MINICHECK COUNT [SEED]

For COUNT random models (two or three symbols, BOS or not, one to three
layers of one or two heads of every kind and mask, feed-forward sublayers,
a positional feature in j and n on a coordinate that values, outputs and
sublayers leave alone, as proofs/layerwise.md requires), `tempcert certify
--method layerwise` runs at a random n from 2 to 80 and eps, with the
method's own beta or a user beta in n. Every certificate it writes is
given to both checkers, and so are edited copies of it: beta doubled
(true), beta lowered by a relative 1e-9, one head's least gap doubled or N lowered, one layer's
perturbed coordinates or value count changed, read-out exactness flipped,
n raised by one; of perturbation certificates (proofs/perturbation.md)
also a head's tv or score deviation, a radius or the read-out's deviation
lowered by a relative 1e-6, the decision margin raised. Where the words
of length 1..n are at most 3,000, the claim itself is checked too: the
same beta certified by enumeration, and that certificate verified by the
small checker. Both checkers must give the same verdict on each, except
where the small checker says the certificate is outside its class (exit
3: profile-judged or counting heads, scores not affine in the key
position), which is counted. Prints a
summary; exit 1 on any disagreement or if too few certificates were
verified by both to mean anything."""
import json
import os
import random
import subprocess
import sys
import tempfile
from fractions import Fraction

tempcert, check, mini, count = sys.argv[1:5]
count = int(count)
if os.environ.get("TEMPCERT_SANITIZED") == "1":
    count = (count + 3) // 4  # a quarter under sanitizers: 56 s for half of them
rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 1)
work = tempfile.mkdtemp()


def num(lo=-3, hi=3, dens=(1, 1, 2)):
    return str(Fraction(rng.randint(lo, hi), rng.choice(dens)))


def mat(rows, cols, density=0.5, avoid=None, dens=(1, 1, 2)):
    return [[num(dens=dens) if c != avoid and rng.random() < density else 0 for c in range(cols)]
            for _ in range(rows)]


def model():
    """Coordinates: the embedding's, the feature's (f), then one per head,
    which that head alone writes; a later head or sublayer reads the
    written ones only sometimes (a read of a perturbed coordinate leaves
    the method's preconditions)."""
    k = rng.choice([2, 2, 3])
    alphabet = ["a", "b", "c"][:k]
    e = rng.randint(2, 4)
    f = e
    layers = [rng.choice([1, 1, 2]) for _ in range(rng.choice([1, 1, 2, 3]))]
    d = e + 1 + sum(layers)
    bos = "S" if rng.random() < 0.3 else None
    symbols = alphabet + ([bos] if bos else [])
    m = {"format": "tempcert-model/1", "name": "random-layerwise", "alphabet": alphabet,
         "bos": bos, "width": d,
         "embedding": {s: [num(0, 3, (1, 2, 3, 5)) if c < e else 0 for c in range(d)]
                       for s in symbols},
         "positions": [{"dim": f, "expr": rng.choice(["j", "j/n", "2*j-n", "n-j", "j/(n+1)"])}],
         "layers": []}
    fresh = e + 1
    for count in layers:
        readable = d if rng.random() < 0.4 else e + 1  # everything, or embedding and feature
        heads = []
        for _ in range(count):
            kq = rng.randint(1, 2)
            out = [[0] for _ in range(d)]
            out[fresh] = [num(1, 2)]
            fresh += 1
            heads.append({"kind": rng.choice(["leftmost", "rightmost", "average"]),
                          "mask": rng.choice(["none", "causal", "strict", "future",
                                              "strict-future"]),
                          "query": mat(kq, readable, 0.8, dens=(1, 3, 7)),
                          "key": mat(kq, readable, 0.8, dens=(1, 2, 5)),
                          "value": mat(1, readable, avoid=f), "output": out})
            for w in ("query", "key", "value"):
                heads[-1][w] = [row + [0] * (d - readable) for row in heads[-1][w]]
        ffn = None
        if rng.random() < 0.4:
            h = rng.randint(1, 2)
            w2 = mat(d, h, 0.4)
            w2[f] = [0] * h
            ffn = {"w1": mat(h, d, avoid=f), "b1": [num() for _ in range(h)], "w2": w2}
        m["layers"].append({"heads": heads, "ffn": ffn})
    m["output"] = {"position": "last", "weights": [num() if c != f else 0 for c in range(d)],
                   "bias": num()}
    return m


def run(*args):
    p = subprocess.run(args, capture_output=True, text=True, timeout=900)
    return p.returncode, p.stdout + p.stderr


stats = {"enumerated": 0, "perturbation": 0, "written": 0, "both_verified": 0, "left_out": 0, "forged": 0,
         "forged_refused": 0, "forged_left_out": 0}
bad = 0


def compare(cert, path, what, forged):
    """Both checkers on one certificate: the same verdict, or exit 3 from the
    small checker (outside its class)."""
    global bad
    c1, o1 = run(check, cert, "--model", path)
    c2, o2 = run(mini, cert, "--model", path)
    if c2 == 3 and c1 in (0, 1):
        stats["forged_left_out" if forged else "left_out"] += 1
        return
    if c1 != c2 or c1 not in (0, 1):
        bad += 1
        print("DISAGREE on " + what, path, cert, c1, c2, o1, o2)
        return
    if forged:
        stats["forged"] += 1
        stats["forged_refused"] += c1 == 1
    elif c1 == 0:
        stats["both_verified"] += 1


def fraction_text(x):
    return f"{x.numerator}/{x.denominator}" if x.denominator != 1 else str(x.numerator)


def forgeries(d):
    """(name, edited copy) pairs of a layerwise certificate."""
    out = []

    def edit(name, change):
        e = json.loads(json.dumps(d))
        if change(e) is not False:
            out.append((name, e))

    def lower_beta(e):
        b = e["beta"]["spec"].split(",")
        i = rng.randrange(len(b))
        try:
            b[i] = fraction_text(Fraction(b[i]) * (1 - Fraction(1, 10**9)))
        except ValueError:  # an expression in n
            b[i] = "(" + b[i] + ")*(1-1/1000000000)"
        e["beta"]["spec"] = ",".join(b)

    heads = [(l, h) for l in range(len(d["layers"])) for h in range(len(d["layers"][l]["heads"]))]

    def head_edit(key, change):
        def f(e):
            if not heads:
                return False
            l, h = rng.choice(heads)
            e["layers"][l]["heads"][h][key] = change(e["layers"][l]["heads"][h][key])
        return f

    edit("beta", lower_beta)
    edit("beta_raised", lambda e: e["beta"].update(
        spec=",".join("2*(" + b + ")" for b in e["beta"]["spec"].split(",")), source="user"))
    edit("gap", head_edit("min_gap", lambda g: "1" if g == "inf" else fraction_text(2 * Fraction(g))))
    edit("N", head_edit("N", lambda n: n - 1))
    layer = rng.randrange(len(d["layers"]))
    edit("values", lambda e: e["layers"][layer].__setitem__("values", e["layers"][layer]["values"] + 1))
    edit("n", lambda e: e.__setitem__("n", e["n"] + 1))
    if d["method"] == "layerwise":
        edit("perturbed", lambda e: e["layers"][layer].__setitem__(
            "perturbed", sorted(set(e["layers"][layer]["perturbed"]) ^ {0})))
        edit("readout", lambda e: e.__setitem__("readout_exact", not e["readout_exact"]))
        return out
    # a perturbation certificate's bounds, each lowered a little
    shrink = 1 - Fraction(1, 10**6)
    edit("tv", head_edit("tv", lambda t: fraction_text(Fraction(t) * shrink)))
    edit("score_deviation", head_edit("score_deviation",
                                      lambda t: fraction_text(Fraction(t) * shrink)))

    def lower_radius(e):
        r = e["layers"][layer]["radius"]
        nonzero = [c for c in range(len(r)) if Fraction(r[c]) != 0]
        if not nonzero:
            return False
        c = rng.choice(nonzero)
        r[c] = fraction_text(Fraction(r[c]) * shrink)
    edit("radius", lower_radius)
    edit("deviation", lambda e: e["readout"].__setitem__(
        "deviation", fraction_text(Fraction(e["readout"]["deviation"]) * shrink)))
    if d["readout"]["margin"] is not None:
        edit("margin", lambda e: e["readout"].__setitem__(
            "margin", fraction_text(Fraction(e["readout"]["margin"]) + Fraction(1, 1000))))
    return out


def enumerate_words(path, m, d, cert):
    """Where every word fits, the certificate's claim itself: certified by
    enumeration at the same beta, and that verified by the small checker."""
    global bad
    if sum(len(m["alphabet"]) ** k for k in range(1, d["n"] + 1)) > 3000:
        return
    words = cert + ".words.json"
    code, out = run(tempcert, "certify", path, "--n", str(d["n"]), "--eps", d["eps"],
                    "--criterion", d["criterion"], "--beta", d["beta"]["spec"],
                    "--method", "exhaustive", "-o", words)
    c2, o2 = run(mini, words, "--model", path)
    stats["enumerated"] += 1
    if code != 0 or c2 != 0 or json.load(open(words))["verdict"] != "certified":
        bad += 1
        print("UNSOUND? certified by", d["method"], "but not by enumeration", path, cert, code,
              out, c2, o2)


for i in range(count):
    m = model()
    path = os.path.join(work, "m%d.json" % i)
    json.dump(m, open(path, "w"))
    n = str(rng.randint(2, 6) if rng.random() < 0.4 else rng.randint(2, 80))
    eps = rng.choice(["1/100", "1/20", "1/4"])
    cert = os.path.join(work, "c%d.json" % i)
    criterion = rng.choice(["tv", "tv", "output", "decision"])
    args = [tempcert, "certify", path, "--n", n, "--eps", eps, "--method", "layerwise",
            "--criterion", criterion, "-o", cert]
    if rng.random() < 0.3:
        args += ["--beta", rng.choice(["12", "3*log(n+1)", "n/2+1", "40"])]
    code, out = run(*args)
    if code != 0 or not os.path.exists(cert):
        continue  # outside the method's preconditions, or not certified at that beta
    stats["written"] += 1
    stats["perturbation"] += json.load(open(cert))["method"] != "layerwise"
    compare(cert, path, "the written certificate", False)
    d = json.load(open(cert))
    enumerate_words(path, m, d, cert)
    for name, e in forgeries(d):
        forged = os.path.join(work, "f%d-%s.json" % (i, name))
        json.dump(e, open(forged, "w"))
        compare(forged, path, "a forgery (" + name + ")", True)

print(" ".join(f"{k}={v}" for k, v in stats.items()), f"disagreements={bad}")
least = max(1, count // 10)
if stats["both_verified"] < least:
    print(f"FAIL: fewer than {least} certificates verified by both checkers")
    sys.exit(1)
sys.exit(1 if bad else 0)
