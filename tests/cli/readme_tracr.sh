#!/bin/bash
# Runs README.md's Tracr example (between the tracr-example markers) in a
# scratch directory and compares each command's output with the README's.
# usage: readme_tracr.sh TEMPCERT TEMPCERT_CHECK SOURCE_DIR
set -u
tc=$1 check=$2 src=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src/tools" "$src/tests" "$work/"
mkdir -p "$work/build"
ln -s "$tc" "$work/build/tempcert"
ln -s "$check" "$work/build/tempcert-check"
cd "$work" || exit 1
block=$(sed -n '/<!-- tracr-example/,/<!-- end tracr-example/p' "$src/README.md" | sed '1d;$d')
fail=0
cmd="" expected=""
flush() {
    [ -z "$cmd" ] && return
    got=$(bash -c "$cmd" 2>&1)
    if [ -n "$expected" ] && [ "$got" != "$expected" ]; then
        echo "FAIL: $cmd"; echo "  expected: $expected"; echo "  got:      $got"; fail=1
    else
        echo "ok   ${cmd%%$'\n'*}"
    fi
}
in_cmd=0
while IFS= read -r line; do
    line=${line#    }
    if [[ $line == '$ '* ]]; then
        flush
        cmd=${line#\$ } expected="" in_cmd=1
        [[ $cmd == *"'"*"'"* || $cmd != *"'"* ]] && in_cmd=0
    elif [ $in_cmd = 1 ]; then
        cmd+=$'\n'"$line"
        [[ $line == *"'" ]] && in_cmd=0
    else
        expected+=${expected:+$'\n'}$line
    fi
done <<< "$block"
flush
[ -f shift.cert.json ] || { echo "FAIL: no certificate written"; fail=1; }
exit $fail
