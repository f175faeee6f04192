#!/usr/bin/env python3
"""The checkers' trusted bases, from the build's own dependency files.

Every project file the compiler read to build the fast (large) checker's
objects (the targets tempcert_kernel, tempcert_check,
tempcert_check_layerwise and tempcert-fastcheck): the sources and
every header they include, as GCC and clang wrote them into the .o.d files.
Third-party and system headers (GMP, MPFR, MPFI, Boost, nlohmann/json,
OpenSSL, MPI) are outside the count, as proofs/certificate.md says.

    tools/trusted_base.py BUILD            the table and the total, and the
        part an exhaustive certificate's check needs (all but the target
        tempcert_check_layerwise)
    tools/trusted_base.py BUILD --list     the files, one per line (what
        tests/trusted_base.expected holds)
    tools/trusted_base.py BUILD --check    also compare with the source
        tree's tests/trusted_base.expected (the file list, exactly) and with
        the two totals that its proofs/certificate.md states (within 3 %),
        and check with nm that the rest of the checker calls no function of
        tempcert_check_layerwise but verify_layerwise and
        verify_perturbation; exit 1 if anything differs, 2 if BUILD has no
        dependency files

The small checker, tempcert-check (docs/minicheck.md; also built as
tempcert-minicheck), the one that says VERIFIED, is counted apart
from its own dependency files, and its count printed on the total line:
--check also fails if it is built from any project file outside
src/minicheck/, if its count differs from the one proofs/certificate.md
states, or if it is above 5,000 lines.

The source tree is the one BUILD was configured from (its CMakeCache.txt).

Lines are counted as `wc -l` counts them, comments included.

The count is that of the default build, without MPI. A build with
-DTEMPCERT_MPI=ON compiles src/check/tasks/mpi.cpp in place of
tasks/local.cpp and links src/distributed (the target
tempcert_distributed); the script then counts tasks/local.cpp as the
default build would, and prints apart the files the MPI build adds (what a
reader running tempcert-fastcheck under mpirun trusts in addition).
"""
import os
import re
import subprocess
import sys

TARGETS = ("tempcert_kernel", "tempcert_check", "tempcert-fastcheck", "tempcert_check_layerwise")
# The layerwise and perturbation arguments: a reader of an exhaustive
# certificate need not trust them, since the rest enters them only through
# these functions (checked with nm: layerwise_wall).
LAYERWISE_TARGET = "tempcert_check_layerwise"
LAYERWISE_ENTRIES = ("tempcert::check::verify_layerwise(", "tempcert::check::verify_perturbation(")
# "The script counts N lines in M files" in proofs/certificate.md, and "an
# exhaustive certificate's reader trusts N lines in M files"
STATED = re.compile(r"tools/trusted_base\.py` counts \*\*([0-9,]+) lines\*\* in ([0-9]+) files")
STATED_EXHAUSTIVE = re.compile(
    r"an exhaustive certificate's reader trusts \*\*([0-9,]+) lines\*\* in ([0-9]+) files")
SLACK = 0.03
# The small checker's ceiling (the checker issue: a trusted base a reviewer
# can read): --check fails above it, whatever proofs/certificate.md states.
MINI_CAP = 5000
# The small checker (docs/minicheck.md): its own sources only, none of the
# rest of the project, stated in proofs/certificate.md as "the small
# checker's reader trusts N lines in M files".
MINI_TARGETS = ("tempcert_minicheck", "tempcert-check", "tempcert-minicheck")
MINI_DIR = os.path.join("src", "minicheck") + os.sep
STATED_MINI = re.compile(
    r"the small checker's reader trusts \*\*([0-9,]+) lines\*\* in ([0-9]+) files")
# The two implementations of src/check/check_tasks.hpp (one per build), and
# what only the MPI build's checker links.
TASKS_LOCAL = os.path.join("src", "check", "tasks", "local.cpp")
TASKS_MPI = os.path.join("src", "check", "tasks", "mpi.cpp")
MPI_TARGETS = ("tempcert_distributed",)


def depfiles(build, targets=TARGETS):
    for target in targets:
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


