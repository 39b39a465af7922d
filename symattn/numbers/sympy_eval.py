"""A memoised evaluator of SymPy expressions (the gradients' exact entries) by ball
arithmetic: each distinct subexpression is evaluated once, however many entries share
it, where ``sympy.N`` would walk every tree again.

>>> import sympy
>>> x = sympy.exp(sympy.Rational(1, 2))
>>> str(SympyEvaluator(12)(x / (x + 1)))
'0.622459331202'
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from flint import arb, fmpq

from .balls import MAX_BITS, DigitsUnavailable, bits_for, precision, to_decimal

__all__ = ["SympyEvaluator"]


class SympyEvaluator:
    """SymPy numbers to ``digits`` significant digits, every digit but the last certain."""

    def __init__(self, digits: int) -> None:
        self.digits = digits
        self._memo: dict[int, dict[Any, arb]] = {}

    def __call__(self, expr: Any) -> Decimal:
        need = bits_for(self.digits)
        bits = need + 64
        while bits <= MAX_BITS:
            memo = self._memo.setdefault(bits, {})
            with precision(bits):
                b = self._ball(expr, memo)
            if b.is_exact() or b.rel_accuracy_bits() >= need:
                return to_decimal(b, self.digits)
            if bits > 4 * need and b.contains(0) and b.rad() < arb(2) ** (-4 * need):
                return Decimal(0)  # an unsimplified 0 (g − Σ a g over one key), say
            bits *= 2
        raise DigitsUnavailable(
            f"a gradient is too close to 0 to evaluate with {MAX_BITS} bits of precision"
        )

    def _ball(self, expr: Any, memo: dict[Any, arb]) -> arb:
        found = memo.get(expr)
        if found is not None:
            return found
        import sympy

        if expr.is_Rational:
            value = arb(fmpq(int(expr.p), int(expr.q)))
        elif expr.is_Add:
            value = arb(0)
            for term in expr.args:
                value += self._ball(term, memo)
        elif expr.is_Mul:
            value = arb(1)
            for factor in expr.args:
                value *= self._ball(factor, memo)
        elif expr.is_Pow:
            value = self._power(expr, memo)
        elif isinstance(expr, sympy.exp):
            value = self._ball(expr.args[0], memo).exp()
        elif isinstance(expr, (sympy.sin, sympy.cos, sympy.tanh)):  # the transcendental topics
            inner = self._ball(expr.args[0], memo)
            value = getattr(inner, type(expr).__name__)()
        elif expr is sympy.S.Exp1:
            value = arb.const_e()
        elif expr.free_symbols:
            raise ValueError("a value with symbols has no decimal")
        else:  # anything else SymPy can evaluate: through a string, at the current bits
            digits = int(self.digits * 1.5) + 20
            value = arb(str(sympy.N(expr, digits)))
        memo[expr] = value
        return value

    def _power(self, expr: Any, memo: dict[Any, arb]) -> arb:
        base = self._ball(expr.base, memo)
        power = expr.exp
        if power.is_Integer:
            n = int(power)
            return base**n if n >= 0 else 1 / base ** (-n)
        if power.is_Rational and int(power.q) == 2:
            root = base.sqrt()
            n = int(power.p)
            return root**n if n >= 0 else 1 / root ** (-n)
        return base ** self._ball(power, memo)
