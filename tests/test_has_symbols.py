"""``has_symbols`` is ``bool(expr.free_symbols)`` (True for what is not SymPy), but walks
each shared piece of an expression once: a gradient's tree shares its pieces, and SymPy's
``free_symbols`` walks it as if it did not (minutes for the backward pass at size 6)."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from symattn.numbers import Surd, has_symbols

x, y, n = sympy.symbols("x y n")

CASES = [
    x + 1,
    sympy.sqrt(2) * sympy.exp(sympy.Rational(1, 2)),
    sympy.E,
    sympy.pi,
    -sympy.oo,
    sympy.Integer(0),
    sympy.Integral(x, (x, 0, 1)),  # a bound variable only
    sympy.Integral(x, y),
    sympy.Derivative(x + y, y),
    sympy.Lambda(x, x + 1),
    sympy.Lambda(x, x + y),
    sympy.Sum(x, (x, 1, 3)),
    sympy.Sum(x, (x, 1, n)),
    sympy.IndexedBase("F")[0],
    sympy.Matrix([[x]]),
    sympy.Matrix([[1]]),
    sympy.exp(sympy.Add(sympy.sqrt(3), x, evaluate=False)),
]


@pytest.mark.parametrize("expr", CASES, ids=str)
def test_same_as_free_symbols(expr: object) -> None:
    assert has_symbols(expr) == bool(expr.free_symbols)  # type: ignore[attr-defined]


@pytest.mark.parametrize("value", [1, Fraction(1, 2), "x", Surd.sqrt(2), None])
def test_not_sympy_counts_as_symbols(value: object) -> None:
    assert has_symbols(value)


@pytest.mark.parametrize("leaf", [sympy.sqrt(2), x])
def test_a_shared_tree(leaf: sympy.Expr) -> None:
    """2^20 paths from the top, 21 distinct pieces (the time is bench_backward.py's)."""
    e = leaf
    for _ in range(20):
        e = sympy.Add(e, sympy.Mul(2, e, evaluate=False), evaluate=False)
    assert has_symbols(e) == (leaf == x)
