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
MAX_BACKWARD_SIZE = 6


def _sym(matrix: Matrix) -> list[list[Any]]:
    return [[to_sympy(x) for x in row] for row in matrix]


def _t(matrix: list[list[Any]]) -> list[list[Any]]:
    return [list(col) for col in zip(*matrix)]


def _matmul(a: list[list[Any]], b: list[list[Any]]) -> list[list[Any]]:
    import sympy

    return [[sympy.Add(*(x * y for x, y in zip(row, col))) for col in zip(*b)] for row in a]


def _frozen(matrix: list[list[Any]]) -> Matrix:
    return tuple(tuple(row) for row in matrix)


def _product(spec: StepSpec, args: list[Matrix], problem: Problem) -> Matrix:
    total: list[list[Any]] | None = None
    for left, right in zip(args[::2], args[1::2]):
        a, b = _sym(left), _sym(right)
        term = _matmul(_t(a) if spec.transpose_left else a, _t(b) if spec.transpose_right else b)
        total = (
            term if total is None else [[x + y for x, y in zip(r, s)] for r, s in zip(total, term)]
        )
    assert total is not None
    return _frozen(total)


def _jacobian(spec: StepSpec, args: list[Matrix], problem: Problem) -> Matrix:
    """dS'_ij = a_ij (dA_ij − Σ_k a_ik dA_ik); a masked weight (a = 0) gives exactly 0."""
    import sympy

    rows = []
    for a_row, g_row in zip(_sym(args[0]), _sym(args[1])):
        inner = sympy.Add(*(a * g for a, g in zip(a_row, g_row)))
        rows.append([a * (g - inner) if a != 0 else sympy.Integer(0) for a, g in zip(a_row, g_row)])
    return _frozen(rows)


def _given(spec: StepSpec, args: list[Matrix], problem: Problem) -> Matrix:
    assert spec.source is not None
    return _frozen(_sym(spec.source.take(problem)))


def _difference(spec: StepSpec, args: list[Matrix], problem: Problem) -> Matrix:
    assert spec.source is not None
    target = _sym(spec.source.take(problem))
    return _frozen([[o - t for o, t in zip(r, s)] for r, s in zip(_sym(args[0]), target)])


def _scale(spec: StepSpec, args: list[Matrix], problem: Problem) -> Matrix:
    c = to_sympy(spec.divisor)
    return _frozen([[x / c for x in row] for row in args[0]])


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
