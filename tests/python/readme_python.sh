#!/usr/bin/env bash
# Runs README.md's "In Python" session (between the python-example markers)
# as a doctest in the venv, from the repository root: the module must print
# exactly what the README shows.
set -euo pipefail
venv=$1 root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed -n '/<!-- python-example/,/<!-- end python-example/p' "$root/README.md" |
    sed -e '1d' -e '$d' -e 's/^    //' | grep -v '^\$ ' > "$work/session.txt"
[ -s "$work/session.txt" ] || { echo "no python-example block in README.md" >&2; exit 1; }
cd "$root"
"$venv/bin/python" - "$work/session.txt" <<'PY'
import doctest, sys
failed, tried = doctest.testfile(sys.argv[1], module_relative=False, report=True)
print(f"README python session: {tried} examples, {failed} failed")
sys.exit(1 if failed or not tried else 0)
PY
