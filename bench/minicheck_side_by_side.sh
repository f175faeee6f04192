#!/usr/bin/env bash
# tempcert-check (one thread) and tempcert-minicheck side by side on the
# same certificates, alternating runs so that both see the same machine;
# prints the median seconds of each over ROUNDS runs and their ratio.
# Usage: bench/minicheck_side_by_side.sh BUILD [ROUNDS]
# e.g.   bench/minicheck_side_by_side.sh build 3
set -u
build=$(readlink -f "$1")
rounds=${2:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# name model n criterion beta ("" for the method's own) [method]
cases=(
    "has-b-n12 has-b 12 tv ''"
    "last-cd-is-d-n7 last-cd-is-d 7 tv ''"
    "prev-a-earlier-b-n11 prev-a-earlier-b 11 output ''"
    "has-abb-three-layer-n10 has-abb-three-layer 10 decision 20"
    "prev-is-a-bos-n11 prev-is-a-bos 11 decision ''"
    "prev-a-earlier-b-lw-n1000 prev-a-earlier-b 1000 tv '' layerwise"
    "first-is-a-bounded-lw-n1000 first-is-a-bounded 1000 tv '' layerwise"
    "every-a-after-b-lw-n1000 every-a-after-b-bounded 1000 tv '' layerwise"
    "has-abb-three-layer-pb-n1000 has-abb-three-layer 1000 tv '' layerwise"
)
seconds() { # binary args...
    local s e
    s=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || echo "failed: $*" >&2
    e=$(date +%s.%N)
    /usr/bin/python3 -c "print('%.3f' % ($e - $s))"
}
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf "%-30s %7s %9s %10s %7s\n" certificate words check_s minicheck_s ratio
for c in "${cases[@]}"; do
    eval "set -- $c"
    name=$1 model="$here/cases/models/$2.json" n=$3 criterion=$4 beta=$5 method=${6:-}
    cert="$tmp/$name.json"
    "$build/tempcert" certify "$model" --n "$n" --eps 1/100 --criterion "$criterion" \
        ${beta:+--beta "$beta"} ${method:+--method "$method"} -o "$cert" >/dev/null 2>&1
    words=$(/usr/bin/python3 -c "import json, sys; print(json.load(open(sys.argv[1])).get('words_checked', '-'))" "$cert")
    a=() b=()
    for _ in $(seq "$rounds"); do
        a+=("$(seconds "$build/tempcert-check" "$cert" --model "$model" --threads 1)")
        b+=("$(seconds "$build/tempcert-minicheck" "$cert" --model "$model")")
    done
    ma=$(median "${a[@]}") mb=$(median "${b[@]}")
    printf "%-30s %7s %9s %10s %7.1f\n" "$name" "$words" "$ma" "$mb" \
        "$(/usr/bin/python3 -c "print($mb / max($ma, 0.001))")"
done
