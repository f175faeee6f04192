"""The commands, as functions. Each runs the same C++ command the tempcert
executable runs (in this process, on a worker thread, without the GIL) and
returns a typed result built from its JSON output."""

import json
import os
import tempfile
from fractions import Fraction

from . import _core
from ._errors import BadInput, InternalError, LimitReached, Undecided
from ._model import Model, model_from_scratch_file
from ._numbers import exact, text
from . import _results as R

_CODE = _core.exit_codes  # the command line's exit codes (include/kernel/tempcert/error.hpp)

# Limits and precision options every command accepts, by keyword:
# max_words=10**8 becomes --max-words 100000000.
_COMMON = {"threads", "time_limit", "prec_cap", "max_width", "max_layers", "max_heads",
           "max_alphabet", "max_number_chars", "max_entries", "max_file_bytes", "max_n",
           "max_words", "max_queries", "max_values"}


def _options(options):
    args = []
    for key, value in options.items():
        if key not in _COMMON:
            raise TypeError(f"unexpected keyword argument {key!r} (limits: {', '.join(sorted(_COMMON))})")
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float, Fraction, str)):
            raise BadInput(f"{key}: expected a number, got {value!r}")
        args.append(f"--{key.replace('_', '-')}={value}")
    return args


def _int(value, name):
    """A whole number option; anything else (a float such as 5.7, a bool, a
    string) is refused rather than truncated."""
    import numbers
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise BadInput(f"{name}: expected an integer, got {value!r}")
    return int(value)


def _number(value, name):
    """An exact number option: Fraction, int, exact string ("1/100", "1e-2"),
    or a float taken as the binary rational it stores."""
    if isinstance(value, str):
        return value
    try:
        return text(exact(value))
    except (TypeError, ValueError) as e:
        raise BadInput(f"{name}: {e}") from None


def _beta(beta):
    """beta: a number (exact as above), an expression in n ("log(n)"),
    "native", or a sequence with one per layer."""
    if isinstance(beta, (list, tuple)):
        return ",".join(_number(b, "beta") for b in beta)
    return _number(beta, "beta")


def _model_file(model):
    if isinstance(model, Model):
        return os.path.abspath(model.file())
    if isinstance(model, (str, os.PathLike)):
        return os.path.abspath(os.fspath(model))
    raise TypeError(f"expected a Model or a path, got {type(model).__name__}")


def _word(word):
    """A word as the command line takes it: "abba", or symbols joined by
    commas (a list such as ["a", "b"] is joined so)."""
    if isinstance(word, (list, tuple)):
        return ",".join(str(s) for s in word)
    return str(word)


class _Progress:
    """progress: None or False (nothing), a callable f(done, total), or True
    (a tqdm bar when tqdm is installed, else nothing)."""

    def __init__(self, progress):
        self.bar = None
        self.callback = None
        if callable(progress):
            self.callback = progress
        elif progress is True:
            try:
                from tqdm.auto import tqdm
            except ImportError:
                return
            self._tqdm = tqdm
            self.callback = self._update

    def _update(self, done, total):
        # a command may enumerate more than once (gaps, then certification):
        # each pass gets its own bar
        if self.bar is not None and (done < self.bar.n or total != self.bar.total):
            self.bar.close()
            self.bar = None
        if self.bar is None:
            self.bar = self._tqdm(total=total, unit="word")
        self.bar.total = total
        self.bar.n = done
        self.bar.refresh()

    def close(self, finished=False):
        if self.bar is not None:
            if finished:  # the engine reports its last word as total - 1
                self.bar.n = self.bar.total
                self.bar.refresh()
            self.bar.close()


def _message(err):
    lines = [l[len("tempcert: "):] if l.startswith("tempcert: ") else l
             for l in err.strip().splitlines()]
    return "\n".join(lines)


def _call(core_run, args, progress):
    """Runs one command through ``core_run`` (a function of _core) with a
    progress bar; returns its tuple, the exit code first."""
    p = _Progress(progress)
    finished = False
    try:
        answer = core_run([str(a) for a in args], p.callback)
        finished = answer[0] in (_CODE["ok"], _CODE["refuted"])
    finally:
        p.close(finished)
    return answer


def _raise_for(code, has_result, err):
    """Raises the exception of an exit code without a result: BadInput for
    2, LimitReached or Undecided for 3 without a result, KeyboardInterrupt
    for an interrupted run, InternalError for anything else; returns
    nothing for codes 0, 1 and 3 with a result."""
    message = _message(err)
    if code == _CODE["bad_input"]:
        raise BadInput(message)
    if code == _CODE["interrupted"]:
        raise KeyboardInterrupt(message)
    if code == _CODE["undecided"] and not has_result:
        if message.startswith("limit reached: "):
            raise LimitReached(message[len("limit reached: "):])
        if message.startswith("out of memory"):  # a limit too: lower n or the limits
            raise LimitReached(message)
        if message.startswith("undecided: "):
            raise Undecided(message[len("undecided: "):])
        raise Undecided(message)
    if code not in (_CODE["ok"], _CODE["refuted"], _CODE["undecided"]):
        raise InternalError(message or f"exit {code}", exit_code=code)


