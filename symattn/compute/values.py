"""Each kind of step on decimal values: the one implementation that both the exact
engine (for the values behind closed forms) and the mistake-model evaluator use.

Every function works in the current :mod:`decimal` context; the caller sets the
precision once.  A spec's mistake-model fields (``softmax``, ``mask_after``,
``transposed``, ``round_operand``) change what is computed, as a student would.
"""

from __future__ import annotations

import decimal
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal

from ..errors import NotApplicable
from ..numbers import evaluate
from ..numbers.decimals import (
    NEG_INF,
    DecimalMatrix,
    add,
    dec_matrix,
    matmul,
    round_to,
    softmax_rows,
    transpose,
)
from ..problem import Problem
from ..steps import Kind, StepSpec
from ..topics import CORE_KINDS, TopicTable

__all__ = [
    "DECIMAL_RULES",
    "DecimalMatrix",
    "NotApplicable",
    "apply",
    "dec_matrix",
    "matmul",
    "transpose",
]


def softmax(spec: StepSpec, scores: DecimalMatrix, problem: Problem) -> DecimalMatrix:
    """The weights as ``spec`` says: by rows (right), or as a mistake model computes them."""
    if spec.softmax == "none":
        weights = [[s if s.is_finite() else Decimal(0) for s in row] for row in scores]
    elif spec.softmax == "columns":
        weights = transpose(softmax_rows(transpose(scores), use_exp=True))
    elif spec.softmax == "global":
        flat = softmax_rows([[x for row in scores for x in row]], use_exp=True)[0]
        width = len(scores[0])
        weights = [flat[i * width : (i + 1) * width] for i in range(len(scores))]
    else:
        weights = softmax_rows(scores, use_exp=spec.softmax != "no_exp")
    if spec.mask_after and problem.mask is not None:
        weights = [
            [w if keep else Decimal(0) for w, keep in zip(row, mask_row)]
            for row, mask_row in zip(weights, problem.mask)
        ]
    return weights


def jacobian(
    weights: DecimalMatrix, upstream: DecimalMatrix, diagonal_only: bool = False
) -> DecimalMatrix:
    """Row i: dS'_ij = a_ij (g_ij − Σ_k a_ik g_ik) (or a_ij (1 − a_ij) g_ij, the diagonal
    of the Jacobian only, as a student may write it)."""
    out = []
    for a_row, g_row in zip(weights, upstream):
        if diagonal_only:
            out.append([a * (1 - a) * g for a, g in zip(a_row, g_row)])
            continue
        inner = sum((a * g for a, g in zip(a_row, g_row)), Decimal(0))
        out.append([a * (g - inner) for a, g in zip(a_row, g_row)])
    return out


DecimalRule = Callable[
    [StepSpec, list[DecimalMatrix], Problem, "DecimalMatrix | None"], DecimalMatrix
]


def _given(
    spec: StepSpec, args: list[DecimalMatrix], p: Problem, given: DecimalMatrix | None
) -> DecimalMatrix:
    assert given is not None
    return [list(row) for row in given]


def _product(
    spec: StepSpec, args: list[DecimalMatrix], p: Problem, given: DecimalMatrix | None
) -> DecimalMatrix:
    """Σ over pairs of operands of their products (one pair: a plain product)."""
    total: DecimalMatrix | None = None
    for left, right in zip(args[::2], args[1::2]):
        term = matmul(
            transpose(left) if spec.transpose_left else left,
            transpose(right) if spec.transpose_right else right,
        )
        total = (
            term if total is None else [[a + b for a, b in zip(r, s)] for r, s in zip(total, term)]
        )
    assert total is not None
    return total


def _scale(
    spec: StepSpec, args: list[DecimalMatrix], p: Problem, given: DecimalMatrix | None
) -> DecimalMatrix:
    c = +evaluate(spec.divisor, decimal.getcontext().prec)
    return [[s / c for s in row] for row in args[0]]


def _mask(
    spec: StepSpec, args: list[DecimalMatrix], p: Problem, given: DecimalMatrix | None
) -> DecimalMatrix:
    assert p.mask is not None
    return [
        [s if keep else NEG_INF for s, keep in zip(row, mask_row)]
        for row, mask_row in zip(args[0], p.mask)
    ]


def _concat(
    spec: StepSpec, args: list[DecimalMatrix], p: Problem, given: DecimalMatrix | None
) -> DecimalMatrix:
    return [[x for block in blocks for x in block] for blocks in zip(*args)]


def _difference(
    spec: StepSpec, args: list[DecimalMatrix], p: Problem, given: DecimalMatrix | None
) -> DecimalMatrix:
    assert given is not None
    return [[a - b for a, b in zip(r, s)] for r, s in zip(args[0], given)]


def _columns(
    spec: StepSpec, args: list[DecimalMatrix], p: Problem, given: DecimalMatrix | None
) -> DecimalMatrix:
    assert spec.columns is not None
    start, stop = spec.columns
    return [row[start:stop] for row in args[0]]


#: The decimal rule of each kind of step.
DECIMAL_RULES: Mapping[Kind, DecimalRule] = TopicTable(
    {
        Kind.TOKENS: _given,
        Kind.LOOKUP: _given,
        Kind.GIVEN: _given,
        Kind.PRODUCT: _product,
        Kind.WEIGHTED_SUM: _product,
        Kind.SUM_OF_PRODUCTS: _product,
        Kind.SCALE: _scale,
        Kind.MASK: _mask,
        Kind.SOFTMAX: lambda spec, args, p, given: softmax(spec, args[0], p),
        Kind.CONCAT: _concat,
        Kind.COPY: lambda spec, args, p, given: [list(row) for row in args[0]],
        Kind.DIFFERENCE: _difference,
        Kind.COLUMNS: _columns,
        Kind.JACOBIAN: lambda spec, args, p, given: jacobian(args[0], args[1], spec.diagonal_only),
        Kind.ADD: lambda spec, args, p, given: add(args[0], args[1]),
    },
    lambda topic: {rules.kind: rules.decimal for rules in topic.kinds},
    theirs=CORE_KINDS,
)


def apply(
    spec: StepSpec,
    operands: Sequence[DecimalMatrix],
    problem: Problem,
    given: DecimalMatrix | None = None,
) -> DecimalMatrix:
    """The values of one step from its operands' values (``given``: its source matrix)."""
    args = list(operands)
    if spec.round_operand is not None and args:
        args[0] = round_to(args[0], spec.round_operand)
    out = DECIMAL_RULES[spec.kind](spec, args, problem, given)
    if spec.transposed:
        if len(out) != len(out[0]):
            raise NotApplicable("a transposed matrix needs n = m")
        out = transpose(out)
    return out
