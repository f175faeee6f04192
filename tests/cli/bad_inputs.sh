#!/usr/bin/env bash
# The catalogue of bad inputs in tests/bad/: each NAME.expect gives the exit
# code (`exit N`), fragments the one-line message must contain (`match ...`)
# and, optionally, the command (`arg ...`, one argument per line; @FILE@ is
# NAME.json, @CASES@ the bundled cases, @TMP@ a scratch folder). Without
# `arg` lines the command is `eval @FILE@ --input ab`. Each run must finish
# within 1 s (5 s under sanitizers) and, in the normal build, stay under
# 100 MB resident (GNU time), and its message names the file or option.
set -u
tempcert=$1
dir=$2
cases=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
limit_s=1
[ -n "${TEMPCERT_SANITIZED:-}" ] && limit_s=5
for expect in "$dir"/*.expect; do
    name=$(basename "${expect%.expect}")
    file="${expect%.expect}.json"
    want=$(sed -n 's/^exit //p' "$expect")
    args=()
    while IFS= read -r line; do
        a=${line#arg }
        a=${a//@FILE@/$file}
        a=${a//@CASES@/$cases}
        a=${a//@TMP@/$tmp}
        args+=("$a")
    done < <(grep '^arg ' "$expect")
    [ ${#args[@]} -eq 0 ] && args=(eval "$file" --input ab)
    start=$(date +%s%N)
    if [ -z "${TEMPCERT_SANITIZED:-}" ] && [ -x /usr/bin/time ]; then
        err=$( { /usr/bin/time -f 'RSS %M' -o "$tmp/rss" timeout 10 "$tempcert" "${args[@]}" 2>&1 >/dev/null; } )
        code=$?
        rss=$(sed -n 's/^RSS //p' "$tmp/rss" | tail -1)
    else
        err=$(timeout 10 "$tempcert" "${args[@]}" 2>&1 >/dev/null)
        code=$?
        rss=0
    fi
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    # check's verdict goes to stdout: take it when stderr is empty
    if [ -z "$err" ]; then err=$("$tempcert" "${args[@]}" 2>/dev/null | tail -1); fi
    ok=1
    problem() { echo "FAIL $name: $1"; ok=0; }
    [ "$code" = "$want" ] || problem "exit $code, expected $want ($err)"
    [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || problem "expected one line of message, got: $err"
    [ "$ms" -le $((limit_s * 1000)) ] || problem "took $ms ms, more than $limit_s s"
    [ "${rss:-0}" -le 102400 ] || problem "used $rss KB resident, more than 100 MB"
    while IFS= read -r line; do
        frag=${line#match }
        case "$err" in *"$frag"*) ;; *) problem "message lacks \"$frag\": $err" ;; esac
    done < <(grep '^match ' "$expect")
    if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
