"""SymPy's ``str`` syntax for exact values: what ``sympy.sympify`` reads back.

>>> from fractions import Fraction
>>> sstr(Surd.sqrt(8) * Surd.rational(Fraction(1, 2)))
'sqrt(2)'
>>> sstr(ExpRatio([Surd.rational(1), Surd()], [Surd.rational(Fraction(1, 2)), Surd.rational(2)]))
'exp(1/2)/(exp(1/2) + exp(2))'
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..numbers import Combination, ExpRatio, NegInf, SoftmaxRow, Surd, to_sympy
from .precedence import Prec, precedence

__all__ = ["StrPrinter", "fraction_str", "sstr"]


def fraction_str(q: Fraction) -> str:
    """``3``, ``-1/2``."""
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _join_signed(parts: list[str]) -> str:
    """``a + b - c`` from terms that carry their own leading minus."""
    out = parts[0]
    for part in parts[1:]:
        out += f" - {part[1:]}" if part.startswith("-") else f" + {part}"
    return out


class StrPrinter:
    """Prints values in SymPy ``str`` syntax; the exponentials of a softmax row are
    printed once per row, however many entries share it."""

    def __init__(self) -> None:
        self._rows: dict[SoftmaxRow, tuple[str, ...]] = {}

    def __call__(self, value: Any) -> str:
        if isinstance(value, Surd):
            return self._surd(value)
        if isinstance(value, ExpRatio):
            return self._ratio(value)
        if isinstance(value, Combination):
            return self._combination(value)
        if isinstance(value, NegInf):
            return "-oo"
        if isinstance(value, (int, Fraction)):
            return fraction_str(Fraction(value))
        return str(value)

    def _surd(self, value: Surd) -> str:
        if not value.terms:
            return "0"
        if len(value.terms) > 1:
            # SymPy orders the terms of a sum by rules of its own: let it print them
            return str(to_sympy(value))
        radicand, coef = value.terms[0]
        if radicand == 1:
            return fraction_str(coef)
        sign = "-" if coef < 0 else ""
        num, den = abs(coef.numerator), coef.denominator
        body = f"sqrt({radicand})" if num == 1 else f"{num}*sqrt({radicand})"
        return f"{sign}{body}" if den == 1 else f"{sign}{body}/{den}"

    def exp(self, x: Any) -> str:
        """``exp(x)``; e⁰ is ``1`` and e¹ is ``E``."""
        text = self(x)
        if text == "0":
            return "1"
        if text == "1":
            return "E"
        return f"exp({text})"

    def exps(self, row: SoftmaxRow) -> tuple[str, ...]:
        if row not in self._rows:
            self._rows[row] = tuple(self.exp(x) for x in row.exponents)
        return self._rows[row]

    def factor(self, value: Any) -> str:
        """``value`` as the left factor of a product: a sum is bracketed."""
        text = self(value)
        return f"({text})" if precedence(value) <= Prec.ADD else text

    def _ratio(self, value: ExpRatio) -> str:
        if len(value.exponents) == 1:  # c·e^x / e^x
            return self(value.coefs[0])
        exps = self.exps(value.row)
        parts: list[str] = []
        for c, e_text in zip(value.coefs, exps):
            if isinstance(c, Surd) and c.is_zero():
                continue
            c_text = self(c)
            if c_text == "0":
                continue
            if c_text == "1":
                parts.append(e_text)
            elif e_text == "1":
                parts.append(self.factor(c))
            elif c_text == "-1":
                parts.append(f"-{e_text}")
            else:
                parts.append(f"{self.factor(c)}*{e_text}")
        if not parts:
            return "0"
        numerator = _join_signed(parts)
        if len(parts) > 1:
            numerator = f"({numerator})"
        return f"{numerator}/({' + '.join(exps)})"

    def _combination(self, value: Combination) -> str:
        parts = []
        for c, r in value.terms:
            text = self(r)
            factor = f"({text})" if precedence(r) <= Prec.DIV else text
            coef = self(c)
            parts.append(factor if coef == "1" else f"{self.factor(c)}*{factor}")
        return _join_signed(parts) if parts else "0"


def sstr(value: Any) -> str:
    """One value in SymPy ``str`` syntax (a fresh printer: no row sharing)."""
    return StrPrinter()(value)
