#!/usr/bin/env bash
# No user file is deleted or replaced behind the user's back
# (docs/reliability.md, Files and directories written): report directories carry a marker and a rewrite touches only
# tempcert's files; -o into a descriptor writes into it; -o - gives standard
# output to the results; outputs of one command are committed together; a
# replaced file keeps its mode. Every check here failed before the fix.
set -u
tc=$1
check=$2
cases=$3
hasb="$cases/models/has-b.json"
other="$cases/models/first-is-a-bounded.json"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# wants CODE PATTERN -- ARGS: exit code and a pattern in stderr+stdout
wants() {
    local want=$1 pattern=$2
    shift 3
    local out code
    out=$("$tc" "$@" 2>&1)
    code=$?
    [ "$code" = "$want" ] && printf '%s' "$out" | grep -Eq -- "$pattern" ||
        bad "tempcert $* -> exit $code (want $want), /$pattern/: $(printf '%s' "$out" | head -3)"
}

# a directory that is not a report is refused, nothing in it touched
mkdir -p exp/sub
echo '{}' >exp/results.json
echo log >exp/train.log
wants 2 'exp: is not empty and not a directory tempcert wrote .*tempcert-directory.json' -- \
    report has-b --n 2..3 --out exp
[ -f exp/train.log ] && [ -d exp/sub ] && [ "$(cat exp/results.json)" = '{}' ] ||
    bad "report --out exp changed exp/: $(ls exp)"

