"""SymPy's ``str`` syntax for exact values: what ``sympy.sympify`` reads back.

>>> from fractions import Fraction
>>> sstr(Surd.sqrt(8) * Surd.rational(Fraction(1, 2)))
'sqrt(2)'
>>> sstr(ExpRatio([Surd.rational(1), Surd()], [Surd.rational(Fraction(1, 2)), Surd.rational(2)]))
'exp(1/2)/(exp(1/2) + exp(2))'
"""

from __future__ import annotations

from fractions import Fraction
from operator import add
from typing import Any

from ..numbers import Combination, ExpRatio, NegInf, SoftmaxRow, Surd, has_symbols, to_sympy
from .precedence import Prec, precedence
from .sympy_numbers import NumberPrinter

__all__ = ["StrPrinter", "fraction_str", "sstr", "sympy_text"]


def fraction_str(q: Fraction) -> str:
    """``3``, ``-1/2``."""
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _join_signed(parts: list[str]) -> str:
    """``a + b - c`` from terms that carry their own leading minus."""
    out = parts[0]
    for part in parts[1:]:
        out += f" - {part[1:]}" if part.startswith("-") else f" + {part}"
    return out


class _Plan:
    """The written coefficients of one tuple: which entries, their prefixes (``""``,
    ``"-"``, ``"3*"``, ``"(1 + sqrt(2))*"``) and the signed joins after the first."""

    __slots__ = ("indices", "joins", "terms")

    def __init__(self) -> None:
        self.indices: list[int] = []
        self.terms: list[str] = []
        self.joins: list[str] = []

    def add(self, j: int, term: str) -> None:
        if self.indices:
            self.joins.append(f" - {term[1:]}" if term.startswith("-") else f" + {term}")
        self.indices.append(j)
        self.terms.append(term)


class StrPrinter:
    """Prints values in SymPy ``str`` syntax; the exponentials and the denominator of a
    softmax row are printed once per row, and the coefficient terms of a quotient once
    per tuple of coefficients (the entries of an output column share theirs)."""

    def __init__(self) -> None:
        self._rows: dict[SoftmaxRow, tuple[str, ...]] = {}
        self._dens: dict[SoftmaxRow, str] = {}
        # id → (the object, what it prints as): ids of live objects only
        self._texts: dict[int, tuple[Any, str]] = {}
        self._plans: dict[int, tuple[Any, _Plan]] = {}
        self._numbers = NumberPrinter()

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
        return sympy_text(value, self._numbers)

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

    def _cached(self, value: Any) -> str:
        """``self(value)`` for a value that many entries share (a coefficient)."""
        found = self._texts.get(id(value))
        if found is not None and found[0] is value:
            return found[1]
        text = self(value)
        self._texts[id(value)] = (value, text)
        return text

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

    def _denominator(self, row: SoftmaxRow) -> str:
        if row not in self._dens:
            self._dens[row] = " + ".join(self.exps(row))
        return self._dens[row]

    def factor(self, value: Any) -> str:
        """``value`` as the left factor of a product: a sum is bracketed."""
        text = self._cached(value)
        return f"({text})" if precedence(value) <= Prec.ADD else text

    def _plan(self, coefs: tuple[Any, ...]) -> _Plan:
        """How each nonzero coefficient is written before its exponential."""
        found = self._plans.get(id(coefs))
        if found is not None and found[0] is coefs:
            return found[1]
        plan = _Plan()
        for j, c in enumerate(coefs):
            if isinstance(c, Surd) and c.is_zero():
                continue
            c_text = self._cached(c)
            if c_text == "0":
                continue
            if c_text == "1":
                term = ""
            elif c_text == "-1":
                term = "-"
            else:
                term = f"{self.factor(c)}*"
            plan.add(j, term)
        self._plans[id(coefs)] = (coefs, plan)
        return plan

    def _ratio(self, value: ExpRatio) -> str:
        if len(value.exponents) == 1:  # c·e^x / e^x
            return self(value.coefs[0])
        exps = self.exps(value.row)
        plan = self._plan(value.coefs)
        if not plan.indices:
            return "0"
        picked = [exps[j] for j in plan.indices]
        if "1" in picked:  # an e⁰ term is written as its coefficient alone
            terms = zip(plan.terms, picked)
            numerator = _join_signed(
                [p + e if e != "1" or p in ("", "-") else p[:-1] for p, e in terms]
            )
        else:
            numerator = plan.terms[0] + picked[0] + "".join(map(add, plan.joins, picked[1:]))
        if len(picked) > 1:
            numerator = f"({numerator})"
        return f"{numerator}/({self._denominator(value.row)})"

    def _combination(self, value: Combination) -> str:
        parts = []
        for c, r in value.terms:
            text = self(r)
            factor = f"({text})" if precedence(r) <= Prec.DIV else text
            coef = self(c)
            parts.append(factor if coef == "1" else f"{self.factor(c)}*{factor}")
        return _join_signed(parts) if parts else "0"


def sympy_text(expr: Any, numbers: NumberPrinter | None = None) -> str:
    """A SymPy expression in ``str`` syntax.  A number (a gradient's closed form) is
    printed by :class:`NumberPrinter` (terms in the order the tree was built, every
    shared piece printed once; SymPy's printer sorts each sum by evaluating its terms
    and walks every tree anew, which took minutes for the backward pass).  Expressions
    with symbols are printed by SymPy.

    >>> import sympy
    >>> sympy_text(sympy.exp(2) + 1) in ("1 + exp(2)", "exp(2) + 1")
    True
    """
    if has_symbols(expr):
        return str(expr)
    return (numbers or NumberPrinter())(expr)


def sstr(value: Any) -> str:
    """One value in SymPy ``str`` syntax (a fresh printer: no row sharing)."""
    return StrPrinter()(value)