def run(args, progress=None):
    """Runs ``tempcert ARGS...`` in-process; returns (exit code, stdout,
    stderr) as text for codes 0, 1 and 3 with output, and raises the
    matching exception otherwise (BadInput for 2, LimitReached or Undecided
    for 3 without a result, KeyboardInterrupt for an interrupted run)."""
    code, out, err = _call(_core.run, args, progress)
    out, err = out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
    _raise_for(code, bool(out.strip()), err)
    return code, out, err


def _json(args, progress=None):
    """Runs a command with --json; returns (exit code, its result): the
    value the command rendered, as dicts and lists (the same rendering the
    executable prints with --json, never its text parsed back)."""
    code, result, out, err = _call(_core.run_json, args, progress)
    err = err.decode("utf-8", "replace")
    _raise_for(code, result is not None, err)
    if result is None:
        raise InternalError(f"no --json result from tempcert {args[0]} (exit {code}): "
                            f"{out[:200]!r}", exit_code=code)
    return code, result


def eval(model, word, beta=None, *, width=None, summary=False, **limits):
    """Evaluates ``model`` on ``word`` exactly (hard attention) and, with
    ``beta``, softmax in rigorous intervals. beta: Fraction, int, exact
    string, expression in n, "native", per-layer list; a float is taken as
    the exact binary rational it stores. summary=True keeps per head only
    its least gap and largest TV (``heads``): memory linear in the word."""
    args = ["eval", _model_file(model), "--input=" + _word(word), "--hard"]
    if summary:
        args.append("--summary")
    if beta is not None:
        args.append("--beta=" + _beta(beta))
    if width is not None:
        args.append("--width=" + _number(width, "width"))
    return R.eval_result(_json(args + _options(limits))[1])


def gap(model, n, *, method="auto", progress=None, **limits):
    """The minimum gap per head over all words of length 1..n (exact), with
    a word attaining it."""
    args = ["gap", _model_file(model), f"--n={_int(n, 'n')}", f"--method={method}"]
    return R.gap_result(_json(args + _options(limits), progress)[1])


def bound(N, gap, eps):
    """Lemma GT's inverse temperature for N positions, gap and eps."""
    args = ["bound", f"--n={_int(N, 'N')}", "--gap=" + _number(gap, "gap"), "--eps=" + _number(eps, "eps")]
    return R.bound_result(_json(args)[1])


def certify(model, n, eps, beta=None, criterion="tv", method="auto", output=None, *,
            progress=None, filter=True, every_n=False, **limits):
    """Certifies or refutes ``beta`` for every word of length 1..n. Without
    beta, Lemma GT's beta_gap is certified. The result's verdict is
    'certified', 'refuted' (with .counterexample, the word) or 'undecided';
    a refutation is a result, not an exception. ``output``: also write the
    certificate there (atomically). eps and beta are exact: pass
    Fraction(1, 100) or "1/100" for one hundredth; a float is taken as the
    exact binary rational it stores. ``every_n=True``: beta (one number) for
    every length (proofs/every-n.md); n may be None, or the longest length
    examined exactly; the certificate is an every-n one, which the small
    checker verified before it was written."""
    with tempfile.TemporaryDirectory(prefix="tempcert-cert-") as tmp:
        cert_path = os.path.abspath(os.fspath(output)) if output else os.path.join(tmp, "cert.json")
        args = ["certify", _model_file(model), "--eps=" + _number(eps, "eps"),
                f"--criterion={criterion}", f"--method={method}", "-o", cert_path]
        if every_n:
            args.append("--every-n")
        if n is not None or not every_n:
            args.append(f"--n={_int(n, 'n')}")
        if beta is not None:
            args.append("--beta=" + _beta(beta))
        if not filter:
            args.append("--no-filter")
        _, j = _json(args + _options(limits), progress)
        certificate = None
        if os.path.exists(cert_path) and j.get("verdict") != "undecided":
            with open(cert_path) as f:
                certificate = json.load(f)
    return R.certify_result(j, certificate, j.get("certificate_not_written"))


def tight(model, n, eps, *, criterion="tv", method="auto", rel=None, per_layer=False,
          output=None, pump_length=None, progress=None, **limits):
    """Brackets the tight inverse temperature for words up to n: hi
    certified, lo refuted by a named word. .converged is False when the
    bracket did not reach ``rel`` (the command line's exit 3). ``output``:
    also write a certificate of hi there (``.json["certificate"]`` names
    it; ``check`` verifies it)."""
    args = ["tight", _model_file(model), f"--n={_int(n, 'n')}", "--eps=" + _number(eps, "eps"),
            f"--criterion={criterion}", f"--method={method}"]
    if rel is not None:
        args.append("--rel=" + _number(rel, "rel"))
    if per_layer:
        args.append("--per-layer")
    if output:
        args.append("--output=" + os.path.abspath(os.fspath(output)))
    if pump_length is not None:
        args.append(f"--pump-length={_int(pump_length, 'pump_length')}")
    return R.tight_result(_json(args + _options(limits), progress)[1])


