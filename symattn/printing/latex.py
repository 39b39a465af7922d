r"""LaTeX of exact values: ``\frac{5\sqrt{2}}{2}``, ``\frac{e^{a}}{e^{a} + e^{b}}``.

>>> from fractions import Fraction
>>> latex_value(Surd.sqrt(Fraction(25, 2)))
'\\frac{5\\sqrt{2}}{2}'
>>> latex_value(Surd.sqrt(Fraction(25, 2)), inline=True)
'5\\sqrt{2}/2'
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..numbers import Combination, ExpRatio, NegInf, SoftmaxRow, Surd, round_half_away
from .precedence import Prec, is_negative, precedence

__all__ = ["LatexPrinter", "fmt_decimal", "fraction_latex", "latex_value"]


def fraction_latex(q: Fraction, inline: bool = False) -> str:
    r"""``-3``, ``\frac{1}{2}``, or ``1/2`` inline (in an exponent)."""
    sign = "-" if q < 0 else ""
    num, den = abs(q.numerator), q.denominator
    if den == 1:
        return f"{sign}{num}"
    return f"{sign}{num}/{den}" if inline else rf"{sign}\frac{{{num}}}{{{den}}}"


def fmt_decimal(value: Decimal, digits: int) -> str:
    r"""A decimal for display: fixed point, or ``a \times 10^{k}`` when very large or small."""
    if value == 0 or Decimal("1e-4") <= abs(value) < Decimal("1e7"):
        return round_half_away(value, digits)
    exponent = value.adjusted()
    mantissa = value.scaleb(-exponent)
    return rf"{round_half_away(mantissa, digits)} \times 10^{{{exponent}}}"


class LatexPrinter:
    """Prints exact values in LaTeX; a softmax row's exponentials once per row."""

    def __init__(self) -> None:
        self._rows: dict[tuple[SoftmaxRow, bool], str] = {}

    def __call__(self, value: Any, inline: bool = False) -> str:
        if isinstance(value, NegInf):
            return r"-\infty"
        if isinstance(value, Surd):
            return self._surd(value, inline)
        if isinstance(value, (int, Fraction)):
            return fraction_latex(Fraction(value), inline)
        if isinstance(value, ExpRatio):
            return self._ratio(value)
        if isinstance(value, Combination):
            parts = [
                ("" if c == Surd.rational(1) else self.factor(c) + " ") + self(r)
                for c, r in value.terms
            ]
            return " + ".join(parts) or "0"
        import sympy

        if getattr(value, "free_symbols", True):
            return str(sympy.latex(value))
        return str(sympy.latex(value, order="none"))  # no numeric sorting of the terms

    def factor(self, value: Any) -> str:
        r"""``value`` as a factor or a substituted number: negatives and sums are put in
        ``\left( \right)``; fractions are not (they stand apart on paper)."""
        text = self(value)
        if is_negative(value) or precedence(value) <= Prec.ADD:
            return rf"\left({text}\right)"
        return text

    def _surd(self, value: Surd, inline: bool) -> str:
        if not value.terms:
            return "0"
        parts = []
        for radicand, coef in value.terms:
            if radicand == 1:
                parts.append(fraction_latex(coef, inline))
                continue
            sign = "-" if coef < 0 else ""
            num, den = abs(coef.numerator), coef.denominator
            body = rf"\sqrt{{{radicand}}}" if num == 1 else rf"{num}\sqrt{{{radicand}}}"
            if den == 1:
                parts.append(f"{sign}{body}")
            else:
                parts.append(
                    f"{sign}{body}/{den}" if inline else rf"{sign}\frac{{{body}}}{{{den}}}"
                )
        out = parts[0]
        for part in parts[1:]:
            out += f" - {part[1:]}" if part.startswith("-") else f" + {part}"
        return out

    def exp(self, x: Any) -> str:
        """``e^{x}`` with the exponent written inline."""
        return f"e^{{{self(x, inline=True)}}}"

    def _denominator(self, row: SoftmaxRow) -> str:
        memo = (row, True)
        if memo not in self._rows:
            self._rows[memo] = " + ".join(self.exp(x) for x in row.exponents)
        return self._rows[memo]

    def _ratio(self, value: ExpRatio) -> str:
        terms = []
        for c, x in zip(value.coefs, value.exponents):
            if isinstance(c, Surd) and c.is_zero():
                continue
            coef = self(c)
            terms.append(self.exp(x) if coef == "1" else f"{self.factor(c)} {self.exp(x)}")
        num = " + ".join(terms) or "0"
        return rf"\frac{{{num}}}{{{self._denominator(value.row)}}}"


def latex_value(value: Any, inline: bool = False) -> str:
    """One value in LaTeX (a fresh printer: no row sharing)."""
    return LatexPrinter()(value, inline)
