#!/usr/bin/env bash
# tight --every-n end to end (proofs/every-n.md): the bracket of the
# supremum over every length for has-b (ln(99)/2, attained at n = 2),
# last-cd-is-d and prev-is-a-bos (ln 100, never attained), each lower end's
# word refuting under `eval --summary`; earlier-b-strict unbounded with its
# growth law; out-of-scope models and bad option pairs refused.
# Usage: every_n.sh TEMPCERT CASES
set -u
tc=$1
models=$2/models
fail=0
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
py=/usr/bin/python3
[ -x "$py" ] || py=python3
. "$(dirname "$0")/refutes.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# bracket MODEL SUP: --every-n's bracket holds SUP (a float) and is within
# rel 1e-6; prints the lower end's exact beta and word
bracket() {
    "$tc" tight "$models/$1.json" --eps 1/100 --every-n --json 2>"$tmp/err" | "$py" -c '
import json, math, sys
from fractions import Fraction as F
d = json.load(sys.stdin)
sup = eval(sys.argv[1], {"log": math.log})
lo, hi = F(d["beta_lo_exact"]), F(d["beta_hi_exact"])
assert d["every_n"] is True and d["bounded"] is True and d["converged"] is True, d
if not (float(lo) <= sup <= float(hi) and hi - lo <= F(1, 10**6) * hi):
    sys.exit(f"bracket [{float(lo)}, {float(hi)}] does not hold {sup} to rel 1e-6")
print(d["beta_lo_exact"], d["lo_witness"])' "$2"
}

# refutes MODEL BETA WORD: eval --summary shows a TV above eps at BETA
refutes() { refutes_under_eval "$1" "$models/$1.json" "$2" "$3"; }

# horizon_is MODEL BETA ASSERTION: horizon without --max-n; ASSERTION, a
# Python expression on its JSON answer d, holds
horizon_is() {
    local out
    out=$("$tc" horizon "$models/$1.json" --eps 1/100 --beta "$2" --json 2>&1)
    printf '%s' "$out" | "$py" -c "import json, sys; d = json.load(sys.stdin); assert $3, d" ||
        bad "horizon $1 at $2: $out"
}

