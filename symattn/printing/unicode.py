"""Unicode for the terminal: ``3√2/2``, ``e^(√2) / (e^(√2) + e^(5√2/2))``, ``x₁²``, ``−∞``.

>>> from fractions import Fraction
>>> pretty(Surd.sqrt(Fraction(9, 2)))
'3√2/2'
>>> pretty(ExpRatio([Surd.rational(1), Surd()], [Surd.sqrt(2), Surd.rational(1)]))
'e^(√2) / (e^(√2) + e)'
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..numbers import Combination, ExpRatio, NegInf, SoftmaxRow, Surd, has_symbols
from .precedence import Prec, is_negative, precedence
from .sympy_str import fraction_str

__all__ = ["UnicodePrinter", "pretty", "superscript"]

_SUPER = str.maketrans("0123456789-()", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁽⁾")


def superscript(text: str) -> str:
    """``12`` → ``¹²``."""
    return text.translate(_SUPER)


class UnicodePrinter:
    """Prints exact values for the terminal; a softmax row's exponentials once per row."""

    def __init__(self) -> None:
        self._rows: dict[SoftmaxRow, tuple[str, ...]] = {}
        self._memo: dict[tuple[Any, bool], str] = {}
        self._numeric = False

    def __call__(self, value: Any) -> str:
        if isinstance(value, Surd):
            return self._surd(value)
        if isinstance(value, NegInf):
            return "−∞"
        if isinstance(value, ExpRatio):
            return self._ratio(value)
        if isinstance(value, Combination):
            return self._combination(value)
        if isinstance(value, (int, Fraction)):
            return fraction_str(Fraction(value))
        return self._top(value)

    def bracketed(self, value: Any) -> str:
        """``value`` as a factor or a substituted number: negatives, quotients and sums
        are bracketed (``(-1)``, ``(1/2)``, ``(1 + √3)``); ``2``, ``√2``, ``2√2`` are not."""
        text = self(value)
        if is_negative(value) or precedence(value) <= Prec.DIV:
            return f"({text})"
        return text

    def _surd(self, value: Surd) -> str:
        if not value.terms:
            return "0"
        parts = []
        for radicand, coef in value.terms:
            if radicand == 1:
                parts.append(fraction_str(coef))
                continue
            sign = "-" if coef < 0 else ""
            num, den = abs(coef.numerator), coef.denominator
            body = f"√{radicand}" if num == 1 else f"{num}√{radicand}"
            parts.append(f"{sign}{body}" if den == 1 else f"{sign}{body}/{den}")
        out = parts[0]
        for part in parts[1:]:
            out += f" - {part[1:]}" if part.startswith("-") else f" + {part}"
        return out

    def exp(self, x: Any) -> str:
        """``e^(√2)``, ``e^2``; e⁰ is ``1`` and e¹ is ``e``."""
        text = self(x)
        if text == "0":
            return "1"
        if text == "1":
            return "e"
        return f"e^{text}" if text.isdigit() else f"e^({text})"

    def exps(self, row: SoftmaxRow) -> tuple[str, ...]:
        if row not in self._rows:
            self._rows[row] = tuple(self.exp(x) for x in row.exponents)
        return self._rows[row]

    def _ratio(self, value: ExpRatio) -> str:
        if len(value.exponents) == 1:
            return self(value.coefs[0])
        exps = self.exps(value.row)
        parts: list[tuple[bool, str]] = []  # (negative, term without its sign)
        for c, e in zip(value.coefs, exps):
            if (isinstance(c, Surd) and c.is_zero()) or self(c) == "0":
                continue
            if self(c) == "1":
                parts.append((False, e))
            else:
                parts.append((False, f"{self.bracketed(c)}·{e}"))
        if not parts:
            return "0"
        num = parts[0][1]
        for _, term in parts[1:]:
            num += f" + {term}"
        if len(parts) > 1:
            num = f"({num})"
        return f"{num} / ({' + '.join(exps)})"

    def _combination(self, value: Combination) -> str:
        parts = []
        for c, r in value.terms:
            factor = f"({self(r)})" if precedence(r) <= Prec.DIV else self(r)
            parts.append(factor if self(c) == "1" else f"{self.bracketed(c)}·{factor}")
        return " + ".join(parts) if parts else "0"

    # -- SymPy expressions (symbolic problems and the backward pass) ------------------
    def _top(self, expr: Any) -> str:
        """A whole SymPy expression: is it a number (one walk), then print it."""
        self._numeric = not has_symbols(expr)
        return self._sympy(expr)

    def _sympy(self, expr: Any) -> str:
        """Each distinct subexpression once (a gradient's tree shares its pieces)."""
        key = (expr, self._numeric)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._sympy_fresh(expr)
        return found

    def _sympy_fresh(self, expr: Any) -> str:
        import sympy

        if expr.is_Add:
            # a number's terms in SymPy's stored order (sorting them evaluates each one)
            ordered = expr.args if self._numeric else expr.as_ordered_terms()
            terms = [self._sympy(t) for t in ordered]
            out = terms[0]
            for term in terms[1:]:
                out += f" - {term[1:]}" if term.startswith("-") else f" + {term}"
            return out
        if expr.is_Mul:
            return self._mul(expr)
        if expr.is_Pow:
            return self._pow(expr)
        if isinstance(expr, sympy.exp):
            inner = self._sympy(expr.args[0])
            return f"e^{inner}" if inner.isdigit() else f"e^({inner})"
        if expr.is_Rational:
            return fraction_str(Fraction(int(expr.p), int(expr.q)))
        if expr is sympy.S.Exp1:
            return "e"
        if expr is sympy.S.NegativeInfinity:
            return "−∞"
        return str(expr)

    def _factor(self, expr: Any) -> str:
        text = self._sympy(expr)
        return f"({text})" if precedence(expr) <= Prec.ADD else text

    def _mul(self, expr: Any) -> str:
        import sympy

        sign = ""
        if expr.could_extract_minus_sign():
            expr, sign = -expr, "-"
        numerator: list[Any] = []
        denominator: list[Any] = []
        factors = (
            (expr.args if self._numeric else expr.as_ordered_factors()) if expr.is_Mul else [expr]
        )
        for factor in factors:
            if factor.is_Rational and factor.q != 1:
                if factor.p != 1:
                    numerator.append(sympy.Integer(factor.p))
                denominator.append(sympy.Integer(factor.q))
            elif factor.is_Pow and factor.exp.is_Rational and factor.exp.is_negative:
                denominator.append(factor.base ** (-factor.exp))
            else:
                numerator.append(factor)
        top = "·".join(self._factor(f) for f in numerator) or "1"
        if not denominator:
            return sign + top
        bottom = "·".join(self._factor(f) for f in denominator)
        if len(denominator) > 1:
            bottom = f"({bottom})"
        return f"{sign}{top}/{bottom}"

    def _pow(self, expr: Any) -> str:
        base, power = expr.base, expr.exp
        if power == sympy_half():
            inner = self._sympy(base)
            return f"√{inner}" if base.is_Atom else f"√({inner})"
        if power.is_Rational and power.is_negative:
            return self._mul(expr)
        base_text = self._sympy(base)
        if not base.is_Atom or base_text.startswith("-"):
            base_text = f"({base_text})"
        if power.is_Integer:
            return base_text + superscript(str(power))
        return f"{base_text}^({self._sympy(power)})"


def sympy_half() -> Any:
    import sympy

    return sympy.Rational(1, 2)


def pretty(value: Any) -> str:
    """One value in Unicode (a fresh printer: no row sharing)."""
    return UnicodePrinter()(value)
