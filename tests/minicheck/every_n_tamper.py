#!/usr/bin/env python3
"""Every-n certificates (proofs/every-n.md) against the small checker, which
is the one checker that reads them, and `tempcert check`, which hands them
to it.

usage: every_n_tamper.py TEMPCERT TEMPCERT_MINICHECK CASES

`certify --every-n` writes the certificates of has-b (beta 2.3),
last-cd-is-d (4.6052) and prev-is-a-bos (4.61); each verifies. Then:
  * a forged certificate whose finite part is honest and whose tail claim
    is false: last-cd-is-d at beta 4.6 (below its supremum ln 100) with
    n0 = 3 and a genuine certificate of every word up to length 2 at 4.6
    (whose need is ln 99 = 4.595): the tail bound must refuse it; the same
    at beta 4.7 is true and verifies (at 4.6052 the bound from n0 = 3 is
    too loose by 1e-6, and the checker rightly refuses it);
  * every field edited: beta (0, -1, 1e-60, a value below the supremum, an
    expression in n), n (15, "every "), n0 (0, 1, 2^41, one off), tail_terms
    one off, criterion, the finite part's n, beta, method and verdict, the
    proofs list, a missing or an extra key: never verified;
  * by layers (Theorem L, heads past layer 1): prev-a-earlier-b (compiled
    Y a & Y O b) at 4.6052 verifies; a genuine layerwise certificate of
    the words up to length 2 at 4.6 under a tail claim from n0 = 3 is
    refused by the tail over the heads' virtual models, and so are its
    betas below the supremum, tail_terms one off, and an honest exhaustive
    finite part in place of the layerwise one;
  * the certificate of one model against another model: never verified.
Exit 1 on any verified forgery or any honest certificate refused."""
import copy
import json
import os
import subprocess
import sys
import tempfile

tempcert, mini, cases = sys.argv[1:4]
models = os.path.join(cases, "models")
work = tempfile.mkdtemp()
failures = []


def run(args):
    return subprocess.run(args, capture_output=True, text=True, timeout=600)


def model(name):
    return os.path.join(models, name + ".json")


def write(doc, name):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        json.dump(doc, f, indent=2)
    return path


def verdicts(path, name):
    """Exit codes of the small checker and of tempcert check."""
    a = run([mini, path, "--model", model(name)])
    b = run([tempcert, "check", path, "--model", model(name)])
    if (a.returncode == 0) != (b.returncode == 0):
        failures.append(f"{path}: the small checker exits {a.returncode}, tempcert check "
                        f"{b.returncode}")
    return a.returncode, a.stdout + a.stderr


def must_verify(doc, name, what):
    rc, out = verdicts(write(doc, "ok.cert"), name)
    if rc != 0:
        failures.append(f"{what}: honest certificate refused (exit {rc}): {out.strip()}")


def must_refuse(doc, name, what):
    rc, out = verdicts(write(doc, "forged.cert"), name)
    if rc == 0:
        failures.append(f"{what}: forged certificate VERIFIED: {out.strip()}")
    return rc


honest = {}
for name, beta in [("has-b", "2.3"), ("last-cd-is-d", "4.6052"), ("prev-is-a-bos", "4.61")]:
    path = os.path.join(work, name + ".cert")
    r = run([tempcert, "certify", model(name), "--eps", "1/100", "--beta", beta, "--every-n",
             "-o", path])
    if r.returncode != 0 or not os.path.exists(path):
        failures.append(f"{name}: certify --every-n exit {r.returncode}: {r.stdout}{r.stderr}")
        continue
    with open(path) as f:
        honest[name] = json.load(f)
    must_verify(honest[name], name, f"{name} as written")

# an honest finite part under a false tail claim
finite = os.path.join(work, "finite2.cert")
for beta, true_claim in [("4.6", False), ("4.7", True)] if "last-cd-is-d" in honest else []:
    r = run([tempcert, "certify", model("last-cd-is-d"), "--n", "2", "--eps", "1/100", "--beta",
             beta, "-o", finite])
    if r.returncode != 0:
        failures.append(f"certify --n 2 --beta {beta}: exit {r.returncode}: {r.stderr}")
        continue
    with open(finite) as f:
        doc = copy.deepcopy(honest["last-cd-is-d"])
        doc["finite"] = json.load(f)
        doc["beta"]["spec"] = beta
        doc["n0"] = 3
    if true_claim:
        must_verify(doc, "last-cd-is-d", "n0 = 3 at beta 4.7")
    else:
        for terms in (doc["tail_terms"], doc["tail_terms"] + 1):
            doc["tail_terms"] = terms
            must_refuse(doc, "last-cd-is-d", f"n0 = 3 at beta 4.6 (tail_terms {terms})")


