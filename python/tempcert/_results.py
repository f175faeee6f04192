"""Typed results of the commands. Each keeps the command line's JSON as
``.json`` (the same document ``tempcert COMMAND --json`` prints) and exposes
its numbers exactly: Fractions for rationals, Interval for enclosures."""

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, List, Optional

from ._numbers import Interval, parse, real


def _gap(s, enclosure=None):
    """A gap as printed: "p/q" a Fraction, "inf" (no competitor) None; an
    irrational one an Interval: printed as "[lo, hi]" or [lo, hi], or, in a
    certificate's rendering, as its exact form with its enclosure beside it."""
    if s in (None, "inf"):
        return None
    if isinstance(s, str) and s.startswith("["):  # gap's text rendering "[lo, hi]"
        s = [x.strip() for x in s.strip("[]").split(",")]
    if isinstance(s, list):
        return Interval(parse(s[0]), parse(s[1]))
    if enclosure is not None:
        return Interval(parse(enclosure[0]), parse(enclosure[1]))
    return parse(s)


@dataclass
class Output:
    """One read-out position of eval: the hard value (an Interval, exact for
    rational models; a label for categorical read-outs) and, with a beta,
    the soft enclosure."""

    position: int
    hard: Any
    soft: Any = None


@dataclass
class EvalResult:
    word: str
    outputs: List[Output]
    accept: Optional[bool]   # hard acceptance at the read position (None: no single one)
    y: Optional[Interval]    # hard read-out value at that position
    soft_y: Optional[Interval]
    soft_accept: Any         # True, False or "undecided"
    json: dict = field(repr=False)
    # summary=True: one entry per head (layer order), else empty
    heads: List["HeadSummary"] = field(default_factory=list)


@dataclass
class HeadSummary:
    """One head's extremes over a word's queries (eval with summary=True)."""
    layer: int
    head: int
    kind: str
    mask: str
    queries: int                        # queries with an allowed position
    least_gap: Optional[Interval]       # None: no query with a competitor
    least_gap_query: Optional[int]
    largest_tv: Optional[Interval]      # soft: the TV with the greatest lower end
    largest_tv_query: Optional[int]
    tv_at_most: Optional[Interval]      # encloses the largest TV over all queries


def _decoded(j, categorical):
    """A decoded output of eval: a categorical read-out's label as the
    string it is (labels such as "3" are not numbers), None for no output,
    "undecided"; a linear read-out's value as an Interval."""
    if categorical or j is None or j == "undecided":
        return j
    return real(j)


def eval_result(j):
    hard, soft = j["hard"], j.get("soft")
    categorical = any("classes" in o for o in hard["outputs"])
    outputs = [Output(o["position"], _decoded(o["hard"], categorical),
                      _decoded(o.get("soft"), categorical))
               for o in j["outputs"]]
    accept = hard.get("accept")
    return EvalResult(
        word=j["word"], outputs=outputs,
        accept=None if accept == "undecided" else accept,
        y=real(hard["y"]) if "y" in hard else None,
        soft_y=real(soft["y"]) if soft and "y" in soft else None,
        soft_accept=soft.get("accept") if soft else None, json=j,
        heads=_head_summaries(j) if j.get("summary") else [])


def _head_summaries(j):
    soft = {(h["layer"], h["head"]): h for h in j["soft"]["heads"]} if "soft" in j else {}
    opt = lambda v: None if v is None else real(v)
    out = []
    for h in j["hard"]["heads"]:
        s = soft.get((h["layer"], h["head"]), {})
        out.append(HeadSummary(h["layer"], h["head"], h["kind"], h["mask"], h["queries"],
                               opt(h["least_gap"]), h["least_gap_query"],
                               opt(s.get("largest_tv")), s.get("largest_tv_query"),
                               opt(s.get("tv_at_most"))))
    return out


@dataclass
class HeadGap:
    layer: int
    head: int
    kind: str
    mask: str
    min_gap: Any   # Fraction; an Interval where irrational; None: no query with a competitor
    N: int
    witness: Optional[str]        # a word attaining the minimum gap
    json: dict = field(repr=False)


@dataclass
class GapResult:
    n: int
    min_gap: Any   # Fraction; an Interval where irrational; None: infinite (no competitor)
    heads: List[HeadGap]
    method: str
    words: int
    json: dict = field(repr=False)


def gap_result(j):
    heads = [HeadGap(h["layer"], h["head"], h["kind"], h["mask"], _gap(h["min_gap"]), h["N"],
                     h["witness"]["word"] if h.get("witness") else None, h) for h in j["heads"]]
    return GapResult(j["n"], _gap(j["min_gap"]), heads, j["method"], j["words"], j)


@dataclass
class BoundResult:
    """Lemma GT: beta_exact is the closed form (e.g. "ln(891)/(2)"),
    beta_up a rational upper bound of it (the value to use), beta the
    rounded-up decimal the command line prints."""

    N: int
    gap: Fraction
    eps: Fraction
    trivial: bool
    beta_exact: str
    beta_up: Fraction
    beta: Fraction
    json: dict = field(repr=False)


def bound_result(j):
    return BoundResult(j["N"], parse(j["gap"]), parse(j["eps"]), j["trivial"], j["beta_exact"],
                       parse(j["beta_up"]), parse(j["beta"]), j)


