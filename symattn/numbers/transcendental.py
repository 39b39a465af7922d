"""sin, cos and tanh of exact arguments: the closed forms of the transcendental topics
(sinusoids, rotations, tanh scores), and their certified decimals.

sin(pos / 10000^{2i/d}) is transcendental for every pos ≠ 0, so no surd holds it.  The
exact value is kept as what it is — SymPy's ``sin``, ``cos`` or ``tanh`` of an exact
argument (``sin(1/100)``, ``cos(10**(2/3)/100)``, ``tanh(1/2)``), which ``sympify``
reads back — and its decimal comes from ball arithmetic (FLINT's ``arb``), so every
digit shown is certain.  Arguments that make the value rational (sin 0, cos 0,
tanh 0) give the rational as a :class:`~symattn.numbers.Surd`.

>>> str(sinusoid_value("sin", 1, 0, 4, Surd.rational(10000), 20))
'0.84147098480789650665'
>>> sinusoid("cos", 0, 2, 4, Surd.rational(10000))
Surd([(1, Fraction(1, 1))])
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from flint import arb, fmpq

from .balls import bits_for, precision, to_decimal
from .surd import Surd
from .sympy_bridge import to_sympy

__all__ = ["angle", "sinusoid", "sinusoid_value", "tanh_exact", "tanh_value"]

_ZERO, _ONE = Surd(), Surd.rational(1)


def angle(pos: int, twice_i: int, width: int, base: Surd) -> Any:
    """pos · base^(−2i/width) as a SymPy number (10000^(−1/2) is 1/100)."""
    import sympy

    return sympy.Integer(pos) * to_sympy(base) ** sympy.Rational(-twice_i, width)


def sinusoid(name: str, pos: int, twice_i: int, width: int, base: Surd) -> Any:
    """sin or cos of pos · base^(−2i/width): exact (a Surd at pos 0, else SymPy)."""
    if pos == 0:
        return _ZERO if name == "sin" else _ONE
    import sympy

    function = sympy.sin if name == "sin" else sympy.cos
    return function(angle(pos, twice_i, width, base))


def _angle_ball(pos: int, twice_i: int, width: int, base: Surd) -> arb:
    q = base.as_fraction()
    return arb(pos) * arb(fmpq(q.numerator, q.denominator)) ** arb(fmpq(-twice_i, width))


def sinusoid_value(
    name: str, pos: int, twice_i: int, width: int, base: Surd, digits: int
) -> Decimal:
    """The decimal of :func:`sinusoid`, ``digits`` significant digits, certified."""
    if pos == 0:
        return Decimal(0 if name == "sin" else 1)
    bits = bits_for(digits) + 32
    with precision(bits):
        a = _angle_ball(pos, twice_i, width, base)
        value = a.sin() if name == "sin" else a.cos()
        return to_decimal(value, digits)


def tanh_exact(x: Any) -> Any:
    """tanh of an exact value: 0 at 0, else SymPy's ``tanh`` (kept unevaluated)."""
    if isinstance(x, Surd) and x.is_zero():
        return _ZERO
    import sympy

    return sympy.tanh(to_sympy(x))


def tanh_value(x: Decimal, digits: int) -> Decimal:
    """tanh of a decimal value, to ``digits`` significant digits."""
    q = Fraction(x)
    with precision(bits_for(digits) + 32):
        return to_decimal(arb(fmpq(q.numerator, q.denominator)).tanh(), digits)
