#!/usr/bin/env python3
"""Boundary values in every numeric field of every certificate kind, against
both checkers.

usage: boundary.py TEMPCERT TEMPCERT_CHECK TEMPCERT_MINICHECK CASES

`tempcert certify` writes one small certificate of each kind (exhaustive
certified and refuted, layerwise with and without BOS and with a
feed-forward sublayer, perturbation under tv, output and decision). Every
numeric field of each (JSON numbers, and strings holding an exact number or
beta's expression) is then set in turn to:
  0, -1, -1000, 10^-60 (tiny), 10^60 (huge),
  non-finite text (inf, -inf, nan, Infinity, NaN), and 1e999 (an exact
  10^999 where a field reads exponents, bad input where it does not),
  one ulp off either way (the last decimal digit, the numerator, or 1 for
  an integer), and
  the same field of another layer or head, where there is one.
Both checkers run on each edited copy. The rules:
  * non-finite text is never verified by either: the small checker answers
    bad input (exit 2), or a false claim (1) where "inf" is a field's word
    for "no gap";
  * a beta.spec of 0, below 0 or 10^-60 where the written beta was needed
    is a false claim: both refuse it;
  * wherever beta.spec changes, `tempcert certify` at that beta is the
    independent judge: a copy claiming "certified" at a beta the engine
    refutes is refused by both;
  * the checkers agree: one verifies (exit 0) exactly when the other does,
    except that tempcert-check may answer 3 (outside what it verifies).
Prints a summary; exit 1 on any violation of these rules."""
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

tempcert, check, mini, cases = sys.argv[1:5]
work = tempfile.mkdtemp()
SANITIZED = os.environ.get("TEMPCERT_SANITIZED") == "1"
# every copy in the long tier (minicheck_boundary_full); the default tier
# edits one copy in three, the sanitized build one in twenty, and both
# every beta.spec copy (the false-VERIFIED class of issue 64 item 0)
STRIDE = 1 if os.environ.get("TEMPCERT_LONG") == "1" else 20 if SANITIZED else 3
models = os.path.join(cases, "models")

# name, model, certify arguments, and for a variant of the kind above it
# (another criterion or beta source) the fields it differs in: only those
# are edited there, the rest being the same code path.
VARIANT = ("beta", "readout", "eps", "criterion", "tv", "verdict", "counterexample")
KINDS = [
    ("exhaustive", "has-b", ["--n", "4", "--eps", "1/100"]),
    ("exhaustive-user-beta", "has-b", ["--n", "4", "--eps", "1/100", "--beta", "9/2"], VARIANT),
    ("refuted", "has-b", ["--n", "4", "--eps", "1/100", "--beta", "1"]),
    ("layerwise", "prev-a-earlier-b", ["--n", "30", "--eps", "1/100", "--method", "layerwise"]),
    ("layerwise-bos", "prev-is-a-bos", ["--n", "20", "--eps", "1/100", "--method", "layerwise"]),
    ("layerwise-ffn", "every-a-after-b-bounded",
     ["--n", "12", "--eps", "1/100", "--method", "layerwise"]),
    ("perturbation-tv", "has-ab-two-layer", ["--n", "12", "--eps", "1/100", "--method", "layerwise"]),
    ("perturbation-output", "has-ab-two-layer",
     ["--n", "12", "--eps", "1/100", "--method", "layerwise", "--criterion", "output"], VARIANT),
    ("perturbation-decision", "has-ab-two-layer",
     ["--n", "12", "--eps", "1/100", "--method", "layerwise", "--criterion", "decision"], VARIANT),
]

NUMBER = re.compile(r"^-?(\d+(\.\d+)?|\d+/\d+)$")
NON_FINITE = ["inf", "-inf", "nan", "Infinity", "NaN"]
TINY = "1/1" + "0" * 60
HUGE = "1" + "0" * 60


