#!/usr/bin/env bash
# report.html in a real browser (proofs/tight-bracket.md): headless chromium loads the
# report from disk, dumps the DOM it built and takes a screenshot. The DOM
# must hold every case's table with its rows and every plot with its
# series; each case plot its tight band, drawn; the overview's "any beta
# works" markers (earlier-b-strict at n = 2 has no gap); at most 10
# labelled ticks per axis; the page must load nothing from elsewhere and
# run no script; the screenshot must show a drawn page. Exits 77 (ctest: skipped) when no
# chromium is installed, saying so.
set -u
tc="$1"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "SKIP: chromium is not installed (scripts/setup installs Debian's chromium)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$tc" report has-b has-ab-two-layer prev-a-earlier-b earlier-b-strict --n 2..4,24,128 --rel 1e-4 --out "$tmp/r" \
    >"$tmp/out" 2>&1 || { echo "FAIL: report exited $?: $(cat "$tmp/out")"; exit 1; }
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
       --user-data-dir="$tmp/profile" --window-size=1100,2600)
timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$tmp/r/report.html" \
    >"$tmp/dom.html" 2>"$tmp/err" || { echo "FAIL: chromium --dump-dom: $(tail -3 "$tmp/err")"; exit 1; }
timeout 120 "$browser" "${flags[@]}" --screenshot="$tmp/shot.png" "file://$tmp/r/report.html" \
    >/dev/null 2>>"$tmp/err" || { echo "FAIL: chromium --screenshot: $(tail -3 "$tmp/err")"; exit 1; }
/usr/bin/python3 - "$tmp/dom.html" "$tmp/shot.png" "$tmp/r/results.json" <<'PY'
import json, re, sys
from html.parser import HTMLParser
dom_path, shot, results = sys.argv[1:4]
dom = open(dom_path).read()
rows = json.load(open(results))["rows"]
bad = []

class Walk(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables, self.svgs, self.series, self.loads, self.scripts = {}, 0, [], [], 0
        self.table = None
        self.bands, self.any_beta, self.ticks, self.anchor = 0, 0, [], None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("class") == "rows":
            self.table = a["data-case"]
            self.tables[self.table] = 0
        elif tag == "tr" and self.table is not None:
            self.tables[self.table] += 1
        elif tag == "svg":
            self.svgs += 1
            self.ticks.append({"x": 0, "y": 0})
        elif tag == "g" and a.get("class") in ("series", "series any-beta"):
            self.series.append(a.get("data-label"))
            self.any_beta += a.get("class") == "series any-beta"
        elif tag == "polygon" and a.get("class") == "band":
            self.bands += 1
        elif tag == "text":
            self.anchor = a.get("text-anchor")
        elif tag == "script":
            self.scripts += 1
        for k in ("src", "href"):
            if k in a and re.match(r"[a-z]+://", a[k] or "") and not a[k].startswith("file://"):
                self.loads.append(a[k])
        if tag in ("img", "link", "iframe", "object", "embed"):
            self.loads.append(f"<{tag}>")
    def handle_data(self, data):
        # a tick label: a number, right-aligned on the y axis, centred on x
        if self.anchor and re.fullmatch(r"[0-9.e+-]+", data.strip()):
            self.ticks[-1]["y" if self.anchor == "end" else "x"] += 1
        self.anchor = None
    def handle_endtag(self, tag):
        if tag == "table":
            self.table = None

w = Walk()
w.feed(dom)
for case in ("has-b", "has-ab-two-layer", "prev-a-earlier-b", "earlier-b-strict"):
    want = sum(1 for r in rows if r["case"] == case)
    got = w.tables.get(case, -1) - 1  # the header row
    if got != want:
        bad.append(f"table of {case}: {got} rows in the DOM, {want} in results.json")
if w.svgs != 5:
    bad.append(f"{w.svgs} inline SVG plots, want 5 (overview and four cases)")
if w.bands < 4:
    bad.append(f"{w.bands} tight bands drawn, want one in each case plot")
if w.any_beta < 2:
    bad.append(f"{w.any_beta} 'any beta works' marker groups, want the overview's and earlier-b-strict's")
for k, t in enumerate(w.ticks):
    if not (2 <= t["x"] <= 10 and 2 <= t["y"] <= 10):
        bad.append(f"plot {k}: {t['x']} x and {t['y']} y tick labels, want 2..10 each")
if "has-b: tight" not in w.series or "tight beta: certified above, refuted below" not in w.series:
    bad.append(f"plot series missing: {w.series}")
if w.scripts or w.loads:
    bad.append(f"the page runs scripts ({w.scripts}) or loads {w.loads}")
# the symbolic rows at n = 128 have a tight bracket in the table
if not re.search(r"<td class=\"num\">128</td><td>symbolic</td>.*?\[2\.297\d*, 2\.2975\d*\]", dom):
    bad.append("has-b at n = 128: no symbolic tight bracket in the table")
# the screenshot: a PNG of the page size with a drawn page (many colours)
png = open(shot, "rb").read()
if png[:8] != b"\x89PNG\r\n\x1a\n":
    bad.append("the screenshot is not a PNG")
else:
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    if (width, height) != (1100, 2600):
        bad.append(f"screenshot {width}x{height}")
    try:
        from PIL import Image
        colours = Image.open(shot).convert("RGB").getcolors(1 << 20)
        if colours is None or len(colours) < 50:
            bad.append(f"the screenshot looks blank ({0 if colours is None else len(colours)} colours)")
    except ImportError:
        if len(png) < 20000:
            bad.append(f"the screenshot is {len(png)} bytes: blank?")
for b in bad:
    print("FAIL:", b)
print(f"report.html in chromium: {len(w.tables)} tables, {w.svgs} plots, {len(w.series)} series, "
      f"{len(bad)} failure(s)")
sys.exit(1 if bad else 0)
PY
