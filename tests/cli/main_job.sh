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
if [ -s "$work/report/report.md" ] && [ -s "$work/report/report.html" ] && [ -s "$work/report/results.csv" ] &&
   grep -q '^| 16 | layerwise | - | 1/34 | 250\.502091' "$work/report/counting/report.md"; then
    pass=$((pass + 1))
else
    fail=$((fail + 1)); echo "FAIL: main job wrote no report into report/"
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
