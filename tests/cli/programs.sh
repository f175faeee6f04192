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
. "$(dirname "$0")/refutes.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$("$tc" gap "$model" --n 16 2>&1)
printf '%s' "$out" | grep -q "min gap 1/2, N = 17" || bad "gap at n = 16: $out"
printf '%s' "$out" | grep -q "symbolic, no enumeration" || bad "gap at 16 not symbolic: $out"

# holds_root K METHOD: the tight JSON on stdin has a converged bracket, by
# METHOD (any when empty), holding the root of e^(-b/2) + K e^(-b) = 1/99
# (bisection in floats: a check, not a proof); prints its lower end, upper
# end and word
holds_root() {
    "$py" -c '
import json, math, sys
from fractions import Fraction as F
d = json.load(sys.stdin)
k, method = int(sys.argv[1]), sys.argv[2]
lo, hi = F(d["beta_lo_exact"]), F(d["beta_hi_exact"])
f = lambda b: math.exp(-b / 2) + k * math.exp(-b) - 1 / 99
a, z = 5.0, 20.0
for _ in range(200):
    m = (a + z) / 2
    a, z = (m, z) if f(m) > 0 else (a, m)
ok = d["converged"] and (not method or d["method"] == method) and hi - lo <= F(1, 10**6) * hi
if not (ok and float(lo) <= a + 1e-9 and a - 2e-9 <= float(hi)):
    sys.exit("bracket [%s, %s] by %s against the root %s" % (float(lo), float(hi), d["method"], a))
print(d["beta_lo_exact"], d["beta_hi"], d["lo_witness"])' "$1" "$2"
}

r=$("$tc" tight "$model" --n 12 --eps 1/100 --json 2>/dev/null | holds_root 11 "") ||
    bad "tight at n = 12: $r"
if [ -n "$r" ]; then
    set -- $r
    refutes_under_eval prev-token-onehot "$model" "$1" "$3"
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

# n = 14 and 16 within the word budget: auto takes the symbolic threshold
# (the one enumeration finds, in milliseconds), and --method exhaustive
# agrees at 14
for n in 14 16; do
    r=$("$tc" tight "$model" --n $n --eps 1/100 --json 2>/dev/null | holds_root $((n - 1)) symbolic) ||
        bad "tight at n = $n by auto: $r"
done
r=$("$tc" tight "$model" --n 14 --eps 1/100 --method exhaustive --json 2>/dev/null |
    holds_root 13 "") || bad "tight at n = 14 by enumeration: $r"

# the same program with 101 one-hot positions, at n = 100: beyond
# enumeration, by the symbolic method, against the root for 99 positions
big=$cases/programs/prev-token-onehot-100.json
r=$("$tc" tight "$big" --n 100 --eps 1/100 --json 2>/dev/null | holds_root 99 symbolic) ||
    bad "tight of the 100-position program at n = 100: $r"

[ "$fail" = 0 ] && echo "programs: all checks passed"
exit $fail
