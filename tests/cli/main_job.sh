#!/usr/bin/env bash
# The main job (tempcert with no command) on the bundled cases, once: its
# summary lines, and the reports it writes into the working directory.
# Split from commands.sh so that ctest -j runs the two side by side.
# Usage: main_job.sh TEMPCERT
set -u
tempcert=$1
pass=0
fail=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the main job, once (it writes report/ into the working directory)
job=$(cd "$work" && "$tempcert" 2>&1)
code=$?
for pattern in 'has-b.certificate.json: independently re-verified' 'tight beta in \[4\.6051[0-9]*, 4\.6051[0-9]*\] \(threshold\)' \
    'report/report.md' 'report/report.html' 'overview.svg' 'report/counting/report.md'; do
    if [ "$code" = 0 ] && printf '%s' "$job" | grep -Eq -- "$pattern"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "FAIL: main job -> exit $code, pattern /$pattern/"
        printf '%s\n' "$job" | tail -5
    fi
done
# (under sanitizers the job's reports stop at n = 3: tests/CMakeLists.txt)
counting_row='^| 16 | layerwise | - | 1/34 | - | - | \[104\.656[0-9]*, 250\.502091[0-9]*\] | bracket | aaaabbb '
[ -n "${TEMPCERT_SANITIZED:-}" ] && counting_row='^| 3 | exhaustive | 14 | 1/8 | 45\.5498571105 | \[45\.54984655[0-9]*, 45\.54985711[0-9]*\] '
if [ -s "$work/report/report.md" ] && [ -s "$work/report/report.html" ] && [ -s "$work/report/results.csv" ] &&
   grep -q "$counting_row" "$work/report/counting/report.md"; then
    pass=$((pass + 1))
else
    fail=$((fail + 1)); echo "FAIL: main job wrote no report into report/"
fi

# The job takes every command's options, and after Ctrl-C
# it names the certificates it wrote (it said "no certificate written")
check() { # NAME CONDITION...
    local name=$1
    shift
    if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $name"; fi
}
opts=$(mktemp -d)
out=$(cd "$opts" && "$tempcert" --bogus 2>&1)
check "tempcert --bogus exits 2 naming the option" [ $? = 2 ]
check "tempcert --bogus: message" grep -q "unrecognised option '--bogus'" <<<"$out"
(cd "$opts" && "$tempcert" --threads 1 --time-limit 1 >/dev/null 2>&1)
check "tempcert --threads 1 --time-limit 1 exits 3" [ $? = 3 ]
rm -rf "$opts/certificates"
(cd "$opts" && exec "$tempcert" --threads 1 >/dev/null 2>"$opts/err") &
pid=$!
sleep 3
kill -INT $pid
wait $pid
check "the main job stops on Ctrl-C with exit 130" [ $? = 130 ]
written=$(ls "$opts/certificates" 2>/dev/null | grep -c '\.json$')
check "after Ctrl-C it names the $written certificates it wrote" \
    grep -q "the $written certificates written before it are complete" "$opts/err"
rm -rf "$opts"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
