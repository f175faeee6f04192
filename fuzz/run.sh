#!/usr/bin/env bash
# Runs one libFuzzer target for a bounded time: new inputs go to a work
# corpus in the build tree (the seed corpus in the repository is read only),
# crashes to <work>/artifacts/. Passes when the fuzzer finds nothing.
set -u
# TEMPCERT_FUZZ_SECONDS at run time overrides the configured time
# (scripts/test --long fuzzes longer without reconfiguring).
bin=$1 seeds=$2 work=$3 seconds=${TEMPCERT_FUZZ_SECONDS:-$4}
mkdir -p "$work/corpus" "$work/artifacts"
# -timeout: one input running 25 s under ASan is a hang (a 48 s one was
# found this way); 10 s failed on a loaded machine for a 3 s input.
# -report_slow_units: libFuzzer's default (10 s) writes a slow-unit artifact,
# which fails the run below, for inputs under the hang limit: a 0.2 s input
# of fuzz_number took 13 s once while five processes shared the two cores.
# Slow means the same 25 s as the timeout.
"$bin" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=25 -report_slow_units=25 \
    -max_len=4096 \
    -artifact_prefix="$work/artifacts/" -print_final_stats=1 "$work/corpus" "$seeds" 2>"$work/log"
code=$?
tail -n 12 "$work/log"
if [ $code -ne 0 ] || ls "$work/artifacts"/* >/dev/null 2>&1; then
    echo "fuzz: $(basename "$bin") found a failing input in $work/artifacts (exit $code)"
    exit 1
fi
echo "fuzz: $(basename "$bin") ran ${seconds}s clean"
