#!/usr/bin/env bash
# export coq (docs/commands.md, export): a certified exhaustive certificate exported
# to Coq checks with coqc against proofs/coq (Softmax, Profile, Instance);
# the same file with beta lowered below the tight bracket, a tampered bound
# of its table or a smaller eps does not; certificates the export does not
# write are refused with exit 2. Exit 77 (skipped) without coqc.
# Usage: export_coq.sh TEMPCERT ROOT [CASE:N ...] (default has-b:8)
set -u
tempcert=$1
root=$2
shift 2
[ $# -gt 0 ] || set -- has-b:8
command -v coqc >/dev/null || { echo "coqc not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
pass=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
good() { pass=$((pass + 1)); }

# the library as coq_proofs (ctest's fixture coq_library) built it; make
# compiles what is missing when this script runs alone
lib="$root/proofs/coq"
make -s -C "$lib" >"$tmp/make.log" 2>&1 || bad "make -C proofs/coq: $(tail -5 "$tmp/make.log")"
coq() { coqc -Q "$lib" TempcertProofs "$1" >"$1.log" 2>&1; }
py=/usr/bin/python3
[ -x "$py" ] || py=python3
# edit IN OUT WHAT [VALUE]: beta lowered 1/10 below VALUE (a decimal or a
# fraction), the table's first bound set to 0, or eps set to 10^-6
edit() {
    "$py" - "$@" <<'PY' || bad "edit $3 of $1"
import re, sys
from fractions import Fraction
src, dst, what = sys.argv[1:4]
text = open(src).read()
if what == "beta":
    b = Fraction(sys.argv[4]) - Fraction(1, 10)
    new, k = re.subn(r"^Definition beta : R := .*$",
                     f"Definition beta : R := (IZR ({b.numerator}) / IZR ({b.denominator})).",
                     text, flags=re.M)
elif what == "table":
    head, tail = text.split("Definition table", 1)
    tail, k = re.subn(r", \(\(([0-9]+)\) # ", ", ((0) # ", tail, count=1)
    new = head + "Definition table" + tail
else:
    new, k = re.subn(r"^Definition eps : Q := .*$", "Definition eps : Q := ((1) # 1000000).",
                     text, flags=re.M)
assert k == 1 and new != text, what
open(dst, "w").write(new)
PY
}

for item in "$@"; do
    name=${item%%:*} n=${item##*:}
    model="$root/cases/models/$name.json"
    cert="$tmp/$name.cert"
    v="$tmp/${name//-/_}_$n.v"
    "$tempcert" certify "$model" --n "$n" --eps 1/100 -o "$cert" >/dev/null ||
        { bad "$name: certify"; continue; }
    if ! "$tempcert" export coq "$cert" --model "$model" -o "$v" >"$tmp/export.out"; then
        bad "$name: export: $(cat "$tmp/export.out")"
        continue
    fi
    if coq "$v"; then good; else bad "$name n=$n: the exported file does not check: $(tail -5 "$v.log")"; fi
    grep -q "^Theorem certified_head1 : forall w," "$v" || bad "$name: no claim stated"

    # beta lowered below the tight bracket's lower end: must not check
    low=$("$tempcert" tight "$model" --n "$n" --eps 1/100 --json |
        sed -n 's/.*"beta_lo": "\([^"]*\)".*/\1/p' | head -1)
    [ -n "$low" ] || { bad "$name: no tight lower end"; low=1; }
    edit "$v" "$tmp/lowered.v" "beta" "$low"
    if coq "$tmp/lowered.v"; then bad "$name: checks with beta lowered below $low"; else good; fi
    # the table's first bound set to 0: must not check
    edit "$v" "$tmp/tampered.v" "table"
    if coq "$tmp/tampered.v"; then bad "$name: checks with a table bound set to 0"; else good; fi
    # eps 10^-6: the word check must fail
    edit "$v" "$tmp/small.v" "eps"
    if coq "$tmp/small.v"; then bad "$name: checks at eps 1/10^6"; else good; fi
done

# refused: exit 2 with a message naming what is needed
two="$root/cases/models/has-ab-two-layer.json"
hb="$root/cases/models/has-b.json"
"$tempcert" certify "$hb" --n 5 --eps 1/100 --beta 1 -o "$tmp/refuted.cert" >/dev/null
refuse() { # name pattern args...
    local name=$1 pattern=$2 out code
    shift 2
    out=$("$tempcert" export "$@" -o "$tmp/refused.v" 2>&1)
    code=$?
    if [ "$code" = 2 ] && printf '%s' "$out" | grep -Eq -- "$pattern" && ! [ -e "$tmp/refused.v" ]; then
        good
    else
        bad "refuse $name: exit $code, $out"
    fi
}
refuse refuted 'verdict.*certified' coq "$tmp/refuted.cert" --model "$hb"
"$tempcert" certify "$two" --n 4 --eps 1/100 --beta 20 -o "$tmp/two.cert" >/dev/null
refuse two-layer 'single-layer' coq "$tmp/two.cert" --model "$two"
refuse wrong-model 'does not verify' coq "$tmp/two.cert" --model "$hb"
refuse no-model 'expected --model' coq "$tmp/two.cert"
refuse lean 'expected the proof assistant' lean "$tmp/two.cert" --model "$hb"
echo '{' >"$tmp/broken.cert"
refuse malformed 'broken.cert' coq "$tmp/broken.cert" --model "$hb"

echo "export coq: $pass passed, $fail failed"
[ "$fail" = 0 ]
