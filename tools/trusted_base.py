#!/usr/bin/env python3
"""The checker's trusted base, from the build's own dependency files.

Every project file the compiler read to build tempcert-check's objects (the
targets tempcert_kernel, tempcert_check and tempcert-check): the sources and
every header they include, as GCC and clang wrote them into the .o.d files.
Third-party and system headers (GMP, MPFR, MPFI, Boost, nlohmann/json,
OpenSSL, MPI) are outside the count, as proofs/certificate.md says.

    tools/trusted_base.py BUILD            the table and the total
    tools/trusted_base.py BUILD --list     the files, one per line (what
        tests/trusted_base.expected holds)
    tools/trusted_base.py BUILD --check    also compare with the source
        tree's tests/trusted_base.expected (the file list, exactly) and with
        the total that its proofs/certificate.md states (within 3 %); exit 1
        if either differs, 2 if BUILD has no dependency files

The source tree is the one BUILD was configured from (its CMakeCache.txt).

Lines are counted as `wc -l` counts them, comments included.

The count is that of the default build, without MPI. A build with
-DTEMPCERT_MPI=ON compiles src/distributed/ranks_mpi.cpp in place of
ranks_local.cpp; the script then counts ranks_local.cpp as the default
build would, and prints the MPI implementation's lines apart (what a
reader running tempcert-check under mpirun trusts in addition).
"""
import os
import re
import sys

TARGETS = ("tempcert_kernel", "tempcert_check", "tempcert-check")
# "The script counts N lines in M files" in proofs/certificate.md
STATED = re.compile(r"tools/trusted_base\.py` counts \*\*([0-9,]+) lines\*\* in ([0-9]+) files")
SLACK = 0.03
# The two implementations of src/distributed/ranks.hpp (one per build).
RANKS_LOCAL = os.path.join("src", "distributed", "ranks_local.cpp")
RANKS_MPI = os.path.join("src", "distributed", "ranks_mpi.cpp")


def depfiles(build):
    for target in TARGETS:
        top = os.path.join(build, "CMakeFiles", target + ".dir")
        listed = listed_depfiles(top)
        if listed is not None:
            yield from listed
            continue
        for folder, _, names in os.walk(top):
            for name in names:
                if name.endswith(".o.d"):
                    yield os.path.join(folder, name)


def listed_depfiles(top):
    """The dependency files of the target's current objects, from CMake's
    DependInfo.cmake (None without one). A source moved to another target
    leaves its old object's dependency file behind; this list does not name
    it."""
    try:
        text = open(os.path.join(top, "DependInfo.cmake"), encoding="utf-8").read()
    except OSError:
        return None
    m = re.search(r"set\(CMAKE_DEPENDS_DEPENDENCY_FILES(.*?)\)", text, re.S)
    if not m:
        return None
    fields = re.findall(r'"([^"]*)"', m.group(1))
    build = os.path.dirname(os.path.dirname(top))
    found = sorted({os.path.join(build, d) for d in fields[3::4]})
    return [d for d in found if os.path.exists(d)]


def dependencies(path):
    """The files a make-style dependency file lists (after the target)."""
    text = open(path, encoding="utf-8").read().replace("\\\n", " ")
    found = []
    for rule in text.split("\n"):
        if ":" not in rule:
            continue
        _, deps = rule.split(":", 1)
        found.extend(d.replace("\\ ", " ") for d in re.split(r"(?<!\\)\s+", deps) if d)
    return found


def trusted_files(build, root):
    files = set()
    count = 0
    for d in depfiles(build):
        count += 1
        for dep in dependencies(d):
            full = os.path.realpath(os.path.join(build, dep))
            rel = os.path.relpath(full, root)
            if rel.startswith(("src" + os.sep, "include" + os.sep)):
                files.add(rel)
    if count == 0:
        return None
    return sorted(files)


