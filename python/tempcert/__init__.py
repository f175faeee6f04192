"""tempcert: certified inverse temperatures for softmax transformers.

The same exact engine as the ``tempcert`` command line, in Python: every
function runs the C++ command in this process and returns typed results with
exact numbers (``fractions.Fraction``; enclosures as :class:`Interval`).
Floats passed in are converted to the exact binary rationals they store;
nothing passes through a float on the way out.

    >>> import tempcert
    >>> m = tempcert.load_model("cases/models/has-b.json")
    >>> tempcert.gap(m, 6).min_gap
    Fraction(2, 1)
    >>> tempcert.certify(m, 6, "1/100", beta=2).verdict
    'refuted'

Errors raise :class:`BadInput` (the command line's exit 2),
:class:`LimitReached` or :class:`Undecided` (exit 3), all subclasses of
:class:`Error`. Long runs release the GIL and stop within a second on
KeyboardInterrupt; ``progress=`` takes a callable f(done, total) or True for
a tqdm bar.
"""

from ._errors import BadInput, Error, InternalError, LimitReached, Undecided
from ._numbers import Interval, exact
from ._model import Model, load_model
from ._commands import (bound, certify, check, compile, eval, gap, horizon, import_tracr,
                        report, run, tight, tight_every_n)
from ._results import (BoundResult, CertifyResult, CheckResult, EveryNResult, EvalResult, GapResult,
                       HeadSummary, HorizonResult, Output, ReportResult, TightResult)
from . import _core

__version__ = _core.version

__all__ = ["BadInput", "Error", "InternalError", "LimitReached", "Undecided", "Interval", "exact",
           "Model", "load_model", "bound", "certify", "check", "compile", "eval", "gap",
           "horizon", "import_tracr", "report", "run", "tight", "tight_every_n", "BoundResult",
           "CertifyResult", "CheckResult", "EveryNResult", "EvalResult", "GapResult", "HeadSummary", "HorizonResult", "Output", "ReportResult",
           "TightResult"]