def object_files(build, root, targets=TARGETS):
    """Per object of the targets, the project files it was built from
    (None when there are no dependency files)."""
    objects = []
    for d in (d for target in targets for d in depfiles(build, (target,))):
        files = set()
        for dep in dependencies(d):
            full = os.path.realpath(os.path.join(build, dep))
            rel = os.path.relpath(full, root)
            if rel.startswith(("src" + os.sep, "include" + os.sep)):
                files.add(rel)
        objects.append(files)
    return objects if objects else None


def default_build(build, root, objects):
    """The files as the default build (without MPI) has them, and the files
    the MPI build adds when this is one (else None)."""
    if not any(TASKS_MPI in o for o in objects):
        return sorted(set().union(*objects)), None
    for o in objects:
        shared = sorted(f for f in o if TASKS_MPI in o and f.endswith(".cpp") and f != TASKS_MPI)
        if shared:
            sys.exit(f"trusted_base.py: {TASKS_MPI} shares an object with {', '.join(shared)}; "
                     "the MPI build's addition is told by its object (CMakeLists.txt builds "
                     "it alone, SKIP_UNITY_BUILD_INCLUSION)")
    files = set().union(*(o for o in objects if TASKS_MPI not in o)) | {TASKS_LOCAL}
    extra = set().union(*(o for o in objects if TASKS_MPI in o))
    extra |= set().union(*(object_files(build, root, MPI_TARGETS) or []))
    return sorted(files), sorted(extra - files)


def layerwise_wall(build):
    """The functions of the layerwise library that the rest of the checker
    calls, by nm on the two archives: exactly LAYERWISE_ENTRIES, or a list
    of what else (None when the archives are not there)."""
    def symbols(archive, flag):
        path = os.path.join(build, archive)
        if not os.path.exists(path):
            return None
        out = subprocess.run(["nm", "-C", flag, path], capture_output=True, text=True, check=True)
        found = set()
        for row in out.stdout.splitlines():
            parts = row.split(None, 2) if flag == "--defined-only" else row.split(None, 1)
            # strong definitions: an inline function or template a header
            # holds is compiled into each object that uses it (weak), and
            # that header is counted with the object that includes it
            if len(parts) >= 2 and parts[-2] in ("T", "U"):
                found.add(parts[-1])
        return found
    defined = symbols("lib" + LAYERWISE_TARGET + ".a", "--defined-only")
    used = symbols("libtempcert_check.a", "--undefined-only")
    if defined is None or used is None:
        return None
    return sorted(defined & used)


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


def print_table(root, files, mini=None):
    """The table by part; returns the total. The total line also names the
    small checker's count (`mini`: its lines and files)."""
    per_part = {}
    for rel in files:
        n, k = per_part.get(part(rel), (0, 0))
        per_part[part(rel)] = (n + lines(root, rel), k + 1)
    total = sum(n for n, _ in per_part.values())
    print(f"{'part':<20} {'files':>5} {'lines':>7}")
    for name in sorted(per_part):
        n, k = per_part[name]
        print(f"{name:<20} {k:>5} {n:>7}")
    small = f"   (the small checker: {mini[0]} lines in {mini[1]} files)" if mini else ""
    print(f"{'total':<20} {len(files):>5} {total:>7}{small}")
    return total


def compare_stated(doc, text, pattern, what, total, count):
    """Whether doc states `what` as the build gives it (within SLACK),
    printing what differs."""
    m = pattern.search(text)
    if not m:
        print(f"FAIL: {doc} states no count of {what} ({pattern.pattern})")
        return False
    stated, stated_files = int(m.group(1).replace(",", "")), int(m.group(2))
    if abs(total - stated) > SLACK * stated or stated_files != count:
        print(f"FAIL: {doc} states {stated} lines in {stated_files} files for {what}; "
              f"the build's dependency files give {total} in {count}")
        return False
    print(f"{what}: {total} lines in {count} files, as {doc} states "
          f"({stated}, within {SLACK:.0%})")
    return True


