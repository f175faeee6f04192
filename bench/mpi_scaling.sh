#!/usr/bin/env bash
# Certification under mpirun, ranks side by side in one
# run (this machine is noisy: rounds alternate, the median is kept).
# Usage: bench/mpi_scaling.sh TEMPCERT [ROUNDS]   (a build with MPI)
set -u
tempcert=$1
rounds=${2:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_btl=self,vader
two="$root/cases/models/has-ab-two-layer.json"
four="$root/cases/models/last-cd-is-d.json"
# seconds of one run: label command...
seconds() {
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1 || echo "bench: failed: $*" >&2
    t1=$(date +%s%N)
    echo "scale=3; ($t1 - $t0) / 1000000000" | bc
}
median() { tr ' ' '\n' | sort -n | sed -n "$(((rounds + 1) / 2))p"; }
for job in "two-layer n=17|certify $two --n 17 --eps 1/100 --beta 20 --max-words 1000000000" \
           "four-symbol n=9|certify $four --n 9 --eps 1/100 --beta 30 --max-words 1000000000"; do
    name=${job%%|*}
    read -r -a args <<<"${job#*|}"
    plain="" np1="" np2="" t2=""
    for _ in $(seq 1 "$rounds"); do
        plain+=" $(seconds "$tempcert" "${args[@]}" --threads 1)"
        np1+=" $(seconds mpirun --oversubscribe -np 1 "$tempcert" "${args[@]}" --threads 1)"
        np2+=" $(seconds mpirun --oversubscribe -np 2 "$tempcert" "${args[@]}" --threads 1)"
        t2+=" $(seconds "$tempcert" "${args[@]}" --threads 2)"
    done
    p=$(echo "$plain" | median) a=$(echo "$np1" | median) b=$(echo "$np2" | median) c=$(echo "$t2" | median)
    echo "$name: one process ${p} s, np 1 ${a} s, np 2 ${b} s (np1/np2 $(echo "scale=2; $a / $b" | bc)x), 2 threads ${c} s ($(echo "scale=2; $p / $c" | bc)x)"
done
