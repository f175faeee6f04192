"""Mutants of the small checker against its tests (docs/minicheck.md).

usage: mutants.py WORKTREE TEMPCERT TEMPCERT_CHECK [NAME...]

WORKTREE is a separate checkout with a configured build/ (git worktree add
/tmp/mut; cmake -S /tmp/mut -B /tmp/mut/build): each mutant edits one line
of WORKTREE/src/minicheck in place, rebuilds tempcert-minicheck there, runs
minicheck_tamper, minicheck_unit and minicheck_agree (80 models; for the
layerwise and perturbation mutants, marked "lw", agree_layerwise.py, 80
models, and agree_compiled.py) against it, says which of them caught it, and restores the line. Not a ctest entry: a run takes a few
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
 ("rounded-up-below", "claim_checks.cpp", "return c >= hi && c <= lo", "return c >= lo && c <= lo"),
 ("no-words-check", "claims.cpp", "    same(claimed == scan.words,", "    same(true,"),
 ("gap-first-not-least", "claims.cpp", "return !min_gap || gap < *min_gap ||", "return !min_gap || gap <= *min_gap ||"),
 ("tie-any-kind", "claims.cpp", "if (f.takes_tie(w) && m.layers[l].heads[h].kind != Kind::Average &&", "if (f.takes_tie(w) &&"),
 ("walk-last-not-judged", "evaluate.cpp", "    if (std::find(ps.begin(), ps.end(), p) == ps.end()) return j;", "    return j;"),
 ("walk-later-word-first", "claims.cpp", "return verdict && (!refused || word_before(w, *refused));", "return verdict && !refused;"),
 ("memo-distance-ignored", "evaluate.cpp", "            Q d = s[a].lower() - c;", "            Q d = s[a].lower();"),
 ("walk-on-forward-masks", "evaluate.cpp", "            if (head.mask != Mask::Causal && head.mask != Mask::Strict) return false;", ""),
 ("N-off", "claims.cpp", "f.N = std::max(f.N, q->allowed.size());", "f.N = std::max(f.N, q->allowed.size() + 1);"),
 ("beta-first-layer-only", "claims.cpp", "const Expr &e = spec[spec.size() == 1 ? 0 : l];", "const Expr &e = spec[0];"),
 ("softmax-no-normalise", "evaluate.cpp", "    for (auto &x : e)\n        x = x / z;\n", ""),
 ("bos-not-allowed", "forward.hpp", "    for (std::size_t p = m.bos ? 0 : 1; p <= n; ++p)", "    for (std::size_t p = 1; p <= n; ++p)"),
 ("hash-skipped", "claim_checks.cpp", "    same(sha == m.sha256,", "    same(true,"),
 ("categorical-label-loose", "evaluate.cpp", "return ys[i].below(ys[k]);", "return !ys[k].below(ys[i]);"),
 ("output-no-abs", "evaluate.cpp", "Tri one = within(abs(ys[k] - Iv(yh[k], prec)), eps);", "Tri one = within(ys[k] - Iv(yh[k], prec), eps);"),
 ("features-ignored-at-bos", "evaluate.cpp", "        for (const auto &f : m.features) {", "        for (const auto &f : m.features) {\n            if (p == 0) continue;"),
 # layerwise and perturbation certificates
 ("lw-gap-same-position", "value_gap.cpp", "std::make_pair(std::max(lo, 1L), hi)", "std::make_pair(std::max(lo, 0L), hi)", "lw"),
 ("lw-floor-ignored", "value_gap.cpp", "        if (first > last) continue;\n        for (const Run &v", "        first = u.first, last = u.last;\n        for (const Run &v", "lw"),
 ("lw-no-bos-run", "value_gap.cpp", "if (bos && mask_allows(head.mask, static_cast<std::size_t>(i), 0)) single(0, r.free);", "", "lw"),
 ("lw-tie-ignored", "value_sets.cpp", "    if (g.tie) rejected(", "    if (false) rejected(", "lw"),
 ("lw-N-without-bos", "value_sets.cpp", "most = std::max(most, seen + (m.bos && mask_allows(mask, static_cast<std::size_t>(i), 0)));", "most = std::max(most, seen);", "lw"),
 ("lw-empty-output-dropped", "value_sets.cpp", "    if (empty) out.insert(Vec(width, 0));", "", "lw"),
 ("lw-need-ignored", "layerwise.cpp", "            same(b > 0 && b >= floor,", "            same(b > 0,", "lw"),
 ("lw-beta-one-length", "layerwise.cpp", "const std::size_t lengths = e.uses(Expr::Op::N) ? cx.n : 1;", "const std::size_t lengths = 1;", "lw"),
 ("lw-phase-unchecked", "layerwise.cpp", "        if (pre[u] > -R && pre[u] < R)\n", "        if (false)\n", "lw"),
 ("lw-taint-identity-lost", "layerwise.cpp", "            Q jacobian = c == q ? 1 : 0;", "            Q jacobian = 0;", "lw"),
 ("lw-leak-unchecked", "layerwise.cpp", "    check_no_leak(layer, v.tainted, p);", "", "lw"),
 ("lw-bos-causal-span", "layerwise.cpp", "    if (head.mask == Mask::Causal) { // BOS's query sees BOS alone: exact", "    if (head.mask == Mask::Causal && false) {", "lw"),
 ("lw-readout-exact-always", "layerwise.cpp", "        exact = exact && !v.tainted.count(r);", "        exact = exact;", "lw"),
 ("pb-e-no-cross", "perturbation.cpp", "e += a[r] * Km[r] + Qm[r] * b[r] + a[r] * b[r];", "e += a[r] * Km[r] + Qm[r] * b[r];", "lw"),
 ("pb-tanh-dropped", "perturbation.cpp", "        sum = (x - one) / (x + one);", "        sum = Iv(0, prec);", "lw"),
 ("pb-spread-classes-low", "perturbation.cpp", "keys.size() + (B.empty() ? 0 : 1)", "keys.size()", "lw"),
 ("pb-no-value-move", "perturbation.cpp", "        half[c] += moved[c] + tv * ((*hi)[c] - (*lo)[c]);", "        half[c] += tv * ((*hi)[c] - (*lo)[c]);", "lw"),
 ("pb-kink-dropped", "perturbation.cpp", "                out[c] += abs(f.w2[c][k]) * (pre[k] < 0 ? Q(pre[k] + R[k]) : R[k]);", "                out[c] += 0;", "lw"),
 ("pb-range-one-length", "perturbation.cpp", "for (std::size_t len = uses_n ? 1 : n; len <= n && !features.empty(); ++len)", "for (std::size_t len = n; len <= n && !features.empty(); ++len)", "lw"),
 ("cnt-step-ignored", "counts.cpp", "        for (const Q &x : v)\n            z.step = gcd(z.step, x - z.vmin);\n", "", "lw"),
 ("cnt-bos-not-counted", "counts.cpp", "const Q N(static_cast<unsigned long>(i + (bos ? 1 : 0)));", "const Q N(static_cast<unsigned long>(i));", "lw"),
 ("cnt-tie-ignored", "counts.cpp", "                    if (tie && differ)", "                    if (false)", "lw"),
 ("cnt-range-one-end", "counts.cpp", "                    low += std::min(e1, e2);", "                    low += e1;", "lw"),
 ("cnt-readout-unchecked", "layerwise.cpp", "        if (v.counts.count(r))", "        if (false)", "lw"),
 ("pb-margin-no-features", "perturbation.cpp", "            lower(y + lo > 0 ? Q(y + lo) : Q(-(y + hi)));", "            lower(abs(y));", "lw"),
]
only = sys.argv[4:]
for name, f, old, new, *suite in mutants:
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
        agree = "agree_layerwise.py" if suite else "agree.py"
        a = subprocess.run(["python3", f"{root}/tests/minicheck/{agree}", tempcert, check, mini, "80", "1"], capture_output=True, text=True)
        if suite:
            c = subprocess.run(["python3", f"{root}/tests/minicheck/agree_compiled.py", tempcert, check, mini, f"{root}/cases", "30", "200"], capture_output=True, text=True)
            compiled = f", compiled {'CAUGHT' if c.returncode else 'missed'}"
        else:
            compiled = ""
        u = subprocess.run(["make", "-C", f"{root}/build", "minicheck_unit"], capture_output=True)
        if u.returncode:
            print(f"{name}: minicheck_unit does not build"); continue
        u = subprocess.run([f"{root}/build/tests/minicheck_unit"], capture_output=True)
        print(f"{name}: tamper {'CAUGHT' if t.returncode else 'missed'} ({t.stdout.strip().splitlines()[-1]}), "
              f"agree80 {'CAUGHT' if a.returncode else 'missed'} ({a.stdout.strip().splitlines()[-1][-40:]}), "
              f"unit {'CAUGHT' if u.returncode else 'missed'}{compiled}", flush=True)
    finally:
        open(path, "w").write(src)
subprocess.run(["make", "-C", f"{root}/build", "tempcert-minicheck"], capture_output=True)
