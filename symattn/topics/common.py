"""Pieces that several topics (and the core's general formulas) write with: a function of
an argument (sin, cos, tanh), a power left unevaluated, the rows a table of positions
expands, the divisor of the scores as a symbol, and words inside a formula."""

from __future__ import annotations

from typing import Any

from ..formula import Concat, Label, Lit, Math, Number, Paren, Product, Sym, Value
from ..numbers import Surd, to_sympy
from ..steps import Step
from ..words import MathName, Words
from .base import Writer

__all__ = [
    "TRIG_SYMBOLS",
    "call",
    "divisor_symbol",
    "expanded_rows",
    "numbered",
    "power",
    "worded",
]


#: The symbols of the sinusoids, shared by the sinusoidal topics.
TRIG_SYMBOLS = {
    "sin": (r"\sin", "sin"),
    "cos": (r"\cos", "cos"),
    "pos": (r"\mathrm{pos}", "pos"),
    "two_i": ("2i", "2i"),
    "two_i_plus_1": ("2i+1", "2i+1"),
    "pos_zero": (r"\mathrm{pos} = 0", "pos = 0"),
    "sin_zero": (r"\sin 0 = 0", "sin 0 = 0"),
    "cos_zero": (r"\cos 0 = 1", "cos 0 = 1"),
    "pe_sin": (
        r"\sin(\mathrm{pos} / 10000^{2i/d_{\text{model}}})",
        "sin(pos / 10000^(2i/d_model))",
    ),
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


def divisor_symbol(label: str) -> Math:
    """√d_k, c, τ, √d_k · τ or c · τ: what the scores are divided by, as a symbol (each
    part of the label a symbol: "sqrt(d_k)*tau" → (√d_k · τ))."""
    parts = tuple(Sym("sqrt_dk" if part == "sqrt(d_k)" else part) for part in label.split("*"))
    return parts[0] if len(parts) == 1 else Paren(Product(parts))


def numbered(first: int, last: int) -> Math:
    """Rows or columns ``first`` … ``last`` (1-based), as math: 1…2."""
    return Concat((Lit(str(first)), Sym("ldots"), Lit(str(last))))


def worded(words: Words, key: str, **values: Math | int | str) -> Math:
    """The words ``key`` inside a formula (``rows {first}…{last} of {matrix}``): its words
    as labels, a value that is math (a node) as that math, other values as words.

    >>> from symattn.formula import Name
    >>> from symattn.words import words
    >>> worded(words("en"), "formula.given", name=Name("X"))
    Concat(parts=(Name(matrix='X', row=None, col=None, transposed=False), Label(text=' (given)')))
    """
    filled = {k: v if isinstance(v, (int, str)) else (v,) for k, v in values.items()}
    parts: list[Math] = []
    for part in words.parts(key, **filled):
        if isinstance(part, str):
            last = parts[-1] if parts else None
            if isinstance(last, Label):  # words next to each other are one label
                parts[-1] = Label(last.text + part)
            else:
                parts.append(Label(part))
        elif isinstance(part, MathName):
            parts.append(Sym(part.name))
        else:  # a value that is math, spliced in by Words.parts
            parts.append(part)
    return parts[0] if len(parts) == 1 else Concat(tuple(parts))
