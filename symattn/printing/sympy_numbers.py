"""SymPy numbers (the gradients' closed forms) in SymPy ``str`` syntax, each distinct
subexpression printed once.

The backward pass's entries are large trees that share their pieces (the weights'
closed forms appear in every gradient); SymPy's own printer walks every tree anew and
asks each node its precedence and sign, which took minutes at size 5.  This printer
remembers what it printed, so its time follows the length of its output.  Terms keep
the order in which the tree was built; the text is what ``sympy.sympify`` reads back.

>>> import sympy
>>> half = sympy.Rational(1, 2)
>>> e = sympy.exp(half)
>>> below = sympy.Pow(sympy.Add(e, 1, evaluate=False), -1)
>>> NumberPrinter()(sympy.Mul(-3, e, below, evaluate=False))
'-3*exp(1/2)/(exp(1/2) + 1)'
"""

from __future__ import annotations

from typing import Any

__all__ = ["NumberPrinter"]

ADD, MUL, POW, ATOM = 10, 20, 30, 40


class NumberPrinter:
    """Prints SymPy numbers without symbols; one instance shares its memory across calls."""

    def __init__(self) -> None:
        self._memo: dict[Any, tuple[str, int]] = {}

    def __call__(self, expr: Any) -> str:
        return self._print(expr)[0]

    def _print(self, expr: Any) -> tuple[str, int]:
        found = self._memo.get(expr)
        if found is None:
            found = self._memo[expr] = self._fresh(expr)
        return found

    def _fresh(self, expr: Any) -> tuple[str, int]:
        import sympy

        if expr.is_Integer:
            return str(expr.p), ATOM if expr.p >= 0 else MUL
        if expr.is_Rational:
            return f"{expr.p}/{expr.q}", MUL
        if expr is sympy.S.Exp1:
            return "E", ATOM
        if isinstance(expr, sympy.exp):
            return f"exp({self(expr.args[0])})", ATOM
        if isinstance(expr, (sympy.sin, sympy.cos, sympy.tanh)):  # the transcendental topics
            return f"{type(expr).__name__}({self(expr.args[0])})", ATOM
        if expr.is_Add:
            return self._add(expr), ADD
        if expr.is_Mul:
            return self._mul(expr.args)
        if expr.is_Pow:
            return self._pow(expr.base, expr.exp)
        return f"({expr})", ATOM  # anything else SymPy prints, bracketed

    def _add(self, expr: Any) -> str:
        out = ""
        for n, term in enumerate(expr.args):
            text = self(term)
            if n == 0:
                out = text
            elif text.startswith("-"):
                out += f" - {text[1:]}"
            else:
                out += f" + {text}"
        return out

    def _factor(self, expr: Any) -> str:
        text, prec = self._print(expr)
        return f"({text})" if prec < MUL or text.startswith("-") else text

    def _mul(self, factors: tuple[Any, ...]) -> tuple[str, int]:
        negative = False
        top: list[str] = []
        bottom: list[tuple[str, int]] = []
        for f in factors:
            if f.is_Number and f.is_negative:
                negative, f = not negative, -f
            if f.is_Rational and not f.is_Integer:
                if f.p != 1:
                    top.append(str(f.p))
                bottom.append((str(f.q), ATOM))
            elif f.is_Pow and f.exp.is_Number and f.exp.is_negative:
                bottom.append(self._pow(f.base, -f.exp) if f.exp != -1 else self._print(f.base))
            elif f != 1:
                top.append(self._factor(f))
        text = "*".join(top) or "1"
        if len(bottom) == 1:
            below, prec = bottom[0]
            text += f"/{below}" if prec >= POW else f"/({below})"
        elif bottom:
            inner = "*".join(t if p >= MUL else f"({t})" for t, p in bottom)
            text += f"/({inner})"
        return (f"-{text}" if negative else text), MUL

    def _pow(self, base: Any, power: Any) -> tuple[str, int]:
        import sympy

        if power == sympy.S.Half:
            return f"sqrt({self(base)})", ATOM
        if power.is_Number and power.is_negative:
            inner, prec = self._pow(base, -power) if power != -1 else self._print(base)
            return (f"1/{inner}" if prec >= POW else f"1/({inner})"), MUL
        text, prec = self._print(base)
        if prec < ATOM or text.startswith("-"):
            text = f"({text})"
        exponent = str(power.p) if power.is_Integer else f"({self(power)})"
        return f"{text}**{exponent}", POW
