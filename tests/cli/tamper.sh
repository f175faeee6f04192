#!/usr/bin/env bash
# Tampered certificates: `tempcert check` (the small checker) must accept
# the certificates that `certify` writes and reject (exit 1, "s NOT VERIFIED", naming the JSON
# path) every edited one.
set -u
tempcert=$1
cases=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
model="$cases/models/has-b.json"
py=/usr/bin/python3
[ -x "$py" ] || py=python3

"$tempcert" certify "$model" --n 5 --eps 0.01 -o "$work/base.json" >/dev/null
"$tempcert" certify "$model" --n 5 --eps 0.01 --beta 1 -o "$work/refuted.json" >/dev/null

# Not a certificate of the format at all (syntax, a field unknown, another
# format tag): bad input, exit 2, one message on standard error naming the
# file and the place, no "s" line (docs/certificates.md); every other edit
# is a false claim: exit 1, "s NOT VERIFIED".
malformed=" format gaps-method extra-field cx-detail trailing-nul trailing-garbage truncated tiny-long-exponent "
verify() { # name expected-exit pattern cert [model]
    local name=$1 want=$2 pattern=$3 cert=$4 m=${5:-$model}
    local out code
    if [[ "$malformed" == *" $name "* ]]; then
        want=2
        pattern="^tempcert-check: $cert: .*${pattern#NOT VERIFIED.\*}"
    fi
    out=$("$tempcert" check "$cert" --model "$m" 2>&1)
    code=$?
    if [ "$code" = "$want" ] && printf '%s' "$out" | grep -Eq -- "$pattern"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name: exit $code (want $want), /$pattern/: $out"
    fi
}

# tamper NAME PATTERN SED-EXPRESSION [SOURCE]: edit a copy, expect rejection
tamper() {
    local name=$1 pattern=$2 expr=$3 src=${4:-base}
    sed -E "$expr" "$work/$src.json" >"$work/$name.json"
    if cmp -s "$work/$src.json" "$work/$name.json"; then
        fail=$((fail + 1))
        echo "FAIL $name: the edit changed nothing"
        return
    fi
    verify "$name" 1 "NOT VERIFIED.*$pattern" "$work/$name.json"
}

# tamper_py NAME PATTERN PYTHON [SOURCE]: the same, editing the parsed JSON d
tamper_py() {
    local name=$1 pattern=$2 code=$3 src=${4:-base}
    "$py" - "$work/$src.json" "$work/$name.json" "$code" <<'PY'
import json, sys
from fractions import Fraction
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"), indent=2)
PY
    verify "$name" 1 "NOT VERIFIED.*$pattern" "$work/$name.json"
}
# accept_py NAME PYTHON [SOURCE]: an edit that keeps every claim true
accept_py() {
    local name=$1 code=$2 src=${3:-base}
    "$py" - "$work/$src.json" "$work/$name.json" "$code" <<'PY'
import json, sys
from fractions import Fraction
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"), indent=2)
PY
    verify "$name" 0 's VERIFIED' "$work/$name.json"
}

verify untouched 0 's VERIFIED' "$work/base.json"
verify untouched-refuted 0 's VERIFIED' "$work/refuted.json"