for pair in "has-b log(99)/2" "last-cd-is-d log(100)" "prev-is-a-bos log(100)"; do
    m=${pair% *}
    if r=$(bracket "$m" "${pair#* }"); then
        refutes "$m" ${r% *} ${r#* }
    else
        bad "$m --every-n: $r $(cat "$tmp/err")"
    fi
done

# several layers (Theorem L): the compiled a S b (the paper's first result,
# ln 100 never attained) and H (b -> Y a), by layers, each lower end's word
# refuting under eval
for formula in "a S b" "H (b -> Y a)"; do
    "$tc" compile "$formula" --alphabet a,b -o "$tmp/f.json" >/dev/null 2>&1 ||
        bad "compile $formula"
    out=$("$tc" tight "$tmp/f.json" --eps 1/100 --every-n --json 2>&1)
    rc=$?
    r=$(printf '%s' "$out" | "$py" -c '
import json, math, sys
from fractions import Fraction as F
d = json.load(sys.stdin)
assert d["every_n"] and d["bounded"] and d["converged"] and d["method"] == "layers", d
lo, hi = F(d["beta_lo_exact"]), F(d["beta_hi_exact"])
assert float(lo) <= math.log(100) * (1 + 1e-9) and hi - lo <= F(1, 10**6) * hi, (lo, hi)
assert d["layer_sups"] and max(F(x["beta_hi"]) for x in d["layer_sups"]) >= hi - F(1, 10**12), d
print(d["beta_lo_exact"], d["lo_witness"])') && [ "$rc" = 0 ] ||
        { bad "$formula --every-n by layers: exit $rc: $out"; continue; }
    refutes_under_eval "$formula" "$tmp/f.json" ${r% *} ${r#* }
done

# horizon without --max-n by layers: every n at 4.6052, a first failure at
# n = 4 at 4.6051 (prev-a-earlier-b, compiled Y a & Y O b); where Theorem L
# does not apply, horizon asks for --max-n (exit 2)
horizon_is prev-a-earlier-b 4.6052 'd["certified_up_to"] == "every" and d["method"] == "every-n-layers"'
horizon_is prev-a-earlier-b 4.6051 'd["certified_up_to"] == 3 and d["first_failure"]["n"] == 4'
out=$("$tc" horizon "$models/has-ab-two-layer.json" --eps 1/100 --beta 20 2>&1)
rc=$?
[ "$rc" = 2 ] && grep -q "expected --max-n N.*exact rounding does not apply" <<<"$out" ||
    bad "horizon has-ab-two-layer without --max-n: exit $rc: $out"

# theorem ltl-unbounded-pe --every-n: one constant beta for every length
# (the paper's first result); a claim below the lower end refuted by its
# word at the claim, one inside the bracket undecided, --range refused
out=$("$tc" theorem ltl-unbounded-pe 'a S b' --alphabet a,b --eps 1/100 --every-n 2>&1)
rc=$?
[ "$rc" = 0 ] && grep -q "one constant beta = 4.605174 certifies every word of every length" <<<"$out" ||
    bad "theorem ltl-unbounded-pe --every-n: exit $rc: $out"
out=$("$tc" theorem ltl-unbounded-pe 'a S b' --alphabet a,b --eps 1/100 --every-n --beta 4.6 2>&1)
rc=$?
[ "$rc" = 1 ] && grep -q "beta = 4.6 fails: n = [0-9]*, word b*a: TV at layer 2" <<<"$out" ||
    bad "theorem ltl-unbounded-pe --every-n --beta 4.6: exit $rc: $out"
out=$("$tc" theorem ltl-unbounded-pe 'a S b' --alphabet a,b --eps 1/100 --every-n --beta 4.605171 2>&1)
rc=$?
[ "$rc" = 3 ] && grep -q "within the supremum's bracket" <<<"$out" ||
    bad "theorem --every-n inside the bracket: exit $rc: $out"
out=$("$tc" theorem ltl-unbounded-pe 'a S b' --alphabet a,b --eps 1/100 --every-n --range 2..4 2>&1)
rc=$?
[ "$rc" = 2 ] && grep -q "drop --range" <<<"$out" || bad "theorem --every-n --range: exit $rc: $out"
out=$("$tc" theorem ltl-temperature-scaling 'a S b' --alphabet a,b --eps 1/100 --every-n 2>&1)
rc=$?
[ "$rc" = 2 ] && grep -q "only ltl-unbounded-pe" <<<"$out" ||
    bad "theorem ltl-temperature-scaling --every-n: exit $rc: $out"

# the text form says what is certified for every length
out=$("$tc" tight "$models/last-cd-is-d.json" --eps 1/100 --every-n 2>&1)
grep -q "certified for every word of every length" <<<"$out" ||
    bad "last-cd-is-d --every-n text: $out"

# no constant beta: exit 3, the growth law and the word family
out=$("$tc" tight "$models/earlier-b-strict.json" --eps 1/100 --every-n --json 2>&1)
rc=$?
[ "$rc" = 3 ] || bad "earlier-b-strict --every-n: exit $rc, expected 3"
printf '%s' "$out" | "$py" -c '
import json, sys
d = json.load(sys.stdin)
assert d["bounded"] is False and d["growth"] == "log n" and d["growth_rate"] == "1", d
assert d["growth_witnesses"] and d["growth_witnesses"][0]["delta"] == "1", d
# the envelope (Lemma E4): C = ln 99 rounded up, within 2 % at 10^3 and 10^4
assert d["beta_expr"] == "(log(n) + 4.595120699) * 1", d
assert all(0 <= float(v.rstrip("%")) <= 2 for v in d["envelope_excess"].values()), d' ||
    bad "earlier-b-strict --every-n JSON: $out"

# certify --every-n of a constant beta where none exists: refuted by a word
# of Lemma E3's family (earlier-b-strict at 10: length 671, failing at 225)
out=$("$tc" certify "$models/earlier-b-strict.json" --eps 1/100 --beta 10 --every-n 2>&1)
rc=$?
[ "$rc" = 1 ] && grep -q "verdict: refuted" <<<"$out" || bad "certify --every-n earlier-b-strict at 10: exit $rc: $out"

# the envelope's text is a beta expression that certifies (here up to 12)
expr=$(printf '%s' "$("$tc" tight "$models/earlier-b-strict.json" --eps 1/100 --every-n --json 2>/dev/null)" |
    "$py" -c 'import json, sys; print(json.load(sys.stdin)["beta_expr"])')
out=$("$tc" certify "$models/earlier-b-strict.json" --n 12 --eps 1/100 --beta "$expr" 2>&1)
rc=$?
[ "$rc" = 0 ] || bad "certify --beta '$expr' (the envelope) at n = 12: exit $rc: $out"

# outside the scope: exit 3 with the reason
out=$("$tc" tight "$models/first-is-a-bounded.json" --eps 1/100 --every-n 2>&1)
rc=$?
[ "$rc" = 3 ] && grep -q "reads n" <<<"$out" || bad "first-is-a-bounded --every-n: exit $rc: $out"
out=$("$tc" tight "$models/has-ab-two-layer.json" --eps 1/100 --every-n 2>&1)
rc=$?
[ "$rc" = 3 ] && grep -q "exact rounding does not apply" <<<"$out" ||
    bad "has-ab-two-layer --every-n: exit $rc: $out"
out=$("$tc" tight "$models/last-cd-is-d.json" --eps 1/100 --every-n --n 8 2>&1)
rc=$?
[ "$rc" = 3 ] && grep -q "past --n 8" <<<"$out" || bad "--every-n --n 8: exit $rc: $out"

# bad option pairs: exit 2, nothing written
for extra in "--per-layer" "-o $tmp/c.cert" "--method exhaustive"; do
    out=$("$tc" tight "$models/has-b.json" --eps 1/100 --every-n $extra 2>&1)
    rc=$?
    [ "$rc" = 2 ] || bad "--every-n $extra: exit $rc, expected 2: $out"
done
[ -e "$tmp/c.cert" ] && bad "--every-n -o wrote $tmp/c.cert"

# horizon without --max-n: every n at 4.6052, a finite first failure at 4.6051
horizon_is last-cd-is-d 4.6052 'd["certified_up_to"] == "every" and d["every_n"] is True'
horizon_is last-cd-is-d 4.6051 'd["certified_up_to"] == 3 and d["first_failure"]["n"] == 4'
# no constant beta: the first failure from Lemma E3's word family
horizon_is earlier-b-strict 10 'd["certified_up_to"] == 224 and d["first_failure"]["n"] == 225'
out=$("$tc" horizon "$models/first-is-a-bounded.json" --eps 1/100 --beta 5 2>&1)
rc=$?
[ "$rc" = 2 ] && grep -q "reads n" <<<"$out" || bad "horizon first-is-a-bounded without --max-n: exit $rc: $out"

[ "$fail" = 0 ] && echo "every-n: all checks passed"
exit $fail
