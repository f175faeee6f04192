#!/usr/bin/env bash
# Executes examples/tempcert.ipynb headless with the venv's kernel (so it
# cannot rot): nbconvert fails on any cell error, and the executed notebook
# must hold the plot and the refuting word.
set -euo pipefail
venv=$1 root=$2
py="$venv/bin/python"
[ -x "$py" ] || { echo "no Python venv at $venv: run scripts/setup" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
PATH="$venv/bin:$PATH" PYDEVD_DISABLE_FILE_VALIDATION=1 "$py" -m nbconvert --to notebook --execute \
    --ExecutePreprocessor.timeout=600 --ExecutePreprocessor.kernel_name=python3 \
    --output-dir "$work" --output executed "$root/examples/tempcert.ipynb"
"$py" - "$work/executed.ipynb" <<'PY'
import json, sys
nb = json.load(open(sys.argv[1]))
outputs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])]
text = "".join("".join(o.get("text", "")) for o in outputs)
images = [o for o in outputs if "image/png" in o.get("data", {})]
assert not [o for o in outputs if o.get("output_type") == "error"], "a cell raised"
assert images, "no plot in the executed notebook"
assert "minimum gap: 2" in text, text
assert "certified at beta" in text and "refuted at beta" in text, text

for o in outputs:
    if "text" in o: sys.stdout.write("".join(o["text"]))
print(f"notebook ok: {len(nb['cells'])} cells, {len(images)} plot(s)")
PY