tamper beta '\$\.beta\.spec' 's/"spec": "[^"]*"/"spec": "5"/'
tamper beta-lowered '\$\.beta\.spec' 's/"spec": "7/"spec": "6/'
tamper n '\$\.gaps\.heads\[0\]\.N' 's/^  "n": 5,/  "n": 4,/'
tamper eps '\$\.gaps\.heads\[0\]\.beta_gap_up' 's|"eps": "1/100"|"eps": "1/50"|'
tamper gap '\$\.gaps\.heads\[0\]\.min_gap' 's/^        "min_gap": "2",/        "min_gap": "3",/'
tamper model-gap '\$\.gaps\.min_gap' 's/^    "min_gap": "2",/    "min_gap": "1",/'
tamper witness-word '\$\.gaps\.heads\[0\]\.witness' 's/"word": "ab"/"word": "bb"/'
tamper witness-query '\$\.gaps\.heads\[0\]\.witness' 's/"query": 2,/"query": 3,/'
tamper verdict '\$\.(counterexample|words_checked)' 's/"verdict": "certified"/"verdict": "refuted"/'
tamper_py verdict-flip '\$\.verdict.*violates' 'd["verdict"] = "certified"; d["counterexample"] = None; d["words_checked"] = 62' refuted
tamper hash '\$\.model\.sha256' 's/("sha256": ")./\10/'
tamper method '\$\.method' 's/"method": "exhaustive(-prefix)?",/"method": "symbolic",/'
tamper words '\$\.words_checked' 's/"words_checked": [0-9]+/"words_checked": 61/'
tamper beta-gap-up '\$\.gaps\.heads\[0\]\.beta_gap_up' 's/("beta_gap_up": ")([0-9])/\19/'
tamper decimal-wrong-way '\$\.beta\.decimal_up' 's/"decimal_up": "[^"]*"/"decimal_up": "2.9"/'
tamper tau-wrong-way '\$\.beta\.tau_decimal_down' 's/"tau_decimal_down": "[^"]*"/"tau_decimal_down": "0.5"/'
tamper source '\$\.beta\.source' 's/"source": "beta_gap"/"source": "guess"/'
tamper counterexample-word '\$\.counterexample' 's/^    "word": "ab",$/    "word": "a",/' refuted
tamper_py user-beta-lowered '\$\.verdict: claims certified, but on word ab, tv at layer 1 head 1 query 2' 'd["beta"] = {"spec": "1", "source": "user"}'
tamper format '\$\.format' 's/tempcert-certificate\/1/tempcert-certificate\/0/'
tamper ties '\$\.gaps\.heads\[0\]\.ties' 's/"ties": null/"ties": {"word": "ab"}/'
tamper criterion '\$\.criterion' 's/"criterion": "tv"/"criterion": "tvx"/'

