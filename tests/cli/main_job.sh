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
for pattern in 'has-b.certificate.json: the small checker: verified \([0-9]+ words re-evaluated\); fast check passed' 'tight beta in \[4\.6051[0-9]*, 4\.6051[0-9]*\] \(threshold\)' \
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

# The small checker runs beside the job (the binary next to tempcert):
# its line is on every certificate, a refusal of its is a failed check
# (exit 1), and Ctrl-C stops the job within a second while it runs, the
# helper killed with it. Stand-ins next to a copy of the binary play it.
check "every certificate verified by the small checker, the fast check beside it" \
    grep -q 'has-b.layerwise-certificate.json: the small checker: verified (layerwise argument re-derived over [0-9]* lengths); fast check passed' <<<"$job"
fake=$(mktemp -d)
cp "$tempcert" "$fake/tempcert"
# one case and one counting formula, so that each stand-in's job takes a second
mkdir -p "$fake/cases/models" "$fake/cases/counting"
cp "${TEMPCERT_CASES:-$(dirname "$0")/../../cases}/models/has-b.json" "$fake/cases/models/"
/usr/bin/python3 - "${TEMPCERT_CASES:-$(dirname "$0")/../../cases}" "$fake/cases" <<'PY'
import json, sys
for name, key in (("manifest.json", "cases"), ("counting/manifest.json", "formulas")):
    m = json.load(open(f"{sys.argv[1]}/{name}"))
    m[key] = [c for c in m[key] if c.get("id") in ("has-b", m[key][0].get("id"))][:1]
    json.dump(m, open(f"{sys.argv[2]}/{name}", "w"))
PY
export TEMPCERT_CASES="$fake/cases"
printf '#!/bin/sh\necho "s NOT VERIFIED $1: \\$.beta: below its need"\nexit 1\n' >"$fake/tempcert-minicheck"
chmod +x "$fake/tempcert-minicheck"
out=$(cd "$fake" && TEMPCERT_REPORT_N=2 "$fake/tempcert" --threads 1 2>&1)
check "a certificate the small checker refuses fails the job (exit 1)" [ $? = 1 ]
check "... and its words are on the certificate's line" \
    grep -q 'has-b.certificate.json: the small checker: NOT VERIFIED: \$.beta: below its need; fast check passed' <<<"$out"
printf '#!/bin/sh\necho "tempcert-minicheck: $3: not checked: \\$.n: over --max-n" >&2\nexit 3\n' >"$fake/tempcert-minicheck"
out=$(cd "$fake" && TEMPCERT_REPORT_N=2 "$fake/tempcert" --threads 1 2>&1)
check "a certificate the small checker leaves out fails the job too: only its VERIFIED passes (exit 1)" [ $? = 1 ]
check "... and the job says so" \
    grep -q 'the small checker leaves it out (\$.n: over --max-n); fast check passed' <<<"$out"
printf '#!/bin/sh\nexec sleep 60\n' >"$fake/tempcert-minicheck"
rm -rf "$fake/certificates"
(cd "$fake" && exec "$fake/tempcert" --threads 1 >/dev/null 2>"$fake/err") &
pid=$!
for _ in $(seq 100); do pgrep -f "^sleep 60" >/dev/null && break; sleep 0.1; done
kill -INT $pid
start=$(date +%s%N)
wait $pid
code=$?
took=$((($(date +%s%N) - start) / 1000000))
check "Ctrl-C while the small checker runs: exit 130" [ $code = 130 ]
check "... within a second (took $took ms)" [ $took -lt 1000 ]
check "... and the small checker stopped with it" bash -c '! pgrep -f "^sleep 60" >/dev/null'
rm -rf "$fake"
unset TEMPCERT_CASES

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
