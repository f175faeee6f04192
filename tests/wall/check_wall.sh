#!/usr/bin/env bash
# The checker's wall at compile time (proofs/certificate.md, Trusted base): a source compiled
# with the checker's include directories builds when it includes a kernel
# header and fails, naming the header, when it includes an engine header.
# Usage: check_wall.sh CMAKE BUILD
set -u
cmake=$1
build=$2
fail=0
if ! out=$("$cmake" --build "$build" --target checker_wall_kernel 2>&1); then
    fail=1; echo "FAIL: a checker source including kernel headers does not compile:"
    printf '%s\n' "$out" | grep -m5 -i error
fi
if out=$("$cmake" --build "$build" --target checker_wall_engine 2>&1); then
    fail=1; echo "FAIL: a checker source including tempcert/gap.hpp compiles: the wall is open"
elif ! printf '%s\n' "$out" | grep -Eq "tempcert/gap\.hpp.*(No such file|file not found)"; then
    fail=1; echo "FAIL: the engine probe failed for another reason than the missing header:"
    printf '%s\n' "$out" | grep -m5 -i error
fi
[ "$fail" = 0 ] && echo "checker wall: kernel headers compile, engine headers are out of reach"
exit $fail
