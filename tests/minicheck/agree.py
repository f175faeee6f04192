#!/usr/bin/env python3
"""The small checker against tempcert-check on random models.

usage: agree.py TEMPCERT TEMPCERT_CHECK TEMPCERT_MINICHECK COUNT [SEED]

For COUNT random models (two or three symbols, BOS or not, one or two
layers, every head kind and mask, feed-forward sublayers, linear and
categorical read-outs, small rational weights, positional features in j and
n), `tempcert certify` writes a certificate at a random beta; then a forged
one claims "certified" at a beta 2 to 16 times lower (a refuted certificate
edited, or the certified one with its beta lowered); two-layer models get
one beta per layer one time in three. Every other model also gets the
sharp pair: `tempcert tight` brackets its least beta to a relative 1e-6,
a certificate at the upper end must be verified and one forged at the
lower end (where a named word violates the criterion by a hair) refused.
A refuted certificate is also forged at 64 times its beta, where its
counterexample may no longer violate the criterion. Both checkers must give
the same verdict on every certificate (refuted ones too: the counterexample
replayed): one that one of them accepts and the other refuses is a bug in
one of them. Prints a summary; exit 1 on any disagreement."""
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
    count = (count + 1) // 2  # the sanitized stage: half the models, each several times slower
rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 1)
work = tempfile.mkdtemp()


def num():
    return str(Fraction(rng.randint(-4, 4), rng.choice([1, 1, 2, 3])))


def mat(rows, cols, density=0.6):
    return [[num() if rng.random() < density else 0 for _ in range(cols)] for _ in range(rows)]


def model():
    k = rng.choice([2, 2, 3])
    alphabet = ["a", "b", "c"][:k]
    d = rng.randint(3, 5)
    bos = "S" if rng.random() < 0.3 else None
    symbols = alphabet + ([bos] if bos else [])
    m = {
        "format": "tempcert-model/1",
        "name": "random",
        "alphabet": alphabet,
        "bos": bos,
        "width": d,
        "embedding": {s: [num() for _ in range(d)] for s in symbols},
        "positions": [],
        "layers": [],
    }
    if rng.random() < 0.6:
        m["positions"].append({"dim": rng.randrange(d), "expr": rng.choice(["j", "j/n", "2*j-n", "1/(j+1)", "delta(j-1)"])})
    for _ in range(rng.choice([1, 1, 2])):
        heads = []
        for _ in range(rng.choice([1, 1, 2])):
            kq = rng.randint(1, 2)
            dv = rng.randint(1, 2)
            heads.append({
                "kind": rng.choice(["leftmost", "rightmost", "average"]),
                "mask": rng.choice(["none", "causal", "strict", "future", "strict-future"]),
                "query": mat(kq, d), "key": mat(kq, d), "value": mat(dv, d), "output": mat(d, dv, 0.4),
            })
        ffn = None
        if rng.random() < 0.4:
            h = rng.randint(1, 3)
            ffn = {"w1": mat(h, d), "b1": [num() for _ in range(h)], "w2": mat(d, h, 0.4)}
        m["layers"].append({"heads": heads, "ffn": ffn})
    position = rng.choice(["last", "last", "first", "all"])
    if rng.random() < 0.25:
        m["output"] = {"position": position, "kind": "categorical",
                       "classes": [{"dim": 0, "label": "x"}, {"dim": d - 1, "label": "y"}]}
    else:
        m["output"] = {"position": position, "weights": [num() for _ in range(d)], "bias": num()}
    return m


def run(*args):
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout + p.stderr


def verdicts(cert, path):
    c1, o1 = run(check, cert, "--model", path)
    c2, o2 = run(mini, cert, "--model", path)
    return c1, c2, o1, o2


stats = {"certified": 0, "refuted": 0, "forged": 0, "forged_rejected": 0, "skipped": 0,
         "sharp": 0, "raised": 0, "raised_rejected": 0}
bad = 0


def words(m, n):
    return sum(len(m["alphabet"]) ** k for k in range(1, int(n) + 1))


def scaled(spec, factor):
    """beta.spec (one beta or one per layer) times factor."""
    return ",".join(str(Fraction(b) * factor) for b in spec.split(","))


