"""Exact numbers across the boundary: Fractions in, Fractions out.

Every number tempcert prints is either an exact rational ("p/q", an integer,
or a terminating decimal such as "2.2975599250673") or an enclosure given by
two such decimals rounded outward. Both convert to ``fractions.Fraction``
without loss; nothing passes through a float.
"""

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
import numbers


def exact(value):
    """The exact Fraction a Python number denotes. A float is converted to
    the dyadic rational it stores (``exact(0.1)`` is 3602879701896397/
    36028797018963968, not 1/10), as the Tracr importer does for tensors."""
    if isinstance(value, bool):
        raise TypeError("expected a number, got a bool")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, numbers.Integral):
        return Fraction(int(value))
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"expected a finite number, got {value}")
        return Fraction(value)
    if isinstance(value, numbers.Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    if isinstance(value, numbers.Real):  # float, numpy floating
        f = float(value)
        if f != f or f in (float("inf"), float("-inf")):
            raise ValueError(f"expected a finite number, got {value!r}")
        if type(value) is not float and hasattr(value, "as_integer_ratio"):
            n, d = value.as_integer_ratio()  # numpy's own exact ratio
            return Fraction(int(n), int(d))
        return Fraction(f)
    if isinstance(value, str):
        return parse(value)
    raise TypeError(f"expected a number, got {type(value).__name__}")


def text(value):
    """The exact rational as the model format writes it: "p/q" or "p"."""
    f = exact(value)
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def parse(s):
    """A number printed by tempcert: "p/q", an integer or a decimal."""
    if not isinstance(s, str):
        raise TypeError(f"expected a string, got {type(s).__name__}")
    return Fraction(s.strip())


@dataclass(frozen=True)
class Interval:
    """A closed enclosure [lo, hi] with exact Fraction ends: the true value
    lies in it. ``exact`` is the value itself when lo == hi."""

    lo: Fraction
    hi: Fraction

    def __post_init__(self):
        if self.lo > self.hi:
            raise ValueError(f"empty interval [{self.lo}, {self.hi}]")

    @property
    def exact(self):
        return self.lo if self.lo == self.hi else None

    @property
    def width(self):
        return self.hi - self.lo

    def contains(self, x):
        """Whether the exact value of ``x`` (a Fraction, int, float taken
        exactly, or another Interval) lies in this enclosure."""
        if isinstance(x, Interval):
            return self.lo <= x.lo and x.hi <= self.hi
        return self.lo <= exact(x) <= self.hi

    def __contains__(self, x):
        return self.contains(x)

    def __repr__(self):
        return f"Interval({self.lo}, {self.hi})" if self.exact is None else f"Interval({self.lo})"


def real(j):
    """A number of eval's JSON: an exact "p/q" string or an enclosure
    [lo, hi] of decimals (always an Interval, degenerate when exact)."""
    if isinstance(j, str):
        if j == "inf":
            return None
        v = parse(j)
        return Interval(v, v)
    if isinstance(j, list) and len(j) == 2:
        return Interval(parse(j[0]), parse(j[1]))
    raise ValueError(f"expected a number or an enclosure, got {j!r}")
