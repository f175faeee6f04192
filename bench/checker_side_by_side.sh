#!/usr/bin/env bash
# The certificates the main job writes (every bundled case: the exhaustive
# one at n = 8, or 5 for larger alphabets, at Lemma GT's beta; the
# layerwise or perturbation one at n = 100000, or 500 where features read
# n), each timed three ways on one thread, alternating so that all see the
# same machine: the writing command (`certify`, without -o, so without the
# small checker's guard), `tempcert check` (the small checker) and
# tempcert-fastcheck. Prints the median seconds of each over ROUNDS runs and
# the ratio check / certify.
# Usage: bench/checker_side_by_side.sh BUILD [ROUNDS]
set -u
build=$(readlink -f "$1")
rounds=${2:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3
seconds() { # command...: its wall seconds (a failure is said on stderr)
    local s e
    s=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    local rc=$?
    [ $rc -le 1 ] || echo "failed ($rc): $*" >&2 # 1: a refuted claim, an answer
    e=$(date +%s.%N)
    "$py" -c "print('%.3f' % ($e - $s))"
}
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf "%-28s %-11s %7s %9s %9s %11s %6s\n" case kind n certify_s check_s fastcheck_s ratio
for model in "$here"/cases/models/*.json; do
    id=$(basename "$model" .json)
    read -r symbols reads_n < <("$py" -c "
import json, sys
m = json.load(open(sys.argv[1]))
print(len(m['alphabet']), int(any('n' in p['expr'].replace('min', '') for p in m.get('positions', []))))" "$model")
    small=8; [ "$symbols" -gt 2 ] && small=5
    big=100000; [ "$reads_n" = 1 ] && big=500
    for kind in exhaustive layerwise; do
        n=$small method=auto
        [ $kind = layerwise ] && n=$big method=layerwise
        args=(certify "$model" --n "$n" --eps 1/100 --method "$method" --threads 1)
        cert="$tmp/$id.$kind.json"
        "$build/tempcert" "${args[@]}" -o "$cert" >/dev/null 2>&1 # exit 1: refuted, written too
        [ -s "$cert" ] || { echo "$id $kind: not written" >&2; continue; }
        a=() b=() c=()
        for _ in $(seq "$rounds"); do
            a+=("$(seconds "$build/tempcert" "${args[@]}")")
            b+=("$(seconds "$build/tempcert" check "$cert" --model "$model")")
            c+=("$(seconds "$build/tempcert-fastcheck" "$cert" --model "$model" --threads 1)")
        done
        ma=$(median "${a[@]}") mb=$(median "${b[@]}") mc=$(median "${c[@]}")
        printf "%-28s %-11s %7s %9s %9s %11s %6.1f\n" "$id" "$kind" "$n" "$ma" "$mb" "$mc" \
            "$("$py" -c "print($mb / max($ma, 0.001))")"
    done
done
