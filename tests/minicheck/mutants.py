"""Mutants of the small checker against its tests (docs/minicheck.md).

usage: mutants.py WORKTREE TEMPCERT TEMPCERT_CHECK [NAME...]

WORKTREE is a separate checkout with a configured build/ (git worktree add
/tmp/mut; cmake -S /tmp/mut -B /tmp/mut/build): each mutant edits one line
of WORKTREE/src/minicheck in place, rebuilds tempcert-minicheck there, runs
minicheck_tamper, minicheck_agree (80 models) and minicheck_unit against it,
says which of them caught it, and restores the line. Not a ctest entry: a run takes a few
minutes and rewrites WORKTREE's sources while it runs."""
import subprocess, sys
root = sys.argv[1]
tempcert, check = sys.argv[2], sys.argv[3]
mutants = [
 ("tv-no-half", "evaluate.cpp", "slot[i] = Q(1, 2) * twice;", "slot[i] = twice;"),
 ("tv-uniform-always", "evaluate.cpp", "q.compare[a] = kind == Kind::Average || q.shares_value ? share : weights[a];", "q.compare[a] = share;"),
 ("tv-point-always", "evaluate.cpp", "q.compare[a] = kind == Kind::Average || q.shares_value ? share : weights[a];", "q.compare[a] = kind == Kind::Average ? share : weights[a];"),
 ("within-accepts-unknown", "evaluate.cpp", "    if (value.at_most(eps)) return Tri::True;\n    return value.above(eps) ? Tri::False : Tri::Unknown;", "    return value.above(eps) ? Tri::False : Tri::True;"),
 ("decision-undecided-rejects", "evaluate.cpp", "        if (!soft_accepts && !soft_rejects) return Tri::Unknown;\n", ""),
 ("runner-up-last", "evaluate.cpp", "else if (!second || s[*second] < s[a])", "else if (!second || s[*second] <= s[a])"),
 ("rightmost-front", "evaluate.cpp", "(kind == Kind::Rightmost && allowed[a] == q.argmax.back())", "(kind == Kind::Rightmost && allowed[a] == q.argmax.front())"),
 ("strict-future-wide", "model.cpp", "        return key > query;", "        return key >= query;"),
 ("ffn-affine-no-bias", "evaluate.cpp", "            offset += f.w2[c][k] * f.b1[k];\n", ""),
 ("ffn-phase-sloppy", "evaluate.cpp", "        stable = stable && (active.back() || acc.at_most(0));", "        stable = true;"),
 ("relu-exact-wrong", "evaluate.cpp", "            v[k] = std::max(Q(0), Q(v[k] + b[k]));", "            v[k] = std::max(Q(0), Q(v[k]));"),
 ("rounded-up-below", "claims.cpp", "return c >= hi && c <= lo", "return c >= lo && c <= lo"),
 ("no-words-check", "claims.cpp", "    same(claimed == words,", "    same(true,"),
 ("gap-first-not-least", "claims.cpp", "if (q->gap && (!f.min_gap || *q->gap < *f.min_gap))", "if (q->gap && (!f.min_gap || *q->gap <= *f.min_gap))"),
 ("tie-any-kind", "claims.cpp", "if (!f.tie && m.layers[l].heads[h].kind != Kind::Average && q->argmax.size() > 1 &&", "if (!f.tie && q->argmax.size() > 1 &&"),
 ("N-off", "claims.cpp", "f.N = std::max(f.N, q->allowed.size());", "f.N = std::max(f.N, q->allowed.size() + 1);"),
 ("beta-first-layer-only", "claims.cpp", "const Expr &e = spec[spec.size() == 1 ? 0 : l];", "const Expr &e = spec[0];"),
 ("softmax-no-normalise", "evaluate.cpp", "    for (auto &x : e)\n        x = x / z;\n", ""),
 ("bos-not-allowed", "forward.hpp", "    for (std::size_t p = m.bos ? 0 : 1; p <= n; ++p)", "    for (std::size_t p = 1; p <= n; ++p)"),
 ("hash-skipped", "claims.cpp", "    same(sha == m.sha256,", "    same(true,"),
 ("categorical-label-loose", "evaluate.cpp", "return ys[i].below(ys[k]);", "return !ys[k].below(ys[i]);"),
 ("output-no-abs", "evaluate.cpp", "Tri one = within(abs(ys[k] - Iv(yh[k], prec)), eps);", "Tri one = within(ys[k] - Iv(yh[k], prec), eps);"),
 ("features-ignored-at-bos", "evaluate.cpp", "        for (const auto &f : m.features) {", "        for (const auto &f : m.features) {\n            if (p == 0) continue;"),
]
only = sys.argv[4:]
for name, f, old, new in mutants:
    if only and name not in only: continue
    path = f"{root}/src/minicheck/{f}"
    src = open(path).read()
    if src.count(old) != 1:
        print(f"{name}: pattern found {src.count(old)} times"); continue
    open(path, "w").write(src.replace(old, new))
    try:
        b = subprocess.run(["make", "-C", f"{root}/build", "tempcert-minicheck"], capture_output=True, text=True)
        if b.returncode:
            print(f"{name}: build failed"); continue
        mini = f"{root}/build/tempcert-minicheck"
        t = subprocess.run(["bash", f"{root}/tests/minicheck/tamper.sh", tempcert, mini, f"{root}/cases"], capture_output=True, text=True)
        a = subprocess.run(["python3", f"{root}/tests/minicheck/agree.py", tempcert, check, mini, "80", "1"], capture_output=True, text=True)
        u = subprocess.run(["make", "-C", f"{root}/build", "minicheck_unit"], capture_output=True)
        if u.returncode:
            print(f"{name}: minicheck_unit does not build"); continue
        u = subprocess.run([f"{root}/build/tests/minicheck_unit"], capture_output=True)
        print(f"{name}: tamper {'CAUGHT' if t.returncode else 'missed'} ({t.stdout.strip().splitlines()[-1]}), "
              f"agree80 {'CAUGHT' if a.returncode else 'missed'} ({a.stdout.strip().splitlines()[-1][-40:]}), "
              f"unit {'CAUGHT' if u.returncode else 'missed'}", flush=True)
    finally:
        open(path, "w").write(src)
subprocess.run(["make", "-C", f"{root}/build", "tempcert-minicheck"], capture_output=True)