def compare_forged(d, path, name, key, what):
    """Both checkers on the edited certificate d: the same verdict, 0 or 1."""
    global bad
    forged = os.path.join(work, name)
    json.dump(d, open(forged, "w"))
    c1, c2, o1, o2 = verdicts(forged, path)
    stats[key] += 1
    if c1 != c2 or c1 not in (0, 1):
        bad += 1
        print("DISAGREE on " + what, path, forged, c1, c2, o1, o2)
    elif c1 == 1:
        stats[key + "_rejected"] += 1


def sharp(path, m, n, criterion, i):
    """The bracket's ends: certified at beta_hi, forged at beta_lo."""
    global bad
    code, out = run(tempcert, "tight", path, "--n", n, "--eps", "1/20", "--criterion", criterion,
                    "--method", "exhaustive", "--json")
    if code != 0:
        return  # no bracket (degenerate read-outs, a beta needed beyond the search)
    t = json.loads(out[:out.rindex("}") + 1])
    if not t.get("converged") or not t.get("beta_lo_exact") or not t.get("beta_hi_exact"):
        return
    hi = os.path.join(work, "hi%d.json" % i)
    code, out = run(tempcert, "certify", path, "--n", n, "--eps", "1/20", "--criterion",
                    criterion, "--beta", t["beta_hi_exact"], "--method", "exhaustive", "-o", hi)
    if code != 0:
        return
    d = json.load(open(hi))
    d["beta"]["spec"] = t["beta_lo_exact"]
    lo = os.path.join(work, "lo%d.json" % i)
    json.dump(d, open(lo, "w"))
    # beta_lo 0: nothing below beta_hi is refuted; only the upper end is sharp
    ends = ((hi, 0), (lo, 1)) if Fraction(t["beta_lo_exact"]) > 0 else ((hi, 0),)
    for cert, want in ends:
        c1, c2, o1, o2 = verdicts(cert, path)
        if c1 != want or c2 != want:
            bad += 1
            print("DISAGREE at the bracket's end", path, cert, "want", want, c1, c2, o1, o2)
    stats["sharp"] += 1

for i in range(count):
    m = model()
    path = os.path.join(work, "m%d.json" % i)
    json.dump(m, open(path, "w"))
    def one_beta():
        return str(Fraction(rng.randint(1, 64), rng.choice([1, 2, 4])))
    beta = one_beta()
    if len(m["layers"]) == 2 and rng.random() < 0.33:
        beta = one_beta() + "," + one_beta()
    criterion = rng.choice(["tv", "output", "decision"])
    n = str(rng.randint(2, 4))
    cert = os.path.join(work, "c%d.json" % i)
    if i % 2 == 1:
        sharp(path, m, n, criterion, i)
    code, out = run(tempcert, "certify", path, "--n", n, "--eps", "1/20",
                    "--criterion", criterion, "--beta", beta, "--method", "exhaustive", "-o", cert)
    if code not in (0, 1) or not os.path.exists(cert):
        stats["skipped"] += 1  # degenerate read-outs, undecided: no certificate
        continue
    c1, c2, o1, o2 = verdicts(cert, path)
    if c1 != 0 or c2 != 0:
        bad += 1
        print("DISAGREE on the written certificate", path, cert, c1, c2, o1, o2)
        continue
    stats["certified" if code == 0 else "refuted"] += 1
    d = json.load(open(cert))
    if d["verdict"] == "refuted":
        raised = dict(d, beta={"spec": scaled(d["beta"]["spec"], 64), "source": "user"})
        compare_forged(raised, path, "r%d.json" % i, "raised", "a refutation at a raised beta")
    d["beta"] = {"spec": scaled(d["beta"]["spec"], Fraction(1, rng.choice([2, 4, 16]))),
                 "source": "user"}
    if d["verdict"] == "refuted":
        d["verdict"] = "certified"
        d["counterexample"] = None
        d["words_checked"] = words(m, d["n"])
    compare_forged(d, path, "f%d.json" % i, "forged", "a forged certificate")
print("models %d: written certified %d, refuted %d, skipped %d; forged %d, rejected by both %d; "
      "refutations at 64 beta %d, rejected by both %d; bracket ends %d; disagreements %d"
      % (count, stats["certified"], stats["refuted"], stats["skipped"], stats["forged"],
         stats["forged_rejected"], stats["raised"], stats["raised_rejected"], stats["sharp"], bad))
sys.exit(1 if bad else 0)
