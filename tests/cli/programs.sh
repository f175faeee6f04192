#!/usr/bin/env bash
# The learned-program shape of cases/programs/ end to end (issue 61, item 3):
# one-hot positions delta(j-p), a relative-position table and a BOS default.
# Its tight beta at n solves e^(-beta/2) + (n - 1) e^(-beta) = 1/99 (the
# query at n: BOS at gap 1/2, n - 1 positions at gap 1), so at n = 12 it is
# 9.382541...; the gap at 16 comes from the symbolic method at once, the
# lower end's word refutes under eval, and a certificate at the upper end is
# verified by both checkers, one just below it refuted.
# Usage: programs.sh TEMPCERT CASES
set -u
tc=$1
cases=$2
model=$cases/programs/prev-token-onehot.json
dir=$(dirname "$tc")
fail=0
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
py=/usr/bin/python3
[ -x "$py" ] || py=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$("$tc" gap "$model" --n 16 2>&1)
printf '%s' "$out" | grep -q "min gap 1/2, N = 17" || bad "gap at n = 16: $out"
printf '%s' "$out" | grep -q "symbolic, no enumeration" || bad "gap at 16 not symbolic: $out"

r=$("$tc" tight "$model" --n 12 --eps 1/100 --json 2>/dev/null | "$py" -c '
import json, math, sys
from fractions import Fraction as F
d = json.load(sys.stdin)
lo, hi = F(d["beta_lo_exact"]), F(d["beta_hi_exact"])
# the root of e^(-b/2) + 11 e^(-b) = 1/99, by bisection in floats (a check, not a proof)
f = lambda b: math.exp(-b / 2) + 11 * math.exp(-b) - 1 / 99
a, z = 5.0, 20.0
for _ in range(200):
    m = (a + z) / 2
    a, z = (m, z) if f(m) > 0 else (a, m)
if not (d["converged"] and float(lo) <= a + 1e-9 and a - 1e-9 <= float(hi) and hi - lo <= F(1, 10**6) * hi):
    sys.exit("bracket [%s, %s] against the root %s" % (float(lo), float(hi), a))
print(d["beta_lo_exact"], d["beta_hi"], d["lo_witness"])') || bad "tight at n = 12: $r"
if [ -n "$r" ]; then
    set -- $r
    ev=$("$tc" eval "$model" --input "$3" --beta "$1" --summary 2>&1)
    printf '%s' "$ev" | "$py" -c '
import re, sys
from fractions import Fraction as F
m = re.search(r"largest TV \[([0-9.e-]+), ", sys.stdin.read())
sys.exit(0 if m and F(m.group(1)) > F(1, 100) else 1)' || bad "the lower end's word does not refute: $ev"
    hi=$2
    "$tc" certify "$model" --n 12 --eps 1/100 --beta "$hi" -o "$tmp/hi.cert" > /dev/null 2>&1 ||
        bad "certify at the upper end $hi"
    "$tc" check "$tmp/hi.cert" --model "$model" 2>&1 | grep -q "^s VERIFIED" ||
        bad "tempcert check does not verify the certificate at $hi"
    "$dir/tempcert-minicheck" "$tmp/hi.cert" --model "$model" 2>&1 | grep -q "^s VERIFIED" ||
        bad "the small checker does not verify the certificate at $hi"
    "$tc" certify "$model" --n 12 --eps 1/100 --beta 9.38 > "$tmp/low.txt" 2>&1
    [ $? = 1 ] && grep -q "verdict: refuted" "$tmp/low.txt" || bad "beta 9.38 is not refuted"
fi

# the same program with 101 one-hot positions, at n = 100: beyond
# enumeration, by the symbolic method, against the root for 99 positions
big=$cases/programs/prev-token-onehot-100.json
"$tc" tight "$big" --n 100 --eps 1/100 --json 2>/dev/null | "$py" -c '
import json, math, sys
from fractions import Fraction as F
d = json.load(sys.stdin)
lo, hi = F(d["beta_lo_exact"]), F(d["beta_hi_exact"])
f = lambda b: math.exp(-b / 2) + 99 * math.exp(-b) - 1 / 99
a, z = 5.0, 20.0
for _ in range(200):
    m = (a + z) / 2
    a, z = (m, z) if f(m) > 0 else (a, m)
ok = d["converged"] and d["method"] == "symbolic" and float(lo) <= a + 1e-9 <= float(hi) + 2e-9
sys.exit(0 if ok else "bracket [%s, %s] by %s against the root %s" % (float(lo), float(hi), d["method"], a))' ||
    bad "tight of the 100-position program at n = 100"

[ "$fail" = 0 ] && echo "programs: all checks passed"
exit $fail