def leaves(node, path=()):
    """Every numeric leaf: (path, value)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from leaves(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from leaves(v, path + (i,))
    elif isinstance(node, bool) or node is None:
        return
    elif isinstance(node, int):
        yield path, node
    elif isinstance(node, str) and (NUMBER.match(node) or path[-2:] == ("beta", "spec")):
        yield path, node


def get(node, path):
    for p in path:
        node = node[p]
    return node


def put(node, path, value):
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value


def ulps(value):
    """The values one unit in the last place either side."""
    if isinstance(value, int):
        return [value - 1, value + 1]
    m = re.match(r"^(-?)(\d+)/(\d+)$", value)
    if m:
        p = int(m.group(1) + m.group(2))
        return [f"{p - 1}/{m.group(3)}", f"{p + 1}/{m.group(3)}"]
    m = re.match(r"^(-?\d+)\.(\d+)$", value)
    if m:
        digits = len(m.group(2))
        scaled = int(m.group(1) + m.group(2)) if not m.group(1).startswith("-") else -int(
            m.group(1)[1:] + m.group(2))
        out = []
        for s in (scaled - 1, scaled + 1):
            sign = "-" if s < 0 else ""
            t = str(abs(s)).rjust(digits + 1, "0")
            out.append(f"{sign}{t[:-digits]}.{t[-digits:]}")
        return out
    if re.match(r"^-?\d+$", value):
        return [str(int(value) - 1), str(int(value) + 1)]
    return []


def siblings(cert, path):
    """The same field under another index of the nearest enclosing list."""
    out = []
    for k in range(len(path) - 1, -1, -1):
        if isinstance(path[k], int):
            parent = get(cert, path[:k])
            for i in range(len(parent)):
                if i == path[k]:
                    continue
                try:
                    out.append(get(cert, path[:k] + (i,) + path[k + 1:]))
                except (KeyError, IndexError, TypeError):
                    pass
            if out:
                return out
    return out


def mutations(cert, path, value):
    """(label, new value) for one leaf."""
    as_int = isinstance(value, int)
    wrap = (lambda v: v) if as_int else str
    out = [("zero", wrap(0)), ("minus-one", wrap(-1)), ("minus-1000", wrap(-1000)),
           ("huge", int(HUGE) if as_int else HUGE)]
    if not as_int:
        out += [("tiny", TINY), ("huge", "1e999")]  # an exact 10^999 where exponents are read
    out += [("non-finite " + t, t) for t in NON_FINITE]
    out += [("ulp", v) for v in ulps(value)]
    out += [("other layer or head", v) for v in siblings(cert, path)]
    seen, unique = set(), []
    for label, v in out:
        if v != value and json.dumps(v) not in seen:
            seen.add(json.dumps(v))
            unique.append((label, v))
    return unique


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    return r.returncode, (r.stdout + r.stderr).strip().splitlines()[-1:] or [""]


engine_cache = {}


def engine_verdict(model, args, beta):
    """tempcert certify's own verdict at this beta: 0 certified, 1 refuted, 2 bad, 3 undecided."""
    key = (model, tuple(args), beta)
    if key not in engine_cache:
        out = os.path.join(work, "engine.json")
        a = [x for x in args]
        if "--beta" in a:
            i = a.index("--beta")
            del a[i:i + 2]
        code, _ = run([tempcert, "certify", model] + a + ["--beta", beta])
        engine_cache[key] = code
    return engine_cache[key]


def main():
    failures, counts = [], {"copies": 0, "both refused": 0, "both verified": 0, "mini 3": 0}
    jobs = []
    for name, model_name, args, *only in KINDS:
        model = os.path.join(models, model_name + ".json")
        base = os.path.join(work, name + ".json")
        code, tail = run([tempcert, "certify", model] + args + ["-o", base])
        if code not in (0, 1) or not os.path.exists(base):
            failures.append(f"{name}: certify exited {code}: {tail}")
            continue
        for prog in (mini, check):
            c, t = run([prog, base, "--model", model])
            if c != 0:
                failures.append(f"{name}: {os.path.basename(prog)} refuses the untouched copy: {t}")
        cert = json.load(open(base))
        k = 0
        for path, value in leaves(cert):
            if only and not any(key in only[0] for key in path if isinstance(key, str)):
                continue
            for label, new in mutations(cert, path, value):
                if len(jobs) % STRIDE and path[-2:] != ("beta", "spec"):
                    jobs.append(None)  # left out of this tier (STRIDE above)
                    continue
                edited = json.loads(json.dumps(cert))
                put(edited, path, new)
                f = os.path.join(work, f"{name}-{k}.json")
                k += 1
                with open(f, "w") as out:
                    json.dump(edited, out)
                jobs.append((name, model, args, path, label, value, new, f, edited))

    def judge(job):
        name, model, args, path, label, value, new, f, edited = job
        (mc, mt), (cc, ct) = run([mini, f, "--model", model]), run([check, f, "--model", model])
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
        what = f"{name} {where} {json.dumps(value)} -> {json.dumps(new)} ({label})"
        bad = []
        if label.startswith("non-finite"):
            # bad input (2), or a false claim where the field admits "inf" (1)
            if mc == 0 or cc == 0:
                bad.append(f"{what}: verified (small {mc}, large {cc})")
            elif mc not in (1, 2):
                bad.append(f"{what}: the small checker exits {mc}, want 1 or 2: {mt}")
        if path[-2:] == ("beta", "spec") and (mc == 0 or cc == 0):
            positive = not label.startswith(("zero", "minus"))
            if not positive or label == "tiny":
                bad.append(f"{what}: a false beta verified (small {mc}, large {cc})")
            elif edited.get("verdict") == "certified" and not label.startswith("non-finite"):
                v = engine_verdict(model, args, str(new))
                if v != 0:
                    bad.append(f"{what}: verified, but tempcert certify at that beta exits {v}")
        if (mc == 0) != (cc == 0) and not (mc == 0 and cc == 3):
            bad.append(f"{what}: the checkers disagree: small {mc} {mt}, large {cc} {ct}")
        return mc, cc, bad

    jobs = [j for j in jobs if j is not None]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for mc, cc, bad in pool.map(judge, jobs):
            counts["copies"] += 1
            counts["both refused"] += mc != 0 and cc != 0
            counts["both verified"] += mc == 0 and cc == 0
            counts["mini 3"] += mc == 3
            failures += bad
    for f in failures:
        print("FAIL", f)
    print(f"boundary: {counts['copies']} edited copies of {len(KINDS)} certificates: "
          f"{counts['both refused']} refused by both, {counts['both verified']} verified by both "
          f"(true claims: informative fields or a sound change), {counts['mini 3']} left to "
          f"tempcert-check by the small checker; {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        code = main()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(code)
