#!/usr/bin/env bash
# The small checker as the engine's guard (docs/certificates.md, "Two
# checkers"): certify -o puts a certificate in place only once tempcert-check
# has verified it. One it leaves out (log in a feature) is not written
# (exit 3), one it refuses is not written either (exit 70, a bug to report:
# a stand-in plays a refusing checker), and no private file is left behind.
# `tempcert check` says what it verified, or exit 3 for what it leaves out.
# Usage: guard.sh TEMPCERT CASES
set -u
tempcert=$1
cases=$2
. "$(dirname "$0")/checks.sh"
hasb="$cases/models/has-b.json"
/usr/bin/python3 - "$hasb" "$tmp/sqrt.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["name"] = "has-b-log"
m["positions"] = m.get("positions", []) + [{"dim": m["width"] - 1, "expr": "log(j + 1)"}]
json.dump(m, open(sys.argv[2], "w"))
PY
cd "$tmp" || exit 1
out=$("$tempcert" certify sqrt.json --n 4 --eps 1/100 -o sq.cert 2>&1)
check "a certificate the small checker leaves out: exit 3" [ $? = 3 ]
check "... says why" grep -q 'no certificate written: the small checker leaves it out (\$.positions\[1\].expr: log makes the model irrational' <<<"$out"
check "... and writes nothing" [ ! -e sq.cert ]
check "... the answer still printed" grep -q '^verdict: certified' <<<"$out"
out=$("$tempcert" certify sqrt.json --n 4 --eps 1/100 -o sq.cert --json 2>/dev/null)
check "... and with --json, certificate_not_written in the answer" /usr/bin/python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["verdict"] == "certified", d
assert d["certificate_not_written"].startswith("no certificate written: the small checker leaves it out"), d' "$out"
out=$("$tempcert" certify "$hasb" --n 4 --eps 1/100 -o hb.cert --json 2>/dev/null)
check "... null where the certificate was written" /usr/bin/python3 -c '
import json, sys
assert json.loads(sys.argv[1])["certificate_not_written"] is None' "$out"
printf '#!/bin/sh\necho "s NOT VERIFIED $1: \\$.beta: below its need"\nexit 1\n' >refuses
chmod +x refuses
out=$(TEMPCERT_MINICHECK="$tmp/refuses" "$tempcert" certify "$hasb" --n 4 --eps 1/100 -o f.cert 2>&1)
check "a certificate the small checker refuses: exit 70" [ $? = 70 ]
check "... names the refusal" grep -q 'no certificate written: the small checker: NOT VERIFIED: \$.beta: below its need' <<<"$out"
check "... and writes nothing" [ ! -e f.cert ]
printf '#!/bin/sh\necho "tempcert-check: $1: not checked: \\$.method: a stand-in" >&2\nexit 3\n' >leaves
chmod +x leaves
out=$(TEMPCERT_MINICHECK="$tmp/leaves" "$tempcert" certify "$hasb" --eps 1/100 --beta 3 --every-n -o en.cert 2>&1)
check "certify --every-n -o left out: exit 3" [ $? = 3 ]
check "... the answer still printed" grep -q '^verdict: certified' <<<"$out"
check "... and why nothing was written" grep -q 'no certificate written: the small checker leaves it out (\$.method: a stand-in)' <<<"$out"
check "... nothing written" [ ! -e en.cert ]
check "no private file left beside the output" bash -c '! ls -A | grep -q "^\.tempcert-"'
out=$("$tempcert" certify "$hasb" --n 4 --eps 1/100 -o - 2>/dev/null | "$tempcert" check /dev/stdin --model "$hasb")
check "certify -o - | tempcert check /dev/stdin: verified" grep -q '^s VERIFIED /dev/stdin (30 words re-evaluated by the small checker): certified: model has-b' <<<"$out"
"$tempcert" certify "$hasb" --n 4 --eps 1/100 -o /dev/null >/dev/null 2>&1
check "-o /dev/null stays a device" [ -c /dev/null ]
"$tempcert" certify "$hasb" --n 4 --eps 1/100 --beta 1 -o r.cert >/dev/null 2>&1
check "a refuted certificate is verified and written (exit 1 for the refutation)" [ $? = 1 ] 
check "... the file is there" [ -s r.cert ]
"$tempcert" check r.cert --model "$hasb" | grep -q '^s VERIFIED r.cert (the counterexample re-evaluated by the small checker): refuted: model has-b'
check "tempcert check verifies the refuted certificate" [ $? = 0 ]
# tight -o where the small checker leaves the upper end's certificate out
# (heads judged by their profile past its budget): the bracket still
# printed, no certificate, exit 3
pae="$cases/models/prev-a-earlier-b.json"
out=$("$tempcert" tight "$pae" --n 2000 --eps 0.01 -o pae.cert 2>&1)
check "tight -o left out by the small checker: exit 3" [ $? = 3 ]
check "... the bracket printed" grep -q '^tight beta in \[4\.6051701[0-9]*, 4\.6051744[0-9]*\] (bracket)' <<<"$out"
check "... and why no certificate" grep -q '^  no certificate written: the small checker leaves it out (\$.layers\[0\].heads\[0\]: judging its profile would take more than --max-queries / 20' <<<"$out"
check "... none written" [ ! -e pae.cert ]
checks_done
