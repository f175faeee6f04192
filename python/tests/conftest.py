"""Shared fixtures: the command line binary the module is compared with
($TEMPCERT_BIN, set by ctest), the bundled cases and the bad-input catalogue."""

import json
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES = os.path.join(ROOT, "cases")


def _binary():
    b = os.environ.get("TEMPCERT_BIN", os.path.join(ROOT, "build", "tempcert"))
    if not os.access(b, os.X_OK):
        pytest.exit(f"no tempcert executable at {b} (set TEMPCERT_BIN or run scripts/setup)", 2)
    return b


@pytest.fixture(scope="session")
def cli():
    """cli(*args) -> (exit code, parsed JSON or None, stderr) of the executable."""
    binary = _binary()

    def run(*args, json_out=True):
        p = subprocess.run([binary, *map(str, args)] + (["--json"] if json_out else []),
                           capture_output=True, text=True, timeout=600)
        out = json.loads(p.stdout) if json_out and p.stdout.strip() else p.stdout
        return p.returncode, out, p.stderr
    return run


def bundled_cases():
    with open(os.path.join(CASES, "manifest.json")) as f:
        return json.load(f)["cases"]
