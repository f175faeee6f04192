#!/usr/bin/env bash
# Two tempcert binaries side by side on `eval --summary` of one long word
# per case, alternating runs so that both see the same machine; prints the
# seconds of each, their ratio and whether the JSON outputs are identical
# (a change that only tightens enclosures prints "differ": compare them).
# Usage: bench/eval_side_by_side.sh OLD NEW LENGTH [BETA] [MODEL...]
# e.g.   bench/eval_side_by_side.sh /tmp/tempcert-old build/tempcert 2000
set -u
old=$(readlink -f "$1")
new=$(readlink -f "$2")
length=$3
beta=${4:-10}
shift $(($# < 4 ? $# : 4))
here=$(cd "$(dirname "$0")/.." && pwd)
models=("$@")
[ ${#models[@]} = 0 ] && models=("$here"/cases/models/*.json)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seconds() { # binary model word out
    local s e
    s=$(date +%s.%N)
    "$1" eval "$2" --input "$3" --beta "$beta" --summary --json --threads 1 >"$4" 2>&1
    e=$(date +%s.%N)
    /usr/bin/python3 -c "print('%.2f' % ($e - $s))"
}
printf "%-26s %6s %8s %8s %6s %s\n" model length old_s new_s ratio output
for m in "${models[@]}"; do
    word=$(/usr/bin/python3 - "$m" "$length" <<'PY'
import json, random, sys
alphabet = json.load(open(sys.argv[1]))["alphabet"]
random.seed(1)
print(",".join(random.choice(alphabet) for _ in range(int(sys.argv[2]))))
PY
)
    a=$(seconds "$old" "$m" "$word" "$tmp/old.json")
    b=$(seconds "$new" "$m" "$word" "$tmp/new.json")
    same=$(cmp -s "$tmp/old.json" "$tmp/new.json" && echo identical || echo differ)
    printf "%-26s %6s %8s %8s %6.2f %s\n" "$(basename "$m" .json)" "$length" "$a" "$b" \
        "$(/usr/bin/python3 -c "print($a / max($b, 0.01))")" "$same"
done
