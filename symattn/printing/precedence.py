"""One precedence table for every printer: how tightly an exact value binds.

A printer asks :func:`precedence` and :func:`is_negative` of the *value* (never of a
printed string) to decide where brackets go, so that the SymPy-syntax, Unicode and
LaTeX printers bracket the same values.

>>> from fractions import Fraction
>>> precedence(Surd.sqrt(2)), precedence(Surd.rational(Fraction(1, 2))), precedence(Surd.sqrt(8))
(<Prec.ATOM: 40>, <Prec.DIV: 15>, <Prec.MUL: 20>)
"""

from __future__ import annotations

from enum import IntEnum
from fractions import Fraction
from typing import Any

from ..numbers import Combination, ExpRatio, NegInf, Surd

__all__ = ["Prec", "is_negative", "precedence"]


class Prec(IntEnum):
    """Binding strength, loosest first."""

    ADD = 10  # a sum or difference: 1 + √3
    DIV = 15  # a quotient: 1/2, √2/2, e^a/(e^a + e^b)
    MUL = 20  # a product without a quotient: 2√2, -3
    POW = 30  # a power: x²
    ATOM = 40  # a number, a name, a root: 2, √2, x


def _fraction_prec(q: Fraction) -> Prec:
    if q.denominator != 1:
        return Prec.DIV
    return Prec.MUL if q < 0 else Prec.ATOM


def precedence(value: Any) -> Prec:
    """How tightly ``value`` binds when printed in any of the printers."""
    if isinstance(value, Surd):
        if len(value.terms) > 1:
            return Prec.ADD
        if not value.terms:
            return Prec.ATOM
        radicand, coef = value.terms[0]
        if radicand == 1:
            return _fraction_prec(coef)
        if coef.denominator != 1:
            return Prec.DIV
        return Prec.ATOM if coef == 1 else Prec.MUL
    if isinstance(value, (int, Fraction)):
        return _fraction_prec(Fraction(value))
    if isinstance(value, NegInf):
        return Prec.MUL
    if isinstance(value, ExpRatio):
        return precedence(value.coefs[0]) if len(value.exponents) == 1 else Prec.DIV
    if isinstance(value, Combination):
        return Prec.ADD if len(value.terms) > 1 else Prec.MUL
    return _sympy_prec(value)


def _sympy_prec(expr: Any) -> Prec:
    from sympy.printing.precedence import PRECEDENCE
    from sympy.printing.precedence import precedence as sympy_precedence

    if getattr(expr, "is_Function", False):  # sin(1/100), tanh(2): one atom
        return Prec.ATOM
    level = sympy_precedence(expr)
    if level <= PRECEDENCE["Add"]:
        return Prec.ADD
    if level <= PRECEDENCE["Mul"]:
        return Prec.DIV if getattr(expr, "is_Rational", False) else Prec.MUL
    if level <= PRECEDENCE["Pow"]:
        return Prec.POW
    return Prec.ATOM


def is_negative(value: Any) -> bool:
    """True when ``value`` prints with a leading minus sign."""
    if isinstance(value, Surd):
        return bool(value.terms) and value.terms[0][1] < 0 and len(value.terms) == 1
    if isinstance(value, (int, Fraction)):
        return value < 0
    if isinstance(value, NegInf):
        return True
    if isinstance(value, (ExpRatio, Combination)):
        return False
    return bool(getattr(value, "could_extract_minus_sign", lambda: False)())