def edited(base, path, value):
    doc = copy.deepcopy(base)
    node = doc
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return doc


edits = []
for beta in ["0", "-1", "1e-60", "0.000001", "4.6", "4.6052*n", "log(100)", "inf", "nan"]:
    edits.append((("beta", "spec"), beta))
edits += [(("n",), 15), (("n",), "every "), (("n0",), 0), (("n0",), 1), (("n0",), 2 ** 41),
          (("n0",), 17), (("n0",), "16"), (("tail_terms",), 15), (("tail_terms",), 17),
          (("criterion",), "output"), (("finite", "n"), 14), (("finite", "n"), 16),
          (("finite", "beta", "spec"), "4.6053"), (("finite", "method"), "every-n"),
          (("finite", "verdict"), "refuted"), (("proofs",), []), (("verdict",), "refuted"),
          (("eps",), "1/10"), (("eps",), "1/1000"), (("n0",), KeyError),
          (("finite",), KeyError), (("extra",), 1), (("method",), "layerwise")]
base = honest.get("last-cd-is-d")
refused = 0
if base:
    for path, value in edits:
        if path == ("n0",) and value == 17:
            continue  # with finite.n still 15 this is a mismatch, tested as such below
        must_refuse(edited(base, path, value), "last-cd-is-d", f"{'.'.join(path)} = {value!r}")
        refused += 1
    must_refuse(edited(base, ("n0",), 17), "last-cd-is-d", "n0 = 17 with finite.n 15")
    # tempcert check --json on an every-n certificate: check's JSON fields
    j = run([tempcert, "check", write(base, "json.cert"), "--model", model("last-cd-is-d"),
             "--json"])
    try:
        d = json.loads(j.stdout)
        if not (d["accepted"] is True and d["method"] == "every-n" and "every n" in d["claim"]):
            failures.append(f"tempcert check --json: {d}")
    except ValueError:
        failures.append(f"tempcert check --json printed no JSON: {j.stdout!r} {j.stderr!r}")
    # one model's certificate against another
    rc, _ = verdicts(write(base, "other.cert"), "has-b")
    if rc == 0:
        failures.append("last-cd-is-d's certificate verified against has-b")

# by layers (Theorem L)
pab = os.path.join(work, "pab.cert")
r = run([tempcert, "certify", model("prev-a-earlier-b"), "--eps", "1/100", "--beta", "4.6052",
         "--every-n", "-o", pab])
if r.returncode != 0 or not os.path.exists(pab):
    failures.append(f"prev-a-earlier-b: certify --every-n exit {r.returncode}: {r.stdout}{r.stderr}")
else:
    with open(pab) as f:
        layers = json.load(f)
    honest["prev-a-earlier-b"] = layers
    must_verify(layers, "prev-a-earlier-b", "prev-a-earlier-b by layers as written")
    if layers["finite"]["method"] != "layerwise":
        failures.append(f"prev-a-earlier-b: finite part {layers['finite']['method']}")
    for path, value in [(("beta", "spec"), "4.6051"), (("beta", "spec"), "4.60517"),
                        (("tail_terms",), layers["tail_terms"] + 1),
                        (("tail_terms",), layers["tail_terms"] - 1)]:
        doc = edited(layers, path, value)
        if path[0] == "beta":
            doc["finite"]["beta"]["spec"] = value
        must_refuse(doc, "prev-a-earlier-b", f"by layers: {'.'.join(path)} = {value!r}")
        refused += 1
    for method, n, beta in [("layerwise", 2, "4.6"), ("exhaustive", layers["n0"] - 1, "4.6052")]:
        fin = os.path.join(work, "pab-finite.cert")
        r = run([tempcert, "certify", model("prev-a-earlier-b"), "--n", str(n), "--eps", "1/100",
                 "--beta", beta, "--method", method, "-o", fin])
        if r.returncode != 0:
            failures.append(f"prev-a-earlier-b --n {n} --method {method}: exit {r.returncode}")
            continue
        doc = copy.deepcopy(layers)
        with open(fin) as f:
            doc["finite"] = json.load(f)
        doc["beta"]["spec"], doc["n0"] = beta, n + 1
        must_refuse(doc, "prev-a-earlier-b", f"by layers: an honest {method} finite part "
                    f"(n = {n}, beta {beta}) under the tail")
        refused += 1
    rc, _ = verdicts(write(layers, "other-layers.cert"), "has-ab-two-layer")
    if rc == 0:
        failures.append("prev-a-earlier-b's certificate verified against has-ab-two-layer")

for f in failures:
    print("FAIL:", f)
print(f"every-n tamper: {len(honest)} honest certificates, {refused} edited copies, "
      f"{len(failures)} failures")
sys.exit(1 if failures else 0)
