#!/usr/bin/env bash
# Issue 35's table, measured end to end: for every bundled case and three
# compiled formulas, `tight --threads 1 -o CERT` at one n (the bracket, its
# width, the method, seconds), `tempcert-check` on the upper end's
# certificate (seconds, verdict), and `eval` of the lower end's word at
# beta_lo (eval --summary: the largest TV's lower end, which must exceed eps).
#   bench/tight_table.sh BUILD N [CASE...]    one markdown row per case
# Rows go to standard output; work files to a temporary directory.
set -uo pipefail
build=${1:?BUILD}; n=${2:?N}; shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
"$build/tempcert" compile "a S b" --alphabet a,b -o "$work/a-S-b.json" >/dev/null
"$build/tempcert" compile "H (b -> Y a)" --alphabet a,b -o "$work/H-b-Y-a.json" >/dev/null
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(has-b last-cd-is-d earlier-b-strict prev-is-a-bos first-is-a-bounded
    every-a-after-b-bounded prev-a-earlier-b has-ab-two-layer has-abb-three-layer a-S-b H-b-Y-a)
echo "| case | n | bracket | width | method | s | converged | certificate | check s | verified | lower end's word: max TV at beta_lo |"
echo "|---|---:|---|---:|---|---:|---|---|---:|---|---|"
for c in "${cases[@]}"; do
    m="$root/cases/models/$c.json"; [ -f "$m" ] || m="$work/$c.json"
    t0=$(date +%s.%N)
    "$build/tempcert" tight "$m" --n "$n" --eps 1/100 --threads 1 --json -o "$work/$c.cert" > "$work/$c.tight" 2> "$work/$c.err"
    t1=$(date +%s.%N)
    if ! python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$work/$c.tight" 2>/dev/null; then
        echo "| $c | $n | $(tail -c 200 "$work/$c.err" | tr '\n|' '  ') | | | $(echo "$t1 - $t0" | bc) | | | | | |"
        continue
    fi
    checked="no certificate"; cs=""
    if [ -f "$work/$c.cert" ]; then
        c0=$(date +%s.%N)
        checked=$("$build/tempcert-check" "$work/$c.cert" --model "$m" 2>&1 | cut -d' ' -f1-2)
        c1=$(date +%s.%N); cs=$(printf %.2f "$(echo "$c1 - $c0" | bc)")
    fi
    read -r lo hi width method conv certm word < <(python3 - "$work/$c.tight" <<'PY'
import json, sys
from fractions import Fraction
d = json.load(open(sys.argv[1]))
lo, hi = Fraction(d["beta_lo_exact"]), Fraction(d["beta_hi_exact"])
w = d.get("lo_witness") or "-"
print(d["beta_lo"], d["beta_hi"], f"{float((hi - lo) / hi):.2g}" if hi else "0", d["method"],
      "yes" if d["converged"] else "no", d.get("certificate_method") or "-",
      w)
PY
)
    tv="-"
    if [ "$word" != "-" ]; then
        tv=$("$build/tempcert" eval "$m" -i "$word" --beta "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['beta_lo_exact'])" "$work/$c.tight")" --summary --json 2>/dev/null | python3 -c "
import json, sys
from fractions import Fraction
d = json.load(sys.stdin)
lower = lambda v: Fraction(v[0] if isinstance(v, list) else v)
best = max(lower(h['largest_tv']) for h in d['soft']['heads'] if h['largest_tv'] is not None)
print(f'{float(best):.9g}', '> eps' if best > Fraction(1, 100) else 'NOT > eps')" 2>/dev/null ||
            echo "not evaluated")
        tv="${#word} symbols: $tv"
    fi
    echo "| $c | $n | [$lo, $hi] | $width | $method | $(printf %.2f "$(echo "$t1 - $t0" | bc)") | $conv | $certm | $cs | $checked | $tv |"
done