def check_against_repository(root, build, files, total, exhaustive):
    """Exit status of --check: the file list, the stated totals and the
    layerwise library's entries."""
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
    text = open(doc, encoding="utf-8").read().replace("\n", " ")
    if not compare_stated(doc, text, STATED, "the trusted base", total, len(files)):
        failed = True
    exhaustive_total = sum(lines(root, rel) for rel in exhaustive)
    if not compare_stated(doc, text, STATED_EXHAUSTIVE, "an exhaustive certificate's base",
                          exhaustive_total, len(exhaustive)):
        failed = True
    entries = layerwise_wall(build)
    if entries is None:
        failed = True
        print(f"FAIL: {build}: no libtempcert_check.a and lib{LAYERWISE_TARGET}.a to compare")
    elif len(entries) != len(LAYERWISE_ENTRIES) or not all(
            any(e.startswith(want) for e in entries) for want in LAYERWISE_ENTRIES):
        failed = True
        print(f"FAIL: the checker calls into {LAYERWISE_TARGET} through "
              f"{', '.join(e.split('(')[0] for e in entries)}; expected only "
              f"{', '.join(w.rstrip('(') for w in LAYERWISE_ENTRIES)}")
    else:
        print(f"the rest of the checker enters {LAYERWISE_TARGET} only through "
              f"{', '.join(w.rstrip('(') for w in LAYERWISE_ENTRIES)}")
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
    # each target's dependency files read once: the whole checker's objects,
    # and those outside the layerwise library (an exhaustive certificate's)
    by_target = {t: object_files(build, root, (t,)) or [] for t in TARGETS}
    objects = [o for t in TARGETS for o in by_target[t]]
    if not objects:
        print(f"trusted_base.py: {build}: no dependency files of {', '.join(TARGETS)} "
              "(build tempcert-fastcheck first)", file=sys.stderr)
        return 2
    files, mpi = default_build(build, root, objects)
    if argv[2:] == ["--list"]:
        print("\n".join(files))
        return 0
    core = [o for t in TARGETS if t != LAYERWISE_TARGET for o in by_target[t]]
    exhaustive, _ = default_build(build, root, core)
    mini = sorted(set().union(*(object_files(build, root, MINI_TARGETS) or [set()])))
    mini_lines = sum(lines(root, rel) for rel in mini)
    total = print_table(root, files, (mini_lines, len(mini)) if mini else None)
    left = sorted(set(files) - set(exhaustive))
    print(f"an exhaustive certificate's reader trusts {sum(lines(root, rel) for rel in exhaustive)} "
          f"lines in {len(exhaustive)} files: all but the layerwise and perturbation arguments "
          f"({sum(lines(root, rel) for rel in left)} lines: {', '.join(left)})")
    if mpi:
        print(f"this build has MPI: under mpirun tempcert-fastcheck also runs "
              f"{sum(lines(root, rel) for rel in mpi)} lines in {len(mpi)} files, "
              f"{', '.join(mpi)}; {TASKS_MPI} is compiled in place of {TASKS_LOCAL} "
              f"({lines(root, TASKS_LOCAL)} lines), which the total counts")
    if mini:
        print(f"the small checker (tempcert-check, the one that says VERIFIED: exhaustive, layerwise, perturbation and every-n certificates of rational models) "
              f"trusts {sum(lines(root, rel) for rel in mini)} lines in {len(mini)} files")
    if argv[2:] != ["--check"]:
        return 0
    status = check_against_repository(root, build, files, total, exhaustive)
    return max(status, check_small_checker(root, mini))


def check_small_checker(root, mini):
    """Exit status of --check for the small checker: built, made of
    src/minicheck alone, and counted as proofs/certificate.md states."""
    if not mini:
        print(f"FAIL: no dependency files of {', '.join(MINI_TARGETS)} (build them first)")
        return 1
    outside = [rel for rel in mini if not rel.startswith(MINI_DIR)]
    for rel in outside:
        print(f"FAIL: the small checker is built from {rel}, outside {MINI_DIR}")
    doc = os.path.join(root, "proofs", "certificate.md")
    text = open(doc, encoding="utf-8").read().replace("\n", " ")
    count = sum(lines(root, rel) for rel in mini)
    stated = compare_stated(doc, text, STATED_MINI, "the small checker", count, len(mini))
    over = count > MINI_CAP
    if over:
        print(f"FAIL: the small checker is {count} lines, above its ceiling of {MINI_CAP}")
    else:
        print(f"the small checker: {count} lines, within its ceiling of {MINI_CAP}")
    return 1 if outside or not stated or over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