@dataclass
class CertifyResult:
    """verdict is 'certified', 'refuted' or 'undecided'. A refutation names
    its word in ``counterexample`` and the enclosure of the violating
    quantity in ``counterexample_value``; ``certificate`` is the certificate
    (a dict, as written with -o), None when undecided or when none was
    written: then ``not_written`` says why (the small checker leaves such a
    certificate out, e.g. a layerwise one of a model with sqrt features).
    ``min_gap`` is a Fraction, an Interval where irrational, None if infinite."""

    verdict: str
    counterexample: Optional[str]
    counterexample_value: Optional[Interval]
    certificate: Optional[dict]
    method: str
    beta: str
    min_gap: Any
    json: dict = field(repr=False)
    not_written: Optional[str] = None

    def __bool__(self):
        return self.verdict == "certified"


def certify_result(j, certificate, not_written=None):
    cx = j.get("counterexample")
    value = None
    if cx and cx.get("value") is not None:
        value = real(cx["value"])
    beta = j.get("beta")
    return CertifyResult(
        verdict=j["verdict"], counterexample=cx["word"] if cx else None,
        counterexample_value=value, certificate=certificate, method=j.get("method", ""),
        beta=beta["spec"] if isinstance(beta, dict) else beta,
        min_gap=_gap(j.get("min_gap"), j.get("min_gap_enclosure")), json=j,
        not_written=not_written)


@dataclass
class TightResult:
    """The tight inverse temperature lies in [lo, hi]: hi is certified for
    every word up to n, lo refuted by the word ``lo_word`` (None when lo is
    a lower bound from the analysis without a word, e.g. 0)."""

    lo: Fraction
    hi: Fraction
    lo_word: Optional[str]
    converged: bool
    kind: str
    method: str
    beta_gap: Optional[str]       # None beyond enumeration (no model gap computed)
    min_gap: Any  # Fraction; an Interval where irrational; None if infinite
    json: dict = field(repr=False)

    @property
    def bracket(self):
        return Interval(self.lo, self.hi)


def tight_result(j):
    if "beta_lo_exact" not in j:  # --per-layer: a list per layer, kept as JSON
        return j
    return TightResult(parse(j["beta_lo_exact"]), parse(j["beta_hi_exact"]), j.get("lo_witness"),
                       j["converged"], j["kind"], j["method"], j["beta_gap"],
                       _gap(j.get("min_gap")), j)


@dataclass
class EveryNResult:
    """The supremum over every length of the tight beta (proofs/every-n.md).
    Bounded: it lies in [lo, hi], hi certified for every word of every
    length, lo refuted by ``lo_word``; ``method`` says by which argument:
    "tail" (the tail bound of Lemma E1) or "windows" (Theorem T, scores a
    fixed profile of j - i). Unbounded: no constant beta; the need grows as
    ``growth`` ("log n") at ``growth_rate`` (beta ~ rate ln n)."""

    bounded: bool
    lo: Optional[Fraction]
    hi: Optional[Fraction]
    lo_word: Optional[str]
    converged: bool
    growth: Optional[str]
    growth_rate: Optional[Fraction]
    method: Optional[str]
    json: dict = field(repr=False)

    @property
    def bracket(self):
        return Interval(self.lo, self.hi) if self.bounded else None


def every_n_result(j):
    if j["bounded"]:
        return EveryNResult(True, parse(j["beta_lo_exact"]), parse(j["beta_hi_exact"]),
                            j.get("lo_witness"), j["converged"], None, None, j["method"], j)
    return EveryNResult(False, None, None, None, False, j["growth"], parse(j["growth_rate"]), None,
                        j)


@dataclass
class HorizonResult:
    """certified_up_to: the largest n <= max_n for which every word up to n
    meets the criterion (0: not even n = 1); first_failure the refuting word
    at the next length (a dict with "word" and "n"), or None."""

    certified_up_to: int
    max_n: int
    first_failure: Optional[dict]
    undecided: Optional[Any]
    method: str
    json: dict = field(repr=False)

    @property
    def counterexample(self):
        return self.first_failure["word"] if self.first_failure else None

    @property
    def every_n(self):
        """True when certified for every length (horizon without max_n,
        proofs/every-n.md); certified_up_to is then the string "every"."""
        return bool(self.json.get("every_n", False))


def horizon_result(j):
    return HorizonResult(j["certified_up_to"], j["max_n"], j.get("first_failure"),
                         j.get("undecided"), j.get("method", ""), j)


@dataclass
class CheckResult:
    """The standalone checker's verdict; true when accepted."""

    accepted: bool
    reason: str
    method: str
    words: int
    json: dict = field(repr=False)

    def __bool__(self):
        return self.accepted

    @property
    def claim(self):
        """What was verified, as the verdict line echoes it (verdict, model
        name and sha256, n, eps, criterion, beta, certificate kind); empty
        when not accepted."""
        return self.json.get("claim", "")


def check_result(j):
    return CheckResult(j["accepted"], j["reason"], j["method"], j["words"], j)


@dataclass
class ReportResult:
    files: List[str]
    rows: int
    json: dict = field(repr=False)

    @property
    def results(self):
        """The rows as results.json has them (one dict per case and n)."""
        return self.json["results"]

    @property
    def skipped(self):
        """The (case, n) no method reached, each with why."""
        return self.json["skipped"]
