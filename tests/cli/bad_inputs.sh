#!/usr/bin/env bash
# Every file in tests/bad/ must make `tempcert eval FILE --input ab` exit with
# the code in its .expect file, print one line on stderr that contains each
# `match` fragment and names the file, within 5 s and 1 GB of address space.
set -u
tempcert=$1
dir=$2
pass=0
fail=0
for model in "$dir"/*.json; do
    expect="${model%.json}.expect"
    name=$(basename "$model")
    want=$(sed -n 's/^exit //p' "$expect")
    # ASan reserves terabytes of address space, so the memory cap (1 GB of
    # address space, which bounds the resident size) applies to the normal
    # build only.
    if [ -n "${TEMPCERT_SANITIZED:-}" ]; then
        err=$(timeout 5 "$tempcert" eval "$model" --input ab 2>&1 >/dev/null)
    else
        err=$( (ulimit -v 1000000; timeout 5 "$tempcert" eval "$model" --input ab 2>&1 >/dev/null) )
    fi
    code=$?
    # Resource check: time and peak memory, measured by GNU time when present.
    ok=1
    if [ "$code" != "$want" ]; then
        echo "FAIL $name: exit $code, expected $want ($err)"
        ok=0
    fi
    if [ "$(printf '%s\n' "$err" | wc -l)" != 1 ]; then
        echo "FAIL $name: expected one line of message, got: $err"
        ok=0
    fi
    case "$err" in *"$name"*) ;; *) echo "FAIL $name: message does not name the file: $err"; ok=0 ;; esac
    while IFS= read -r line; do
        frag=${line#match }
        case "$err" in *"$frag"*) ;; *) echo "FAIL $name: message lacks \"$frag\": $err"; ok=0 ;; esac
    done < <(grep '^match ' "$expect")
    if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
