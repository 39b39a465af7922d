"""Where brackets go around a formula's pieces, from the one precedence table
(:mod:`symattn.printing.precedence`): asked of the node and its value, never of a printed
string.

>>> from fractions import Fraction
>>> from symattn.formula import Frac, Sum, Value
>>> loose_value(Fraction(1, 2), Prec.DIV), loose_value(2, Prec.DIV), loose_value(-2, Prec.MUL)
(True, False, True)
>>> node_precedence(Value(Fraction(3, 4))), node_precedence(Sum(()))
(<Prec.DIV: 15>, <Prec.ADD: 10>)
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ..formula import (
    Cases,
    Cell,
    Frac,
    Join,
    Math,
    Minus,
    Number,
    Product,
    Relation,
    Result,
    Sum,
    Value,
)
from ..printing import Prec, is_negative, precedence

__all__ = ["Prec", "decimal_negative", "loose_value", "node_precedence", "value_precedence"]


def _sympy_quotient(expr: Any) -> bool:
    """A SymPy product or power written with a slash: √2/2, x/3, 1/x."""
    if getattr(expr, "is_Pow", False):
        return bool(expr.exp.is_negative)
    if getattr(expr, "is_Mul", False):
        return any(
            (a.is_Rational and a.q != 1) or (a.is_Pow and a.exp.is_negative) for a in expr.args
        )
    return False


def value_precedence(value: Any) -> Prec:
    """How tightly an exact value binds as written: the table's, and a SymPy product
    with a denominator (written with a slash) as a quotient."""
    prec = precedence(value)
    if prec > Prec.DIV and _sympy_quotient(value):
        return Prec.DIV
    return prec


def loose_value(value: Any, bound: Prec) -> bool:
    """Does ``value`` need brackets where only what binds tighter than ``bound`` may
    stand bare?  A negative value always does (``(-1)·2``)."""
    return is_negative(value) or value_precedence(value) <= bound


def decimal_negative(decimal: str) -> bool:
    """A decimal (the value of a closed form, as a number) is below zero."""
    return Decimal(decimal) < 0


def node_precedence(node: Math) -> Prec:
    """How tightly a formula binds: a sum (or a subtracted term) loosest, then a
    quotient, a product; names, symbols, brackets and substituted numbers (which bracket
    themselves) are atoms.  A value binds as its value does; a negative one as a sum (it
    reads 0 − x)."""
    if isinstance(node, (Sum, Minus, Relation, Join, Cases)):
        return Prec.ADD
    if isinstance(node, Frac):
        return Prec.DIV
    if isinstance(node, Product):
        return Prec.MUL
    if isinstance(node, Number):  # a substituted number brackets itself where it needs to
        return Prec.ATOM
    if isinstance(node, (Value, Cell, Result)):
        return Prec.ADD if is_negative(node.value) else value_precedence(node.value)
    return Prec.ATOM
