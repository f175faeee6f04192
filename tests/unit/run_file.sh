#!/usr/bin/env bash
# Runs the unit test cases of one source file (doctest's --source-file) and
# fails when that selects no test case: a renamed file must not pass empty.
#   run_file.sh TEMPCERT_TESTS test_numeric.cpp [doctest options...]
set -uo pipefail
tests=$1
file=$2
shift 2
out=$("$tests" "--source-file=*/$file" "$@" 2>&1)
code=$?
printf '%s\n' "$out"
[ "$code" = 0 ] || exit "$code"
if printf '%s\n' "$out" | grep -Eq '^\[doctest\] test cases: +0 '; then
    echo "run_file.sh: no test case of $file ran"
    exit 1
fi
