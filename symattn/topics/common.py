"""Pieces that several topics write with: a function of an argument (sin, cos, tanh), a
power left unevaluated, and the rows a table of positions expands."""

from __future__ import annotations

from typing import Any

from ..formula import Concat, Math, Number, Paren, Sym, Value
from ..numbers import Surd, to_sympy
from ..steps import Step
from .base import Writer

__all__ = ["TRIG_SYMBOLS", "call", "expanded_rows", "power"]


#: The symbols of the sinusoids, shared by the sinusoidal topics.
TRIG_SYMBOLS = {
    "sin": (r"\sin", "sin"),
    "cos": (r"\cos", "cos"),
    "pos": (r"\mathrm{pos}", "pos"),
}


def call(function: str, argument: Math) -> Math:
    """sin(x), cos(x), tanh(x) as written: tanh(-1), not tanh((-1))."""
    if isinstance(argument, Number) and isinstance(argument.value, Surd):
        argument = Value(argument.value, inline=True)
    return Concat((Sym(function), Paren(argument)))


def power(base: Any, twice_i: int, width: int) -> Math:
    """base^{2i/d} as written (not evaluated)."""
    import sympy

    return Value(sympy.Pow(to_sympy(base), sympy.Rational(twice_i, width), evaluate=False))


def expanded_rows(walk: Writer, step: Step) -> list[int]:
    """The expanded rows; row 1 (position 0) is trivial, so position 1 comes with it."""
    rows = walk.expanded(step)
    if rows == [0] and step.shape[0] > 1:
        rows = [0, 1]
    return rows
