#!/usr/bin/env bash
# The perturbation argument's beta against the exhaustive tight beta, and
# its cost as n grows (proofs/perturbation.md; figures in bench/RESULTS.md).
# Usage: bench/perturbation_ratio.sh TEMPCERT "TIGHT_NS" "BIG_NS" [MODEL...]
# e.g.   bench/perturbation_ratio.sh build/tempcert "12 14" "1000 10000 100000"
set -u
tempcert=$(readlink -f "$1")
tight_ns=$2
big_ns=$3
shift 3
here=$(cd "$(dirname "$0")/.." && pwd)
models=("$@")
[ ${#models[@]} = 0 ] && models=("$here/cases/models/has-ab-two-layer.json"
    "$here/cases/models/has-abb-three-layer.json" "$here/bench/models/random-deep-878.json"
    "$here/bench/models/random-deep-588.json")
beta_of() { sed -n 's/^beta = //p'; }
decimal() { /usr/bin/python3 -c "from fractions import Fraction as F; import sys; print('%.6f' % float(F(sys.argv[1])))" "$1"; }
printf "%-22s %7s %12s %12s %8s %9s\n" model n tight_hi perturbation ratio seconds
for m in "${models[@]}"; do
    name=$(basename "$m" .json)
    for n in $tight_ns; do
        t=$("$tempcert" tight "$m" --n "$n" --eps 1/100 | sed -n 's/.*beta_hi \([0-9.]*\): certified.*/\1/p')
        s=$(date +%s.%N)
        b=$(decimal "$("$tempcert" certify "$m" --n "$n" --eps 1/100 --method layerwise | beta_of)")
        e=$(date +%s.%N)
        printf "%-22s %7s %12s %12s %8.3f %9.2f\n" "$name" "$n" "$t" "$b" \
            "$(/usr/bin/python3 -c "print($b / $t)")" "$(/usr/bin/python3 -c "print($e - $s)")"
    done
    for n in $big_ns; do
        s=$(date +%s.%N)
        b=$(decimal "$("$tempcert" certify "$m" --n "$n" --eps 1/100 --method layerwise -o /tmp/perturbation-$$.json | beta_of)")
        e=$(date +%s.%N)
        c0=$(date +%s.%N)
        "$tempcert" check /tmp/perturbation-$$.json --model "$m" >/dev/null || echo "CHECK FAILED: $name n = $n"
        c1=$(date +%s.%N)
        printf "%-22s %7s %12s %12s %8s %9.2f  (check %.2f s)\n" "$name" "$n" "-" "$b" "-" \
            "$(/usr/bin/python3 -c "print($e - $s)")" "$(/usr/bin/python3 -c "print($c1 - $c0)")"
    done
done
rm -f /tmp/perturbation-$$.json