# Every field is a claim the checker re-derives, or refused
h='d["gaps"]["heads"][0]'
tamper_py decimal-up-false '\$\.gaps\.heads\[0\]\.beta_gap_decimal_up' "$h[\"beta_gap_decimal_up\"] = \"1.0\""
tamper_py beta-exact-false '\$\.beta\.exact' 'd["beta"]["exact"] = "ln(2)"'
tamper_py witness-argmax '\$\.gaps\.heads\[0\]\.witness\.argmax' "$h[\"witness\"][\"argmax\"] = [1]"
tamper_py witness-runner-up '\$\.gaps\.heads\[0\]\.witness\.runner_up' "$h[\"witness\"][\"runner_up\"] = 2"
tamper_py witness-layer '\$\.gaps\.heads\[0\]\.witness\.layer' "$h[\"witness\"][\"layer\"] = 2"
tamper_py witness-head '\$\.gaps\.heads\[0\]\.witness\.head' "$h[\"witness\"][\"head\"] = 3"
tamper_py head-kind '\$\.gaps\.heads\[0\]\.kind' "$h[\"kind\"] = \"leftmost\""
tamper_py head-mask '\$\.gaps\.heads\[0\]\.mask' "$h[\"mask\"] = \"none\""
tamper_py gaps-method '\$\.gaps\.method: not a field of the format' 'd["gaps"]["method"] = "symbolic"'
tamper_py extra-field '\$\.extra: not a field of the format' 'd["extra"] = 1'
tamper_py words-zero '\$\.words_checked' 'd["words_checked"] = 0'
tamper_py cx-layer '\$\.counterexample\.layer' 'd["counterexample"]["layer"] = 2' refuted
tamper_py cx-head '\$\.counterexample\.head' 'd["counterexample"]["head"] = 2' refuted
tamper_py cx-query '\$\.counterexample' 'd["counterexample"]["query"] = 1' refuted
tamper_py cx-value '\$\.counterexample\.value' 'd["counterexample"]["value"] = ["0.9", "0.95"]' refuted
# A claim widened until it shows no violation asserts nothing
tamper_py cx-value-widened '\$\.counterexample\.value: its lower end is not above eps: it shows no violation' 'd["counterexample"]["value"] = ["0", "1"]' refuted
tamper_py cx-value-at-eps '\$\.counterexample\.value: its lower end is not above eps' 'd["counterexample"]["value"] = ["1/100", "0.2"]' refuted
tamper_py cx-quantity '\$\.counterexample\.quantity' 'd["counterexample"]["quantity"] = "output"' refuted
tamper_py cx-detail '\$\.counterexample\.detail: not a field of the format' 'd["counterexample"]["detail"] = "anything"' refuted
tamper_py cx-words '\$\.words_checked' 'd["words_checked"] = 3' refuted
tamper_py model-name '\$\.model\.name' 'd["model"]["name"] = "other"'
printf '\0' | cat "$work/base.json" - >"$work/nul.json"
verify trailing-nul 1 'NOT VERIFIED.*NUL' "$work/nul.json"
{ cat "$work/base.json"; echo garbage; } >"$work/garbage.json"
verify trailing-garbage 1 'NOT VERIFIED.*not JSON' "$work/garbage.json"
# item 18: bounds rounded at another precision are accepted (inequalities)
accept_py other-rounding "$h[\"beta_gap_up\"] = str(Fraction($h[\"beta_gap_up\"]) + Fraction(1, 10**25))"
accept_py other-decimal "$h[\"beta_gap_decimal_up\"] = $h[\"beta_gap_decimal_up\"] + \"1\""
tamper_py below-bound '\$\.gaps\.heads\[0\]\.beta_gap_up' "$h[\"beta_gap_up\"] = str(Fraction($h[\"beta_gap_up\"]) - Fraction(1, 10**25))"

# layerwise certificates: the argument recomputed, no enumeration
lw="$cases/models/prev-a-earlier-b.json"
"$tempcert" certify "$lw" --n 200 --eps 0.01 --method layerwise -o "$work/lw.json" >/dev/null
verify lw-untouched 0 's VERIFIED.*layerwise argument re-derived over 200 lengths by the small checker' "$work/lw.json" "$lw"
tamper_lw() { # NAME PATTERN SED-EXPRESSION
    sed -E "$3" "$work/lw.json" >"$work/$1.json"
    if cmp -s "$work/lw.json" "$work/$1.json"; then
        fail=$((fail + 1))
        echo "FAIL $1: the edit changed nothing"
        return
    fi
    verify "$1" 1 "NOT VERIFIED.*$2" "$work/$1.json" "$lw"
}
tamper_lw lw-gap '\$\.layers\[0\]\.heads\[0\]\.min_gap: claims 2, recomputed 1' '0,/"min_gap": "1"/s//"min_gap": "2"/'
tamper_lw lw-beta 'claims 9 at n = 1, recomputed at least .* \(layer 1.s need\)' 's/"spec": "[^"]*"/"spec": "9"/'
tamper_lw lw-beta-negative 'claims -1 at n = 1, recomputed at least' 's/"spec": "[^"]*"/"spec": "-1"/'
tamper_lw lw-n '\$\.layers\[0\]\.heads\[0\]\.N' 's/^  "n": 200,/  "n": 201,/'
tamper_lw lw-values '\$\.layers\[1\]\.values: claims 5' '0,/"values": 4/s//"values": 5/'
tamper_lw lw-perturbed '\$\.layers\[0\]\.perturbed' '0,/"perturbed": \[/s//"perturbed": [1, /'
tamper_lw lw-perturbed-twice '\$\.layers\[0\]\.perturbed: lists coordinate 5 twice' '0,/"perturbed": \[/s//"perturbed": [5, /'
tamper_lw lw-readout '\$\.readout_exact' 's/"readout_exact": true/"readout_exact": false/'
tamper_lw lw-verdict '\$\.verdict' 's/"verdict": "certified"/"verdict": "undecided"/'

