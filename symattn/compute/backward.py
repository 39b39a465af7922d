"""The backward pass: every gradient of attention, exactly and step by step.

Starting from ``dO`` (or from a ``target`` T, with L = ½‖O − T‖² and dO = O − T)::

    dV = Aᵀ dO            dA = dO Vᵀ
    dS'_i = (diag(a_i) − a_i a_iᵀ) dA_i        (the softmax Jacobian, row by row)
    dS = dS' / c          dQ = dS K            dK = dSᵀ Q
    dW_Q = Xᵀ dQ          dW_K = X_kvᵀ dK       dW_V = X_kvᵀ dV
    dX = dQ W_Qᵀ + dK W_Kᵀ + dV W_Vᵀ   (only the dQ term for cross-attention)

The plan is :func:`symattn.plan.backward_plan`; the exact entries are SymPy
expressions built from the forward pass's closed forms (never simplified), and the
values come from the forward values by the decimal rules of :mod:`.values`.  Masked
entries of dS' are exactly 0.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..derivation import Derivation
from ..errors import SymattnError
from ..numbers import to_sympy
from ..plan import backward_plan
from ..problem import Matrix, Problem
from ..steps import Kind, StepSpec
from .exact import ExactRule
from .forward import execute

__all__ = ["MAX_BACKWARD_SIZE", "extend"]

#: The backward closed forms grow fast; larger problems get a clear error.
MAX_BACKWARD_SIZE = 7


def _sym(matrix: Matrix) -> list[list[Any]]:
    return [[to_sympy(x) for x in row] for row in matrix]


def _t(matrix: list[list[Any]]) -> list[list[Any]]:
    return [list(col) for col in zip(*matrix)]


def _times(x: Any, y: Any) -> Any:
    """x·y, kept as built: SymPy's automatic distribution of a number over a sum
    (2·(a + b) → 2a + 2b) made the gradients' trees, and their time, grow fast."""
    import sympy

    if x is sympy.S.Zero or y is sympy.S.Zero:
        return sympy.S.Zero
    if _surd(x) and _surd(y):
        return x * y
    if x is sympy.S.One:
        return y
    if y is sympy.S.One:
        return x
    if y.is_Number:  # the number first: 2·(…), as on paper
        x, y = y, x
    return sympy.Mul(x, y, evaluate=False)


def _sum(terms: Iterable[Any]) -> Any:
    """Σ terms: the numbers folded into one, the rest kept as built."""
    import sympy

    numbers: list[Any] = []
    rest: list[Any] = []
    for t in terms:
        (numbers if _surd(t) else rest).append(t)
    number = sympy.Add(*numbers)
    if number != 0 or not rest:
        rest.append(number)
    return rest[0] if len(rest) == 1 else sympy.Add(*rest, evaluate=False)


def _surd(x: Any, depth: int = 0) -> bool:
    """A rational or a surd (c·√r, or a small sum of them): SymPy folds these cheaply."""
    if x.is_Number:
        return True
    if x.is_Pow:
        return bool(x.base.is_Number and x.exp.is_Rational)
    if (x.is_Mul or x.is_Add) and depth < 3:
        return all(_surd(a, depth + 1) for a in x.args)
    return False


def _minus(x: Any) -> Any:
    import sympy

    return -x if _surd(x) else sympy.Mul(sympy.S.NegativeOne, x, evaluate=False)


def _matmul(a: list[list[Any]], b: list[list[Any]]) -> list[list[Any]]:
    return [[_sum(_times(x, y) for x, y in zip(row, col)) for col in zip(*b)] for row in a]


def _frozen(matrix: list[list[Any]]) -> Matrix:
    return tuple(tuple(row) for row in matrix)


def _product(spec: StepSpec, args: list[Matrix], problem: Problem) -> Matrix:
    total: list[list[Any]] | None = None
    for left, right in zip(args[::2], args[1::2]):
        a, b = _sym(left), _sym(right)
        term = _matmul(_t(a) if spec.transpose_left else a, _t(b) if spec.transpose_right else b)
        total = (
            term
            if total is None
            else [[_sum((x, y)) for x, y in zip(r, s)] for r, s in zip(total, term)]
        )
    assert total is not None
    return _frozen(total)


def _jacobian(spec: StepSpec, args: list[Matrix], problem: Problem) -> Matrix:
    """dS'_ij = a_ij (dA_ij − Σ_k a_ik dA_ik); a masked weight (a = 0) gives exactly 0."""
    import sympy

    rows = []
    for a_row, g_row in zip(_sym(args[0]), _sym(args[1])):
        inner = _sum(_times(a, g) for a, g in zip(a_row, g_row))
        rows.append(
            [
                _times(a, _sum((g, _minus(inner)))) if a != 0 else sympy.S.Zero
                for a, g in zip(a_row, g_row)
            ]
        )
    return _frozen(rows)


def _given(spec: StepSpec, args: list[Matrix], problem: Problem) -> Matrix:
    assert spec.source is not None
    return _frozen(_sym(spec.source.take(problem)))


def _difference(spec: StepSpec, args: list[Matrix], problem: Problem) -> Matrix:
    assert spec.source is not None
    target = _sym(spec.source.take(problem))
    return _frozen(
        [[_sum((o, _minus(t))) for o, t in zip(r, s)] for r, s in zip(_sym(args[0]), target)]
    )


def _scale(spec: StepSpec, args: list[Matrix], problem: Problem) -> Matrix:
    c = 1 / to_sympy(spec.divisor)
    return _frozen([[_times(c, x) for x in row] for row in args[0]])


def _columns(spec: StepSpec, args: list[Matrix], problem: Problem) -> Matrix:
    assert spec.columns is not None
    start, stop = spec.columns
    return tuple(tuple(row[start:stop]) for row in args[0])


BACKWARD_RULES: dict[Kind, ExactRule] = {
    Kind.GIVEN: _given,
    Kind.DIFFERENCE: _difference,
    Kind.PRODUCT: _product,
    Kind.SUM_OF_PRODUCTS: _product,
    Kind.JACOBIAN: _jacobian,
    Kind.SCALE: _scale,
    Kind.COLUMNS: _columns,
}


def extend(derivation: Derivation) -> Derivation:
    """The derivation with the backward steps appended."""
    p = derivation.problem
    if p.dO is None and p.target is None:
        raise SymattnError(
            f"{p.source}: the backward pass needs an upstream gradient: give dO (n × d_v), or "
            "a target T for the loss ½‖O − T‖²"
        )
    size = max(p.n, p.m, p.d_model or 0, p.d_k, p.d_v)
    if size > MAX_BACKWARD_SIZE:
        raise SymattnError(
            f"{p.source}: the backward pass derives problems up to size {MAX_BACKWARD_SIZE} "
            f"(n, m, d_model, d_k, d_v); this one has {size}"
        )
    return execute(backward_plan(p), p, BACKWARD_RULES, derivation.precision, before=derivation)
