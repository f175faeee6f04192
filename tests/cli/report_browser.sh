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
# Layout in the DOM, measured by the browser itself: a copy of the page
# with a probe script (the report runs none) records every table cell whose
# content overflows it or whose words break across lines, and the stroke
# colour and marker shape of each case's tight line in the overview of a
# report over every bundled case.
"$tc" report --n 2..3 --rel 1e-3 --out "$tmp/all" >"$tmp/out-all" 2>&1 ||
    { echo "FAIL: report of every case exited $?: $(tail -3 "$tmp/out-all")"; exit 1; }
cat >"$tmp/probe.js" <<'JS'
(function () {
  var bad = [];
  document.querySelectorAll("td,th").forEach(function (c) {
    if (c.scrollWidth > c.clientWidth + 1) bad.push("overflows: " + c.textContent.slice(0, 40));
    var w = document.createTreeWalker(c, NodeFilter.SHOW_TEXT), n;
    while ((n = w.nextNode())) {
      var re = /\S+/g, m;
      while ((m = re.exec(n.textContent))) {
        var r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        var tops = {}, lines = 0, rs = r.getClientRects();
        for (var i = 0; i < rs.length; i++) {
          var k = Math.round(rs[i].top);
          if (!(k in tops)) { tops[k] = 1; lines++; }
        }
        if (lines > 1) bad.push("breaks: " + m[0].slice(0, 40));
      }
    }
  });
  var seen = {}, dup = [], cases = 0;
  document.querySelector("svg").querySelectorAll("g.series").forEach(function (g) {
    var lab = g.getAttribute("data-label");
    if (!/: tight$/.test(lab)) return;
    cases++;
    var key = g.querySelector("polyline").getAttribute("stroke");
    if (key in seen) dup.push(lab + " shares its colour with " + seen[key]);
    seen[key] = lab;
  });
  var o = document.createElement("pre");
  o.id = "probe";
  o.textContent = JSON.stringify({bad: bad, dup: dup, cases: cases});
  document.body.appendChild(o);
})();
JS
for page in r all; do
    /usr/bin/python3 - "$tmp/$page/report.html" "$tmp/probe.js" "$tmp/$page/probe.html" <<'PY'
import sys
page, js, out = sys.argv[1:4]
text = open(page).read()
open(out, "w").write(text.replace("</body>", "<script>" + open(js).read() + "</script></body>"))
PY
    timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$tmp/$page/probe.html" \
        >"$tmp/$page/probe-dom.html" 2>>"$tmp/err" || { echo "FAIL: chromium --dump-dom (probe): $(tail -3 "$tmp/err")"; exit 1; }
done
/usr/bin/python3 - "$tmp/r/probe-dom.html" "$tmp/all/probe-dom.html" <<'PY' || exit 1
import html, json, re, sys
bad = []
for path in sys.argv[1:]:
    m = re.search(r'<pre id="probe">(.*?)</pre>', open(path).read(), re.S)
    if not m:
        print(f"FAIL: {path}: the probe left no result")
        sys.exit(1)
    r = json.loads(html.unescape(m.group(1)))
    bad += [f"{path}: {b}" for b in r["bad"] + r["dup"]]
    print(f"layout probe {path.split('/')[-2]}: {r['cases']} cases in the overview, "
          f"{len(r['bad'])} cells overflowing or breaking a word, {len(r['dup'])} shared colours")
for b in bad[:20]:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
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
