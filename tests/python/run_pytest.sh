#!/usr/bin/env bash
# The Python module's tests (python/tests/) in the venv scripts/setup made,
# against the executable just built. Fails, saying how to fix it, when the
# venv is missing or holds a module other than the one just built (a stale
# install would test old code).
set -euo pipefail
venv=$1 tempcert=$2 built_module=$3 root=$4
py="$venv/bin/python"
if [ ! -x "$py" ]; then
    echo "no Python venv at $venv: run scripts/setup (it creates it and installs tempcert)" >&2
    exit 1
fi
installed=$("$py" -c 'import tempcert._core as c; print(c.__file__)')
if ! cmp -s "$installed" "$built_module"; then
    echo "the installed module $installed is not the one built at $built_module:" \
         "run scripts/setup to reinstall it" >&2
    exit 1
fi
cd "$root/python/tests"
TEMPCERT_BIN=$tempcert exec "$py" -m pytest -q -p no:cacheprovider "$root/python/tests"
