#!/usr/bin/env bash
# proofs/coq: coqc checks every file of _CoqProject from scratch
# (`make clean all` in proofs/coq, whose products git ignores: the library
# that export_coq and the docs' session then use, ctest fixture coq_library,
# so it is compiled once per run); Print Assumptions on the main
# theorems lists exactly proofs/coq/assumptions.expected (the axioms of
# Coq's standard real numbers, nothing of ours); every Coq theorem a
# proofs/*.md file names (`Coq: File.name`) exists. Exit 77 (skipped) when
# coqc is not installed (scripts/setup installs it).
set -u
root="$1"
command -v coqc >/dev/null || { echo "coqc not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root/proofs/coq" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }

if grep -nE '\b(Admitted|admit|Axiom|Parameter|Hypothesis|Conjecture)\b' ./*.v; then
    bad "a proof file states an axiom or leaves a proof open"
fi
# from scratch: make's rule knows no dependency between .v files, so a .vo
# left from an earlier run could hide a change in a file it requires
make -s clean
for f in $(sed -n '/\.v$/p' _CoqProject); do
    coqc -Q . TempcertProofs "$f" || bad "coqc rejects $f"
done
coqc -Q . TempcertProofs Assumptions.v >"$tmp/assumptions.out" 2>&1 ||
    bad "Assumptions.v: $(cat "$tmp/assumptions.out")"
diff -u assumptions.expected "$tmp/assumptions.out" ||
    bad "Print Assumptions differs from assumptions.expected"

# every theorem the markdown names, checked to exist
names=$(grep -ohE 'Coq: `[A-Z][A-Za-z0-9_]*\.[A-Za-z0-9_]+`' "$root"/proofs/*.md | sed 's/Coq: `//; s/`$//' | sort -u)
[ -n "$names" ] || bad "no proofs/*.md names a Coq theorem"
# a name broken onto the next line would escape the check above
if grep -nE 'Coq:[[:space:]]*$' "$root"/proofs/*.md; then
    bad "a 'Coq:' reference whose name is not on the same line"
fi
{
    for f in $(sed -n '/\.v$/p' _CoqProject); do echo "From TempcertProofs Require ${f%.v}."; done
    for n in $names; do echo "Check $n."; done
} >"$tmp/Named.v"
coqc -Q . TempcertProofs "$tmp/Named.v" >"$tmp/named.out" 2>&1 ||
    bad "a named Coq theorem does not exist: $(cat "$tmp/named.out")"
echo "checked: $(echo "$names" | wc -w) named theorems"
exit $fail
