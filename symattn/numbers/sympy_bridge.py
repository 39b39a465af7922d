"""SymPy objects of exact values, for symbolic problems and for users who want them.

SymPy is imported here only when a conversion is asked for, which keeps a numeric
derivation fast to start.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .closed import Combination, ExpRatio, NegInf
from .surd import Surd

__all__ = ["has_symbols", "to_sympy"]


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


def has_symbols(value: Any) -> bool:
    """``bool(value.free_symbols)``, True for what is not a SymPy expression, walking
    each distinct subexpression once: SymPy's ``free_symbols`` walks a tree that shares
    its pieces (a gradient) as if it did not, which took minutes at size 6.

    >>> import sympy
    >>> x = sympy.Symbol("x")
    >>> has_symbols(sympy.exp(x) + 1), has_symbols(sympy.sqrt(2) + 1), has_symbols(3)
    (True, False, True)
    """
    if not hasattr(type(value), "free_symbols"):  # not asked of the value: that walks
        return True
    import sympy

    if not isinstance(value, sympy.Basic):
        return bool(value.free_symbols)
    basic = sympy.Basic.__dict__["free_symbols"]
    seen: set[int] = set()
    todo = [value]
    while todo:
        expr = todo.pop()
        if id(expr) in seen:
            continue
        seen.add(id(expr))
        own = next(
            c.__dict__["free_symbols"] for c in type(expr).__mro__ if "free_symbols" in c.__dict__
        )
        if own is not basic:  # a Symbol, or a class with bound variables: ask it
            if expr.free_symbols:
                return True
            continue
        todo.extend(expr.args)  # the union of the arguments' free symbols
    return False
