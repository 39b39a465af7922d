"""The one evaluation routine: any exact value to a Decimal at a chosen precision.

>>> from fractions import Fraction
>>> str(evaluate(Surd.sqrt(2), 10))
'1.414213562'
>>> str(evaluate(ExpRatio([Surd.rational(1), Surd()], [Surd(), Surd()]), 5))
'0.5'
"""

from __future__ import annotations

import decimal
from collections.abc import MutableMapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from .balls import evaluate_ball
from .closed import Combination, ExpRatio, NegInf, SoftmaxRow
from .context import decimal_context
from .surd import Surd
from .sympy_bridge import has_symbols

__all__ = ["RowCache", "evaluate", "evaluate_or_none", "rational_value"]

#: Exponentials of softmax rows already evaluated: row → (e^{x_j − max}, their sum).
RowCache = MutableMapping[tuple[SoftmaxRow, int], tuple[list[Decimal], Decimal]]

#: Guard digits added inside a closed form before the result is rounded.
GUARD = 10


def evaluate(value: Any, precision: int, cache: RowCache | None = None) -> Decimal:
    """``value`` to ``precision`` significant digits.

    Surds, fractions and integers are evaluated directly; a softmax quotient or a sum
    of them by ball arithmetic (:mod:`.balls`: the row's largest exponent subtracted
    exactly, every digit but the last certain); −∞ is ``Decimal('-Infinity')``; a
    SymPy number through ``sympy.N``.  A value with free symbols has no decimal:
    :class:`ValueError`.  ``cache`` is accepted for compatibility and not needed.
    """
    if isinstance(value, NegInf):
        return Decimal("-Infinity")
    if isinstance(value, (ExpRatio, Combination)):
        return evaluate_ball(value, precision)
    with decimal.localcontext(decimal_context(precision + GUARD)):
        if isinstance(value, Surd):
            result = value.in_context()
        elif isinstance(value, (int, Fraction)):
            q = Fraction(value)
            result = Decimal(q.numerator) / Decimal(q.denominator)
        else:
            result = _sympy_value(value, precision + GUARD)
    with decimal.localcontext(decimal_context(precision)):
        return +result


def _symbolic(value: Any) -> bool:
    """A SymPy expression with symbols (each shared piece of a gradient looked at once)."""
    return hasattr(type(value), "free_symbols") and has_symbols(value)


def _sympy_value(expr: Any, precision: int) -> Decimal:
    if _symbolic(expr):
        raise ValueError("a value with symbols has no decimal")
    import sympy

    return Decimal(str(sympy.N(expr, precision)))


def evaluate_or_none(value: Any, precision: int, cache: RowCache | None = None) -> Decimal | None:
    """Like :func:`evaluate`, but None for a value with symbols."""
    if _symbolic(value):
        return None
    if isinstance(value, ExpRatio) and any(_symbolic(x) for x in (*value.exponents, *value.coefs)):
        return None
    return evaluate(value, precision, cache)


def rational_value(value: object) -> Fraction | None:
    """The exact rational value of an entry, when it has one (also ExpRatio 4/4 = 1)."""
    if isinstance(value, ExpRatio):
        value = value.closed_value()
    if isinstance(value, Surd) and value.is_rational:
        return value.as_fraction()
    if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
        return Fraction(value)
    if getattr(value, "is_Rational", False):  # a SymPy number (the backward pass)
        return Fraction(int(value.p), int(value.q))  # type: ignore[attr-defined]
    return None
