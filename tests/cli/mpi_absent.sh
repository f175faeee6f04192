#!/usr/bin/env bash
# A tempcert built without MPI, started by mpirun as several
# processes, refuses (exit 2, one message) instead of letting every process
# do all the work and write the same files. Usage: mpi_absent.sh TEMPCERT
# TEMPCERT-CHECK CASES
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for tool in "$1 certify $3/models/has-b.json --n 4 --eps 1/100 --beta 20 -o $tmp/c.json" "$2 x.json --model y.json"; do
    # shellcheck disable=SC2086
    mpirun --oversubscribe -np 2 $tool >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" = 0 ] || ! grep -q "built without MPI" "$tmp/err" || [ -e "$tmp/c.json" ]; then
        fail=1; echo "FAIL: ${tool%% *} under mpirun -np 2 without MPI: exit $rc"; head -3 "$tmp/err"
    fi
done
# one process under mpirun is one process: it runs
mpirun -np 1 "$1" certify "$3/models/has-b.json" --n 4 --eps 1/100 --beta 20 >"$tmp/out" 2>&1 ||
    { fail=1; echo "FAIL: -np 1 without MPI does not run"; cat "$tmp/out"; }
[ "$fail" = 0 ] && echo "mpi_absent: passed"
[ "$fail" = 0 ]
