"""A student's answer, read: its value and how precisely it was written.

An entry is read by the one grammar (:mod:`.grammar`, answers profile) and evaluated in
midpoint-radius arithmetic: every decimal the student wrote stands for the interval of
one unit of its last written place (``0.107`` is 0.107 ± 0.001; ``6.3379e-02`` is
0.063379 ± 0.000001; ``10.7%`` is 0.107 ± 0.001), integers, fractions, roots and ``e``
are exact, and the radius of the whole expression is how far the value may be from what
the student meant.  A reading with radius 0 is exact.

>>> r = read_answer("≈ 1,41")
>>> str(r.value), str(r.radius), r.places, r.exact
('1.41', '0.01', 2, False)
>>> r = read_answer("62%")
>>> str(r.value), str(r.radius), r.places
('0.62', '0.01', 2)
>>> read_answer("√2/2").exact, read_answer("-inf").value
(True, Decimal('-Infinity'))
"""

from __future__ import annotations

import decimal
import re
from decimal import Decimal
from fractions import Fraction

from flint import arb

from ..errors import SymattnError
from ..numbers import decimal_context
from ..numbers.balls import precision
from ..record import Record
from .grammar import (
    ANSWER,
    MAX_POWER,
    BinOp,
    Euler,
    Exp,
    Func,
    Infinity,
    Name,
    Neg,
    Node,
    Num,
    Percent,
    Pow,
    Sqrt,
    ValueSyntaxError,
    parse,
)

__all__ = ["PRECISION", "Reading", "read_answer"]

#: Significant digits of a reading.
PRECISION = 60
#: Largest |x| whose exponential is taken (e^1000 is already beyond any answer).
MAX_EXPONENT = Decimal(1000)
NEG_INF = Decimal("-Infinity")


class Reading(Record):
    """What a student wrote, read: ``value`` ± ``radius``."""

    text: str
    value: Decimal
    radius: Decimal
    places: int | None  # decimal places the writing carries; None when exact

    @property
    def exact(self) -> bool:
        return self.radius == 0


class _Interval(Record):
    mid: Decimal
    rad: Decimal


def _decimal(q: Fraction) -> Decimal:
    return Decimal(q.numerator) / Decimal(q.denominator)


def _num(node: Num) -> _Interval:
    if node.places is None:
        return _Interval(_decimal(node.value), Decimal(0))
    unit = Decimal(1).scaleb(node.exponent - node.places)
    return _Interval(_decimal(node.value), unit)


def _mul(a: _Interval, b: _Interval) -> _Interval:
    return _Interval(a.mid * b.mid, abs(a.mid) * b.rad + abs(b.mid) * a.rad + a.rad * b.rad)


def _div(a: _Interval, b: _Interval, pos: int) -> _Interval:
    if abs(b.mid) <= b.rad:
        raise ValueSyntaxError(f"division by zero at position {pos}")
    rad = (abs(a.mid) * b.rad + abs(b.mid) * a.rad) / (abs(b.mid) * (abs(b.mid) - b.rad))
    return _Interval(a.mid / b.mid, rad)


def _sqrt(a: _Interval, pos: int) -> _Interval:
    if a.mid < 0:
        raise ValueSyntaxError(f"the root at position {pos} is of a negative number")
    low, high = max(a.mid - a.rad, Decimal(0)), a.mid + a.rad
    root = a.mid.sqrt()
    return _Interval(root, max(high.sqrt() - root, root - low.sqrt()))


def _exp(a: _Interval, pos: int) -> _Interval:
    if abs(a.mid) + a.rad > MAX_EXPONENT:
        raise ValueSyntaxError(f"the exponent at position {pos} is too large")
    value = a.mid.exp()
    return _Interval(value, value * (a.rad.exp() - 1))


def _function(name: str, a: _Interval, pos: int) -> _Interval:
    """sin, cos or tanh: each moves by at most as much as its argument (|f′| ≤ 1), so the
    radius is the argument's; an exact argument gives an exact value (to
    :data:`PRECISION` digits, as e^x)."""
    if abs(a.mid) + a.rad > MAX_EXPONENT:
        raise ValueSyntaxError(f"the argument of {name} at position {pos} is too large")
    bits = (PRECISION + 20) * 4 + max(0, -a.mid.adjusted()) * 4  # ≥ 80 digits, and sin(1e-30)
    with precision(bits):
        value = getattr(arb(str(a.mid)), name)()
        text = value.mid().str(PRECISION + 10, radius=False)
    return _Interval(+Decimal(text), a.rad)


