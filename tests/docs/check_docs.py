#!/usr/bin/env python3
"""The documentation cannot drift from the tool:

1. help: each command's block in docs/commands.md is its `--help` text (white
   space and line wrapping aside), and the common options' block is what
   every command prints after its own options;
2. sessions: every `$ command` shown in README.md and docs/*.md runs, from a
   scratch directory that sees the repository's build/, cases/, tools/ and
   tests/, and prints every line shown under it (a shown line may elide
   with "..."; its pieces must appear in order in one output line);
3. references: every proofs/ or docs/ file the repository cites exists, and
   no tracked file refers to the design note outside the repository.

Usage: check_docs.py ROOT TEMPCERT [--update-help]
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

COMMON_START = "--json print machine-readable JSON"
HELP_BLOCK = re.compile(r"<!-- help: (\S+) -->\n```\n(.*?)```\n<!-- end help -->", re.S)
failures = []
TEMPCERT = None


def fail(msg):
    failures.append(msg)
    print("FAIL", msg)


def norm(text):
    t = " ".join(text.split())
    return re.sub(r"--threads arg \(=\d+\)", "--threads arg (=cores)", t)


def help_text(tempcert, command):
    args = [tempcert] + ([command, "--help"] if command != "tempcert" else ["--help"])
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def commands(tempcert):
    out = help_text(tempcert, "tempcert")
    body = out.split("commands:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in body.splitlines() if line.strip()]


def split_help(text):
    n = norm(text)
    i = n.find(COMMON_START)
    return (n, "") if i < 0 else (n[:i].strip(), n[i:])


def own_part(text):
    """The help text up to the common options, verbatim."""
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if line.strip().startswith("--json "):
            return "\n".join(lines[:k]) + "\n"
    return text


def common_part(text):
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if line.strip().startswith("--json "):
            return re.sub(r"--threads arg \(=\d+\)", "--threads arg (=cores)",
                          "\n".join(lines[k:]) + "\n")
    return ""


def check_help(root, tempcert, update):
    path = os.path.join(root, "docs", "commands.md")
    doc = open(path).read()
    blocks = dict(HELP_BLOCK.findall(doc))
    names = ["tempcert"] + commands(tempcert)
    texts = {c: help_text(tempcert, c) for c in names}
    if update:
        def repl(m):
            c = m.group(1)
            t = texts["gap"] if c == "common" else texts.get(c)
            body = common_part(t) if c == "common" else own_part(t)
            return f"<!-- help: {c} -->\n```\n{body}```\n<!-- end help -->"
        open(path, "w").write(HELP_BLOCK.sub(repl, doc))
        return
    for c in names:
        if c not in blocks:
            fail(f"docs/commands.md: no help block for {c}")
            continue
        own, common = split_help(texts[c])
        if own != norm(blocks[c]):
            fail(f"docs/commands.md: the help block of {c} differs from `{c} --help`"
                 " (tests/docs/check_docs.py ROOT TEMPCERT --update-help rewrites it)")
        if c != "tempcert" and common != norm(blocks.get("common", "")):
            fail(f"docs/commands.md: {c}'s common options differ from the documented ones")
    print(f"help: {len(names)} commands compared with --help")


def sessions(text):
    """(command, shown output lines) for every `$ ` line of indented blocks,
    skipping blocks that another test runs (marked "runs these lines")."""
    out, skip, lines = [], False, text.splitlines()
    k = 0
    while k < len(lines):
        line = lines[k]
        if "runs these lines" in line:
            skip = True
        elif line.startswith("<!-- end"):
            skip = False
        if line.startswith("    $ ") and not skip:
            cmd, shown = line[6:], []
            k += 1
            while k < len(lines) and lines[k].startswith("    ") and not lines[k].startswith("    $ "):
                shown.append(lines[k][4:])
                k += 1
            out.append((cmd, shown))
            continue
        k += 1
    return out


def shows(output, shown_line):
    pieces = [norm(p) for p in shown_line.split("...") if norm(p)]
    if not pieces:
        return True
    for line in output.splitlines():
        n, pos, ok = norm(line), 0, True
        for p in pieces:
            i = n.find(p, pos)
            if i < 0:
                ok = False
                break
            pos = i + len(p)
        if ok:
            return True
    return False


def check_sessions(root):
    files = ["README.md"] + sorted(os.path.join("docs", f) for f in os.listdir(os.path.join(root, "docs"))
                                   if f.endswith(".md"))
    total = 0
    for rel in files:
        work = tempfile.mkdtemp(prefix="tempcert-docs-")
        # build/ is the directory of the binary under test
        os.symlink(os.path.dirname(TEMPCERT), os.path.join(work, "build"))
        for d in ("cases", "tools", "tests", "proofs", "examples", ".venv"):
            if os.path.exists(os.path.join(root, d)):
                os.symlink(os.path.join(root, d), os.path.join(work, d))
        for cmd, shown in sessions(open(os.path.join(root, rel)).read()):
            total += 1
            p = subprocess.run(["bash", "-c", cmd], cwd=work, capture_output=True, text=True,
                               timeout=300)
            output = p.stdout + p.stderr
            if p.returncode not in (0, 1):
                fail(f"{rel}: `{cmd}` exited {p.returncode}: {output.strip()[-300:]}")
                continue
            for s in shown:
                if not shows(output, s):
                    fail(f"{rel}: `{cmd}` did not print: {s.strip()}\n  it printed:\n{output[:1500]}")
                    break
        shutil.rmtree(work)
    print(f"sessions: {total} commands run from README.md and docs/")


def tracked_files(root):
    p = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True)
    if p.returncode == 0 and p.stdout.strip():
        return p.stdout.split()
    out = []
    for d, dirs, fs in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".") and not x.startswith("build")]
        out += [os.path.relpath(os.path.join(d, f), root) for f in fs]
    return out


def check_references(root):
    cited = re.compile(r"\b((?:docs|proofs)/[A-Za-z0-9_.-]+\.md)\b")
    outside = re.compile(r"\bSPEC\b|\.\./shared")
    me = os.path.relpath(os.path.abspath(__file__), root)
    checked = 0
    for rel in tracked_files(root):
        if rel == me or rel.startswith("fuzz/corpus/"):
            continue
        try:
            text = open(os.path.join(root, rel), encoding="utf-8").read()
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            continue
        checked += 1
        for m in sorted(set(cited.findall(text))):
            if not os.path.exists(os.path.join(root, m)):
                fail(f"{rel}: cites {m}, which does not exist")
        for k, line in enumerate(text.splitlines(), 1):
            if outside.search(line):
                fail(f"{rel}:{k}: refers to a document outside the repository: {line.strip()[:100]}")
    print(f"references: {checked} files checked")


def main():
    global TEMPCERT
    root, tempcert = sys.argv[1], os.path.abspath(sys.argv[2])
    TEMPCERT = tempcert
    update = "--update-help" in sys.argv
    os.environ["PATH"] = os.path.dirname(tempcert) + os.pathsep + os.environ["PATH"]
    check_help(root, tempcert, update)
    if update:
        return 0
    check_sessions(root)
    check_references(root)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