# a new report carries the marker: format, tool, the files it wrote
wants 0 'report: 2 rows' -- report has-b --n 2..3 --out rep
# a directory with its search bits: its owner can enter and write it (it
# was made 0644 once, which only root could use)
mode=$(stat -c %a rep)
[ $((8#$mode & 8#700)) = $((8#700)) ] || bad "the report directory has mode $mode"
python3 - rep/tempcert-directory.json <<'PY' || bad "the marker is not as documented"
import json, os, shutil, sys
m = json.load(open(sys.argv[1]))
assert m["format"] == "tempcert report directory 1", m
assert m["tool"].startswith("tempcert "), m
want = sorted(f for f in os.listdir("rep") if f != "tempcert-directory.json")
documented = ["overview.svg", "plot-has-b.svg", "report.html", "report.md", "report.tex",
              "results.csv", "results.json"]
if shutil.which("rsvg-convert"):  # the plots as PDF too
    documented += ["overview.pdf", "plot-has-b.pdf"]
assert m["files"] == want == sorted(documented), (m["files"], want)
PY

# a rewrite keeps the user's files and modes and removes only stale outputs
echo mine >rep/notes.txt
mkdir rep/drafts
echo d >rep/drafts/d.txt
chmod 600 rep/report.md
inode=$(stat -c %i rep)
wants 0 'report: 2 rows' -- report first-is-a-bounded --n 2..3 --out rep
[ "$(cat rep/notes.txt)" = mine ] && [ -f rep/drafts/d.txt ] || bad "the rewrite lost user files"
[ "$(stat -c %a rep/report.md)" = 600 ] || bad "report.md lost its mode 600"
[ "$(stat -c %i rep)" = "$inode" ] || bad "the rewrite replaced the directory itself"
[ ! -e rep/plot-has-b.svg ] && [ -f rep/plot-first-is-a-bounded.svg ] ||
    bad "stale plot kept or new plot missing: $(ls rep)"
grep -q first-is-a-bounded rep/report.md || bad "report.md not rewritten"

# inputs inside the output directory, the current directory, an empty name
cp "$hasb" rep/mymodel.json
wants 2 'rep: contains .*rep/mymodel.json, an input of this command' -- \
    report rep/mymodel.json --n 2..3 --out rep
[ -f rep/mymodel.json ] || bad "the input was removed"
(cd rep && "$tc" report has-b --n 2..3 --out . >../dot.out 2>&1)
[ $? -eq 2 ] && grep -q 'is the current directory or contains it' dot.out ||
    bad "report --out . was not refused: $(cat dot.out)"
[ -f rep/notes.txt ] && [ -f rep/report.md ] || bad "report --out . touched rep/"
wants 2 'expected a directory name' -- report has-b --n 2..3 --out ''
# a marker tempcert did not write, a user file where an output goes
mkdir fake
echo '{"format": "something else", "files": ["x"]}' >fake/tempcert-directory.json
echo x >fake/x
wants 2 'fake: holds tempcert-directory.json that tempcert did not write' -- \
    report has-b --n 2..3 --out fake
mkdir taken
echo '{"format": "tempcert report directory 1", "files": []}' >taken/tempcert-directory.json
echo user >taken/report.md
wants 2 'holds report.md, which tempcert did not write' -- report has-b --n 2..3 --out taken
[ "$(cat taken/report.md)" = user ] || bad "the user's report.md was replaced"

# concurrent reports into one new directory: all succeed, one wins whole
for i in 1 2 3 4 5; do
    "$tc" report has-b --n 2..3 --out conc >/dev/null 2>"conc$i.err" &
done
codes=""
for job in $(jobs -p); do
    wait "$job"
    codes="$codes $?"
done
[ "$codes" = " 0 0 0 0 0" ] || bad "concurrent reports exited$codes: $(cat conc*.err)"
[ -f conc/tempcert-directory.json ] && [ "$(ls -a | grep -c '\.tmp-')" = 0 ] ||
    bad "concurrent reports left $(ls -a)"

# -o /dev/stdout appends to a redirected file and pipes; -o - pipes into check
echo "earlier line" >log.txt
"$tc" certify "$hasb" --n 3 --eps 1/100 --beta 20 -o /dev/stdout >>log.txt 2>summary.txt
[ "$(head -1 log.txt)" = "earlier line" ] && tail -n +2 log.txt | python3 -c 'import json,sys; json.load(sys.stdin)' ||
    bad "-o /dev/stdout >> log.txt: $(head -3 log.txt)"
grep -q 'verdict: certified' summary.txt || bad "-o /dev/stdout: the summary is not on stderr"
"$tc" certify "$hasb" --n 3 --eps 1/100 --beta 20 -o /dev/stdout 2>/dev/null |
    python3 -c 'import json,sys; assert json.load(sys.stdin)["format"] == "tempcert-certificate/1"' ||
    bad "-o /dev/stdout into a pipe"
out=$("$tc" certify "$hasb" --n 3 --eps 1/100 --beta 20 -o - 2>/dev/null | "$check" /dev/stdin --model "$hasb")
[ $? -eq 0 ] && printf '%s' "$out" | grep -q 'VERIFIED' || bad "certify -o - | tempcert-check: $out"
wants 2 'is named for two outputs' -- compile 'F a' --alphabet a,b -o - --mona /dev/stdout

# all outputs of one command, or none; a replaced file keeps its mode
if [ -w /dev/full ]; then
    wants 2 '/dev/full: cannot write the output' -- compile 'F a' --alphabet a,b -o m.json --mona /dev/full
    [ ! -e m.json ] || bad "compile left m.json after --mona /dev/full failed"
    echo old >m.json
    wants 2 '/dev/full' -- compile 'F a' --alphabet a,b -o m.json --mona /dev/full
    [ "$(cat m.json)" = old ] || bad "compile replaced m.json although --mona failed"
fi
echo x >c.json
chmod 600 c.json
wants 0 'certificate written to c.json' -- certify "$hasb" --n 3 --eps 1/100 --beta 20 -o c.json
[ "$(stat -c %a c.json)" = 600 ] || bad "-o c.json changed mode 600 to $(stat -c %a c.json)"
# -o FIFO with no reader: waits within --time-limit and Ctrl-C (a
# blocking open() ignored both), and writes once a reader comes
mkfifo fifo
timeout 20 "$tc" compile 'F a' --alphabet a,b -o fifo --time-limit 1 >fifo.out 2>&1
code=$?
[ $code = 3 ] && grep -q -- '--time-limit' fifo.out || bad "-o FIFO without a reader: exit $code: $(cat fifo.out)"
# (timeout passes the SIGINT on, and kills the command if it hangs)
timeout -s KILL 10 "$tc" certify "$hasb" --n 3 --eps 1/100 --beta 20 -o fifo >/dev/null 2>&1 &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid
code=$?
[ $code = 130 ] || bad "-o FIFO without a reader, Ctrl-C: exit $code, want 130"
cat fifo >from-fifo &
"$tc" compile 'F a' --alphabet a,b -o fifo >/dev/null 2>&1 || bad "-o FIFO with a reader failed"
wait
grep -q tempcert-model from-fifo || bad "the FIFO's reader got no model"
[ "$fail" = 0 ] && echo "outputs: all checks passed"
exit $fail
