r"""LaTeX of exact values: ``\frac{5\sqrt{2}}{2}``, ``\frac{e^{a}}{e^{a} + e^{b}}``.

>>> from fractions import Fraction
>>> latex_value(Surd.sqrt(Fraction(25, 2)))
'\\frac{5\\sqrt{2}}{2}'
>>> latex_value(Surd.sqrt(Fraction(25, 2)), inline=True)
'5\\sqrt{2}/2'
"""

from __future__ import annotations

import decimal
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..numbers import (
    Combination,
    ExpRatio,
    NegInf,
    SoftmaxRow,
    Surd,
    has_symbols,
    round_half_away,
)
from .precedence import Prec, is_negative, precedence
from .sympy_numbers import NumberPrinter

__all__ = ["LatexPrinter", "NumberLatex", "fmt_decimal", "fraction_latex", "latex_value"]


def fraction_latex(q: Fraction, inline: bool = False) -> str:
    r"""``-3``, ``\frac{1}{2}``, or ``1/2`` inline (in an exponent)."""
    sign = "-" if q < 0 else ""
    num, den = abs(q.numerator), q.denominator
    if den == 1:
        return f"{sign}{num}"
    return f"{sign}{num}/{den}" if inline else rf"{sign}\frac{{{num}}}{{{den}}}"


_WIDE = decimal.Context(prec=60, Emin=decimal.MIN_EMIN, Emax=decimal.MAX_EMAX)


def fmt_decimal(value: Decimal, digits: int) -> str:
    r"""A decimal for display: fixed point, or ``a \times 10^{k}`` when very large or small."""
    if value == 0 or Decimal("1e-4") <= abs(value) < Decimal("1e7"):
        return round_half_away(value, digits)
    exponent = value.adjusted()
    mantissa = value.scaleb(-exponent, context=_WIDE)  # exponents up to 10^18
    return rf"{round_half_away(mantissa, digits)} \times 10^{{{exponent}}}"


class LatexPrinter:
    """Prints exact values in LaTeX; a softmax row's exponentials once per row."""

    def __init__(self) -> None:
        self._rows: dict[tuple[SoftmaxRow, bool], str] = {}
        self._numbers = NumberLatex()

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

        if has_symbols(value):
            return str(sympy.latex(value))
        return self._numbers(value)  # a gradient: each shared piece printed once

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


_ADD, _MUL, _POW, _ATOM = 10, 20, 30, 40


class NumberLatex(NumberPrinter):
    r"""SymPy numbers (the gradients' closed forms) in LaTeX, each distinct piece once,
    terms in the order the tree was built (SymPy's ``latex`` sorts every sum by
    evaluating its terms and walks every tree anew).

    >>> import sympy
    >>> e = sympy.exp(sympy.Rational(1, 2))
    >>> below = sympy.Pow(sympy.Add(e, 1, evaluate=False), -1)
    >>> NumberLatex()(sympy.Mul(-3, e, below, evaluate=False))
    '- \\frac{3 e^{1/2}}{e^{1/2} + 1}'
    """

    def _fresh(self, expr: Any) -> tuple[str, int]:
        import sympy

        if expr.is_Rational:
            q = Fraction(int(expr.p), int(expr.q))
            return fraction_latex(q), _ATOM if q >= 0 and q.denominator == 1 else _MUL
        if expr is sympy.S.Exp1:
            return "e", _ATOM
        if isinstance(expr, sympy.exp):
            arg = expr.args[0]
            inner = (
                fraction_latex(Fraction(int(arg.p), int(arg.q)), True)
                if arg.is_Rational
                else self(arg)
            )
            return f"e^{{{inner}}}", _POW
        if expr.is_Add:
            out = ""
            for n, term in enumerate(expr.args):
                text = self(term)
                if n == 0:
                    out = text
                elif text.startswith("-"):
                    out += f" - {text[1:].lstrip()}"
                else:
                    out += f" + {text}"
            return out, _ADD
        if expr.is_Mul:
            return self._mul(expr.args)
        if expr.is_Pow:
            return self._pow(expr.base, expr.exp)
        return str(sympy.latex(expr)), _ADD

    def _factor(self, expr: Any) -> str:
        text, prec = self._print(expr)
        return rf"\left({text}\right)" if prec <= _ADD or text.startswith("-") else text

    def _mul(self, factors: tuple[Any, ...]) -> tuple[str, int]:
        negative = False
        top: list[str] = []
        bottom: list[str] = []
        for f in factors:
            if f.is_Number and f.is_negative:
                negative, f = not negative, -f
            if f.is_Rational and not f.is_Integer:
                if f.p != 1:
                    top.append(str(f.p))
                bottom.append(str(f.q))
            elif f.is_Pow and f.exp.is_Number and f.exp.is_negative:
                bottom.append(self(f.base) if f.exp == -1 else self._pow(f.base, -f.exp)[0])
            elif f != 1:
                top.append(self._factor(f))
        text = " ".join(top) or "1"
        if bottom:
            text = rf"\frac{{{text}}}{{{' '.join(bottom)}}}"
        return (f"- {text}" if negative else text), _MUL

    def _pow(self, base: Any, power: Any) -> tuple[str, int]:
        import sympy

        if power == sympy.S.Half:
            return rf"\sqrt{{{self(base)}}}", _ATOM
        if power.is_Number and power.is_negative:
            inner = self(base) if power == -1 else self._pow(base, -power)[0]
            return rf"\frac{{1}}{{{inner}}}", _MUL
        text, prec = self._print(base)
        if prec < _ATOM or text.startswith("-"):
            text = rf"\left({text}\right)"
        exponent = str(power.p) if power.is_Integer else self(power)
        return f"{text}^{{{exponent}}}", _POW
