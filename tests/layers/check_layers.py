#!/usr/bin/env python3
"""The layers of the code, checked on the sources (README.md, Layout):
kernel, engine, app, then cli and python. A source of a layer includes the
public headers of its own layer and those below, never those above:

  kernel  include/kernel                  (src/numeric ... as CMakeLists.txt lists)
  engine  include/engine + kernel         (src/ outside app, report, cli)
  app     include/app + engine + kernel   (src/app, src/report)

The build enforces the same (the engine's include path has no include/app),
so this test names the offending line where a build would only fail.
Usage: check_layers.py SOURCE_DIR
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"tempcert/([^"]+)"', re.M)


def headers(root, layer):
    d = root / "include" / layer / "tempcert"
    return {p.name for p in d.glob("*.hpp")}


def main():
    root = pathlib.Path(sys.argv[1])
    app = headers(root, "app")
    engine = headers(root, "engine")
    if not app or not engine:
        print(f"check_layers: no headers under {root}/include/app or include/engine")
        return 1
    above_engine = app
    # engine sources: every directory of src but the app's, the report's,
    # the command line's and the checkers' (which have their own tests)
    app_dirs = {"app", "report", "cli", "check", "minicheck"}
    bad = []
    for p in sorted((root / "src").rglob("*")):
        if p.suffix not in (".cpp", ".hpp") or p.relative_to(root / "src").parts[0] in app_dirs:
            continue
        for m in INCLUDE.finditer(p.read_text(errors="replace")):
            if m.group(1) in above_engine:
                line = p.read_text(errors="replace")[: m.start()].count("\n") + 1
                bad.append(f"{p.relative_to(root)}:{line}: includes tempcert/{m.group(1)}, "
                           "an application header (include/app), from the engine")
    for p in sorted((root / "include" / "engine").rglob("*.hpp")):
        for m in INCLUDE.finditer(p.read_text(errors="replace")):
            if m.group(1) in above_engine:
                bad.append(f"{p.relative_to(root)}: includes tempcert/{m.group(1)} (include/app)")
    for line in bad:
        print(line)
    print(f"check_layers: {len(bad)} engine includes of application headers "
          f"({len(app)} application headers)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
