"""SymPy objects of exact values, for symbolic problems and for users who want them.

SymPy is imported here only when a conversion is asked for, which keeps a numeric
derivation fast to start.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .closed import Combination, ExpRatio, NegInf
from .surd import Surd

__all__ = ["to_sympy"]


def to_sympy(value: Any) -> Any:
    """The SymPy expression of an exact value (SymPy expressions pass through).

    >>> to_sympy(Surd.sqrt(8))
    2*sqrt(2)
    """
    import sympy

    if isinstance(value, Surd):
        return sympy.Add(
            *(sympy.Rational(c.numerator, c.denominator) * sympy.sqrt(r) for r, c in value.terms)
        )
    if isinstance(value, NegInf):
        return -sympy.oo
    if isinstance(value, ExpRatio):
        exps = [sympy.exp(to_sympy(x)) for x in value.exponents]
        num = sympy.Add(*(to_sympy(c) * e for c, e in zip(value.coefs, exps)))
        return num / sympy.Add(*exps)
    if isinstance(value, Combination):
        return sympy.Add(*(to_sympy(c) * to_sympy(r) for c, r in value.terms))
    if isinstance(value, (int, Fraction)):
        q = Fraction(value)
        return sympy.Rational(q.numerator, q.denominator)
    return sympy.sympify(value)