# a tolerance below 1e-7: certify writes the counterexample's enclosure with
# an exponent ("5.6e-9"), which the checker reads exactly (it once refused
# it as malformed); an exponent too long, or a value moved by one, is not
"$tempcert" certify "$model" --n 4 --eps 1e-9 --beta 9.5 -o "$work/tiny.json" >/dev/null
grep -q '"[0-9.]*e-9"' "$work/tiny.json" ||
    { fail=$((fail + 1)); echo "FAIL tiny: no value with an exponent in $(cat "$work/tiny.json")"; }
verify tiny 0 's VERIFIED' "$work/tiny.json"
tamper_py tiny-long-exponent '\$\.counterexample\.value: expected "p/q" or \["lo", "hi"\], exact numbers' \
    'd["counterexample"]["value"][0] = "5e-10000"' tiny
tamper_py tiny-moved '\$\.counterexample\.value: claims' \
    'd["counterexample"]["value"] = ["5.6e-8", "5.7e-8"]' tiny

# the decision criterion: a soft read-out near -1e-1159 (certify writes it,
# the checker reads it) and near -1e-10076 at beta 870, which the format's
# numbers (exponents of at most 4 digits) do not carry: exit 3, no file
# (the model a hunt found: tests/unit/test_check_random.cpp)
hunted="$(dirname "$0")/../regressions/hunt-900098.json"
"$tempcert" certify "$hunted" --n 4 --eps 1/20 --criterion decision --beta 100 \
    -o "$work/tiny-y.json" >/dev/null
verify tiny-y 0 's VERIFIED' "$work/tiny-y.json" "$hunted"
out=$("$tempcert" certify "$hunted" --n 4 --eps 1/20 --criterion decision \
    --beta 870 --prec-cap 100000 -o "$work/tinier-y.json" 2>&1)
code=$?
if [ "$code" = 3 ] && [ ! -e "$work/tinier-y.json" ] && grep -q "not a number the certificate format carries" <<<"$out"; then
    pass=$((pass + 1))
else
    fail=$((fail + 1)); echo "FAIL tinier-y: exit $code: $out"
fi

# a refutation's value made stale: certified refuted at beta 45/4,9/4, the
# same claim at 64 times that beta, where |y_S - y_H| has moved by 3e-35
# (tests/regressions/stale-value.json); the checker once accepted it, its
# 128-bit enclosure meeting the claim, and now raises the precision until the
# claim contains the enclosure or is refuted
stale="$(dirname "$0")/../regressions/stale-value.json"
"$tempcert" certify "$stale" --n 2 --eps 1/20 --criterion output --beta 45/4,9/4 \
    -o "$work/stale.json" >/dev/null
verify stale 0 's VERIFIED' "$work/stale.json" "$stale"
sed 's|"spec": "45/4,9/4"|"spec": "720,144"|' "$work/stale.json" >"$work/stale-raised.json"
verify stale-raised 1 'NOT VERIFIED.*\$\.counterexample\.value: claims' "$work/stale-raised.json" "$stale"

# truncation and a different model file
head -c 300 "$work/base.json" >"$work/truncated.json"
verify truncated 1 'NOT VERIFIED.*not JSON' "$work/truncated.json"
sed 's|"bias": "-1/2"|"bias": "-1/3"|' "$model" >"$work/other-model.json"
verify other-model 1 'NOT VERIFIED.*\$\.model\.sha256' "$work/base.json" "$work/other-model.json"
verify different-case 1 'NOT VERIFIED.*\$\.model\.sha256' "$work/base.json" "$cases/models/earlier-b-strict.json"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
