# Sourced by the command-line tests whose lower ends are words (every_n.sh,
# literature.sh, programs.sh); they set tc, py and bad() first.
#
# refutes_under_eval LABEL MODEL BETA WORD: `eval --summary` of WORD at
# BETA shows a largest TV above eps = 1/100; otherwise bad() with LABEL
# and eval's last lines.
refutes_under_eval() {
    local out
    out=$("$tc" eval "$2" --input "$4" --beta "$3" --summary 2>&1)
    printf '%s' "$out" | "$py" -c '
import re, sys
from fractions import Fraction as F
m = re.search(r"largest TV \[([0-9.e-]+), ", sys.stdin.read())
sys.exit(0 if m and F(m.group(1)) > F(1, 100) else 1)' ||
        bad "$1: the lower end's word does not refute under eval at beta_lo: $(printf '%s' "$out" | tail -2)"
}
