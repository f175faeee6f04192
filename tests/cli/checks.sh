# Sourced by the command-line tests that count checks (guard.sh,
# perturbation.sh, sqrt_features.sh, trust.sh): a private directory `tmp`
# removed on exit, the counters, and
#   ok                     one check passed;
#   bad WHAT...            one failed, said as "FAIL: WHAT";
#   check WHAT COMMAND...  passes when COMMAND succeeds;
#   checks_done [LABEL]    "[LABEL: ]P passed, F failed", and the status.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL: $*"
}
check() {
    local what=$1
    shift
    if "$@"; then ok; else bad "$what"; fi
}
checks_done() {
    echo "${1:+$1: }$pass passed, $fail failed"
    [ "$fail" = 0 ]
}