def default_build(files):
    """The files as the default build (without MPI) has them, and the MPI
    implementation when this build compiled it (else None)."""
    if RANKS_MPI not in files:
        return files, None
    return sorted(set(files) - {RANKS_MPI} | {RANKS_LOCAL}), RANKS_MPI


def lines(root, rel):
    with open(os.path.join(root, rel), "rb") as f:
        return f.read().count(b"\n")


def part(rel):
    """src/check, include/kernel, ...: the table's rows."""
    return os.sep.join(rel.split(os.sep)[:2])


def source_dir(build):
    try:
        with open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8") as cache:
            for line in cache:
                if line.startswith("CMAKE_HOME_DIRECTORY:INTERNAL="):
                    return os.path.realpath(line.split("=", 1)[1].strip())
    except OSError:
        pass
    return None


def print_table(root, files):
    """The table by part; returns the total."""
    per_part = {}
    for rel in files:
        n, k = per_part.get(part(rel), (0, 0))
        per_part[part(rel)] = (n + lines(root, rel), k + 1)
    total = sum(n for n, _ in per_part.values())
    print(f"{'part':<20} {'files':>5} {'lines':>7}")
    for name in sorted(per_part):
        n, k = per_part[name]
        print(f"{name:<20} {k:>5} {n:>7}")
    print(f"{'total':<20} {len(files):>5} {total:>7}")
    return total


def check_against_repository(root, files, total):
    """Exit status of --check: the file list and the stated total."""
    failed = False
    expected_path = os.path.join(root, "tests", "trusted_base.expected")
    expected = [l.strip() for l in open(expected_path) if l.strip() and not l.startswith("#")]
    if sorted(set(expected)) != files or len(expected) != len(files):
        failed = True
        for rel in sorted(set(files) - set(expected)):
            print(f"FAIL: {rel} is in the trusted base but not in {expected_path}")
        for rel in sorted(set(expected) - set(files)):
            print(f"FAIL: {rel} is listed in {expected_path} but the checker does not read it")
        if set(expected) == set(files):
            print(f"FAIL: {expected_path} lists a file twice")
    doc = os.path.join(root, "proofs", "certificate.md")
    m = STATED.search(open(doc, encoding="utf-8").read().replace("\n", " "))
    if not m:
        print(f"FAIL: {doc} states no count ('`tools/trusted_base.py` counts **N lines** in M files')")
        return 1
    stated, stated_files = int(m.group(1).replace(",", "")), int(m.group(2))
    if abs(total - stated) > SLACK * stated or stated_files != len(files):
        failed = True
        print(f"FAIL: {doc} states {stated} lines in {stated_files} files; "
              f"the build's dependency files give {total} in {len(files)}")
    if not failed:
        print(f"trusted base: {total} lines in {len(files)} files, as {doc} states "
              f"({stated}, within {SLACK:.0%})")
    return 1 if failed else 0


def main(argv):
    if len(argv) not in (2, 3) or (len(argv) == 3 and argv[2] not in ("--check", "--list")):
        sys.stderr.write(__doc__)
        return 2
    build = os.path.realpath(argv[1])
    root = source_dir(build)
    if root is None:
        print(f"trusted_base.py: {build}: no CMakeCache.txt naming the source tree",
              file=sys.stderr)
        return 2
    files = trusted_files(build, root)
    if files is None:
        print(f"trusted_base.py: {build}: no dependency files of {', '.join(TARGETS)} "
              "(build tempcert-check first)", file=sys.stderr)
        return 2
    files, mpi = default_build(files)
    if argv[2:] == ["--list"]:
        print("\n".join(files))
        return 0
    total = print_table(root, files)
    if mpi:
        print(f"this build has MPI: {mpi} ({lines(root, mpi)} lines) is compiled in place of "
              f"{RANKS_LOCAL} ({lines(root, RANKS_LOCAL)} lines), which the total counts")
    return check_against_repository(root, files, total) if argv[2:] == ["--check"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