def tight_every_n(model, eps, *, rel=None, n_exact=None, progress=None, **limits):
    """The supremum over every length of the tight beta (tv;
    proofs/every-n.md): an EveryNResult, bounded with its bracket (hi
    certified for every length) or unbounded with its growth law. Outside
    the scope (several layers, features reading n, ...) raises Undecided
    with the reason. ``n_exact``: the longest length examined exactly
    (default 1024)."""
    args = ["tight", _model_file(model), "--every-n", "--eps=" + _number(eps, "eps")]
    if rel is not None:
        args.append("--rel=" + _number(rel, "rel"))
    if n_exact is not None:
        args.append(f"--n={_int(n_exact, 'n_exact')}")
    return R.every_n_result(_json(args + _options(limits), progress)[1])


def horizon(model, eps, beta=None, *, criterion="tv", max_n=None, progress=None, **limits):
    """The longest n up to which the model meets the criterion at beta
    (default: its native beta), with the first failing word past it.
    Without max_n, for a model without max_length in every-n's scope:
    certified for every length (.every_n) or the first failure."""
    args = ["horizon", _model_file(model), "--eps=" + _number(eps, "eps"), f"--criterion={criterion}"]
    if beta is not None:
        args.append("--beta=" + _beta(beta))
    if max_n is not None:
        limits = dict(limits, max_n=_int(max_n, "max_n"))
    return R.horizon_result(_json(args + _options(limits), progress)[1])


def check(cert_path, model, **limits):
    """The small checker (tempcert-check, shipped beside this module) on a
    certificate file: its own code, sharing none with the engine, recomputes
    every quantity (docs/certificates.md, "Two checkers"). The result is
    true when accepted; a rejection (a claim false or not shown) is a
    result with .reason; a malformed certificate (unreadable, not JSON, a
    field missing, unknown or mistyped) raises BadInput, as a malformed
    model does."""
    args = ["check", os.path.abspath(os.fspath(cert_path)), "--model=" + _model_file(model)]
    return R.check_result(_json(args + _options(limits))[1])


def compile(formula, alphabet, pe=None, *, accept_at="last", mona=None):
    """Compiles an LTL formula, possibly with counts #(...), into a
    hard-attention Model (pe: "unbounded" for j, "bounded" for j/n, None for
    what the formula needs: nothing for counts alone, else unbounded).
    ``mona``: also write the MONA program there (not for counts)."""
    if not isinstance(alphabet, str):
        alphabet = ",".join(alphabet)
    with tempfile.TemporaryDirectory(prefix="tempcert-compile-") as tmp:
        out = os.path.join(tmp, "model.json")
        args = ["compile", "--alphabet=" + alphabet, f"--accept-at={accept_at}", "-o", out]
        if pe is not None:
            args.append(f"--pe={pe}")
        if mona is not None:
            args.append("--mona=" + os.path.abspath(os.fspath(mona)))
        run(args + ["--", str(formula)])  # after "--": a formula is never an option
        return model_from_scratch_file(out, f"<compiled {formula}>")


def import_tracr(path, **limits):
    """Reads a Tracr model exported to safetensors (tools/export_tracr.py)
    into an exact Model: every float weight becomes the dyadic rational it
    stores."""
    with tempfile.TemporaryDirectory(prefix="tempcert-import-") as tmp:
        out = os.path.join(tmp, "model.json")
        run(["import", "tracr", os.path.abspath(os.fspath(path)), "-o", out] + _options(limits))
        return model_from_scratch_file(out, f"<imported {os.fspath(path)}>")


def report(cases=(), *, n=None, eps=None, rel=None, out="report", tight_words=None,
           progress=None, **limits):
    """Tables and plots of tight temperatures over cases (bundled ids, model
    files or Models) and lengths; writes into ``out``."""
    if isinstance(cases, (str, os.PathLike, Model)):
        cases = [cases]
    for c in cases:  # a case is never an option ("--help" gave InternalError)
        if isinstance(c, str) and c.startswith("-"):
            raise BadInput(f"report: case {c!r}: expected a case id or a model file, "
                           "not an option")
    args = ["report"] + [_model_file(c) if isinstance(c, (Model, os.PathLike)) or
                         (isinstance(c, str) and c.endswith(".json")) else str(c) for c in cases]
    if n is not None:
        args.append("--n=" + (n if isinstance(n, str) else ",".join(str(_int(k, "n")) for k in n)))
    if eps is not None:
        args.append("--eps=" + _number(eps, "eps"))
    if rel is not None:
        args.append("--rel=" + _number(rel, "rel"))
    if tight_words is not None:
        args.append(f"--tight-words={_int(tight_words, 'tight_words')}")
    args.append("--out=" + os.path.abspath(os.fspath(out)))
    _, j = _json(args + _options(limits), progress)
    return R.ReportResult(j["files"], j["rows"], j)