def _whole(node: Node) -> int | None:
    """The exponent as a whole number when it is written as one (2, -3, ⁻²)."""
    sign = 1
    if isinstance(node, Neg):
        node, sign = node.arg, -1
    if isinstance(node, Num) and node.places is None and node.value.denominator == 1:
        return sign * int(node.value)
    return None


def _pow(node: Pow) -> _Interval:
    base = _interval(node.base)
    whole = _whole(node.exponent)
    if whole is not None and not isinstance(node.base, Euler):
        if abs(whole) > MAX_POWER:
            raise ValueSyntaxError(
                f"expected a whole exponent up to {MAX_POWER} at position {node.pos}"
            )
        if abs(base.mid) > 10**10 and abs(whole) > 10:
            raise ValueSyntaxError(f"the power at position {node.pos} is out of range")
        out = _Interval(Decimal(1), Decimal(0))
        for _ in range(abs(whole)):
            out = _mul(out, base)
        return _div(_Interval(Decimal(1), Decimal(0)), out, node.pos) if whole < 0 else out
    exponent = _interval(node.exponent)
    if isinstance(node.base, Euler):
        return _exp(exponent, node.pos)
    if base.mid - base.rad <= 0:
        raise ValueSyntaxError(f"a power at position {node.pos} needs a positive base")
    log = _Interval(base.mid.ln(), base.rad / (base.mid - base.rad))
    return _exp(_mul(exponent, log), node.pos)


def _interval(node: Node) -> _Interval:
    if isinstance(node, Num):
        return _num(node)
    if isinstance(node, Neg):
        inner = _interval(node.arg)
        return _Interval(-inner.mid, inner.rad)
    if isinstance(node, BinOp):
        left, right = _interval(node.left), _interval(node.right)
        if node.op == "+":
            return _Interval(left.mid + right.mid, left.rad + right.rad)
        if node.op == "-":
            return _Interval(left.mid - right.mid, left.rad + right.rad)
        if node.op == "*":
            return _mul(left, right)
        return _div(left, right, node.pos)
    if isinstance(node, Sqrt):
        return _sqrt(_interval(node.arg), node.pos)
    if isinstance(node, Pow):
        return _pow(node)
    if isinstance(node, Exp):
        return _exp(_interval(node.arg), node.pos)
    if isinstance(node, Func):
        return _function(node.name, _interval(node.arg), node.pos)
    if isinstance(node, Euler):
        return _Interval(Decimal(1).exp(), Decimal(0))
    if isinstance(node, Percent):
        inner = _interval(node.arg)
        radius = inner.rad
        if not radius and isinstance(node.arg, Num):  # 62% is a percent rounded to a whole one
            radius = Decimal(1)
        return _Interval(inner.mid / 100, radius / 100)
    if isinstance(node, Infinity):
        raise ValueSyntaxError(f"∞ at position {node.pos} can only be a whole answer, -inf")
    assert isinstance(node, Name)
    raise ValueSyntaxError(f"{node.name!r} at position {node.pos} is not a number")


def _is_minus_infinity(node: Node) -> bool:
    return isinstance(node, Neg) and isinstance(node.arg, Infinity)


#: What most answers are: a plain decimal, read without the parser (the same reading).
_PLAIN = re.compile(r"-?[0-9]{1,20}(?:\.([0-9]{1,20}))?")


def read_answer(text: str) -> Reading:
    """Read one written answer: its value and how precisely it was written."""
    plain = _PLAIN.fullmatch(text)
    if plain is not None:
        places = len(plain.group(1)) if plain.group(1) is not None else None
        with decimal.localcontext(decimal_context(PRECISION)):
            value = +_decimal(Fraction(text))
            radius = +Decimal(1).scaleb(-places) if places is not None else Decimal(0)
        return Reading(text, value, radius, places)
    tree = parse(text, ANSWER)
    if _is_minus_infinity(tree):
        return Reading(text, NEG_INF, Decimal(0), None)
    with decimal.localcontext(decimal_context(PRECISION)):
        try:
            found = _interval(tree)
        except (ArithmeticError, ValueError) as exc:
            if isinstance(exc, (ValueSyntaxError, SymattnError)):  # a time limit, say
                raise
            raise ValueSyntaxError("the value is out of range") from None
        value, radius = +found.mid, +found.rad
    if not value.is_finite() or not radius.is_finite() or abs(value) > Decimal(10) ** 100:
        raise ValueSyntaxError("the value is out of range")
    places = None
    if radius:
        places = max(0, -radius.adjusted()) if radius < 1 else 0
    return Reading(text, value, radius, places)
