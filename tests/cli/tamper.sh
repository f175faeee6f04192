#!/usr/bin/env bash
# Tampered certificates: `tempcert check` must accept the certificates that
# `certify` writes and reject (exit 1, "s NOT VERIFIED", naming the JSON
# path) every edited one.
set -u
tempcert=$1
cases=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
model="$cases/models/has-b.json"

"$tempcert" certify "$model" --n 5 --eps 0.01 -o "$work/base.json" >/dev/null
"$tempcert" certify "$model" --n 5 --eps 0.01 --beta 1 -o "$work/refuted.json" >/dev/null

verify() { # name expected-exit pattern cert [model]
    local name=$1 want=$2 pattern=$3 cert=$4 m=${5:-$model}
    local out code
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
tamper verdict '\$\.counterexample' 's/"verdict": "certified"/"verdict": "refuted"/'
tamper verdict-flip '\$\.verdict.*violates' 's/"verdict": "refuted"/"verdict": "certified"/; s/"counterexample": \{/"counterexample": null, "x": {/; s/"words_checked": [0-9]+/"words_checked": 62/' refuted
tamper hash '\$\.model\.sha256' 's/("sha256": ")./\10/'
tamper method '\$\.method' 's/"method": "exhaustive(-prefix)?",/"method": "symbolic",/'
tamper words '\$\.words_checked' 's/"words_checked": [0-9]+/"words_checked": 61/'
tamper beta-gap-up '\$\.gaps\.heads\[0\]\.beta_gap_up' 's/("beta_gap_up": ")([0-9])/\19/'
tamper decimal-wrong-way '\$\.beta\.decimal_up' 's/"decimal_up": "[^"]*"/"decimal_up": "2.9"/'
tamper tau-wrong-way '\$\.beta\.tau_decimal_down' 's/"tau_decimal_down": "[^"]*"/"tau_decimal_down": "0.5"/'
tamper source '\$\.beta\.source' 's/"source": "beta_gap"/"source": "guess"/'
tamper counterexample-word '\$\.counterexample.*does not violate' 's/^    "word": "ab",$/    "word": "a",/' refuted
tamper user-beta-lowered '\$\.verdict: claims certified, but on word ab, tv layer 1 head 1 query 2' 's/"source": "beta_gap"/"source": "user"/; s/"spec": "[^"]*"/"spec": "1"/'
tamper format '\$\.format' 's/tempcert-certificate\/1/tempcert-certificate\/0/'
tamper ties '\$\.gaps\.heads\[0\]\.ties' 's/"ties": null/"ties": {"word": "ab"}/'
tamper criterion '\$\.criterion' 's/"criterion": "tv"/"criterion": "tvx"/'

# layerwise certificates: the argument recomputed, no enumeration
lw="$cases/models/prev-a-earlier-b.json"
"$tempcert" certify "$lw" --n 200 --eps 0.01 --method layerwise -o "$work/lw.json" >/dev/null
verify lw-untouched 0 's VERIFIED.*layerwise argument recomputed' "$work/lw.json" "$lw"
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
tamper_lw lw-beta 'needs beta >= ' 's/"spec": "[^"]*"/"spec": "9"/'
tamper_lw lw-beta-negative 'is not positive' 's/"spec": "[^"]*"/"spec": "-1"/'
tamper_lw lw-n '\$\.layers\[0\]\.heads\[0\]\.N' 's/^  "n": 200,/  "n": 201,/'
tamper_lw lw-values '\$\.layers\[1\]\.values: claims 5' '0,/"values": 4/s//"values": 5/'
tamper_lw lw-perturbed '\$\.layers\[0\]\.perturbed' '0,/"perturbed": \[/s//"perturbed": [1, /'
tamper_lw lw-readout '\$\.readout_exact' 's/"readout_exact": true/"readout_exact": false/'
tamper_lw lw-verdict '\$\.verdict' 's/"verdict": "certified"/"verdict": "undecided"/'

# truncation and a different model file
head -c 300 "$work/base.json" >"$work/truncated.json"
verify truncated 1 'NOT VERIFIED.*invalid JSON' "$work/truncated.json"
sed 's|"bias": "-1/2"|"bias": "-1/3"|' "$model" >"$work/other-model.json"
verify other-model 1 'NOT VERIFIED.*\$\.model\.sha256' "$work/base.json" "$work/other-model.json"
verify different-case 1 'NOT VERIFIED.*\$\.model\.sha256' "$work/base.json" "$cases/models/earlier-b-strict.json"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
