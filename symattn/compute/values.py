"""Each kind of step on decimal values: the one implementation that both the exact
engine (for the values behind closed forms) and the mistake-model evaluator use.

Every function works in the current :mod:`decimal` context; the caller sets the
precision once.  A spec's mistake-model fields (``softmax``, ``mask_after``,
``transposed``, ``round_operand``) change what is computed, as a student would.
"""

from __future__ import annotations

import decimal
from collections.abc import Callable, Sequence
from decimal import Decimal

from ..numbers import NegInf, Surd, evaluate
from ..problem import Problem
from ..steps import Kind, StepSpec
from .block import decimal_add, decimal_affine, decimal_layer_norm
from .positions import (
    decimal_additive_pairs,
    decimal_positions,
    decimal_rotate,
    decimal_tanh_score,
)

__all__ = [
    "DECIMAL_RULES",
    "DecimalMatrix",
    "NotApplicable",
    "apply",
    "dec_matrix",
    "matmul",
    "transpose",
]

DecimalMatrix = list[list[Decimal]]
NEG_INF = Decimal("-Infinity")


class NotApplicable(ValueError):
    """A mistake model that cannot apply to this problem (a shape that does not fit)."""


def transpose(matrix: Sequence[Sequence[Decimal]]) -> DecimalMatrix:
    return [list(col) for col in zip(*matrix)]


def dec_matrix(matrix: Sequence[Sequence[object]]) -> DecimalMatrix:
    """A matrix of exact numbers as decimals in the current context."""
    out = []
    for row in matrix:
        cells = []
        for x in row:
            if isinstance(x, NegInf):  # an additive mask
                cells.append(NEG_INF)
                continue
            if not isinstance(x, Surd):
                raise NotApplicable("mistake models need numbers, not symbols")
            cells.append(x.in_context())
        out.append(cells)
    return out


def matmul(left: Sequence[Sequence[Decimal]], right: Sequence[Sequence[Decimal]]) -> DecimalMatrix:
    if len(left[0]) != len(right):
        raise NotApplicable("shapes do not fit")
    columns = list(zip(*right))
    return [
        [sum((a * b for a, b in zip(row, col) if a and b), Decimal(0)) for col in columns]
        for row in left
    ]


def round_to(matrix: Sequence[Sequence[Decimal]], places: int) -> DecimalMatrix:
    step = Decimal(1).scaleb(-places)
    return [
        [x if not x.is_finite() else x.quantize(step, rounding=decimal.ROUND_HALF_UP) for x in row]
        for row in matrix
    ]


def _softmax_rows(matrix: Sequence[Sequence[Decimal]], use_exp: bool) -> DecimalMatrix:
    """Each row normalised over its finite (unmasked) entries; masked entries are 0."""
    out = []
    for row in matrix:
        kept = [x for x in row if x.is_finite()]
        if not kept:
            raise NotApplicable("a row with every key masked")
        if use_exp:
            top = max(kept)
            terms = [(x - top).exp() if x.is_finite() else Decimal(0) for x in row]
        else:
            terms = [x if x.is_finite() else Decimal(0) for x in row]
        total = sum(terms, Decimal(0))
        if total == 0:
            raise NotApplicable("the row sums to zero")
        out.append([t / total for t in terms])
    return out


def softmax(spec: StepSpec, scores: DecimalMatrix, problem: Problem) -> DecimalMatrix:
    """The weights as ``spec`` says: by rows (right), or as a mistake model computes them."""
    if spec.softmax == "none":
        weights = [[s if s.is_finite() else Decimal(0) for s in row] for row in scores]
    elif spec.softmax == "columns":
        weights = transpose(_softmax_rows(transpose(scores), use_exp=True))
    elif spec.softmax == "global":
        flat = _softmax_rows([[x for row in scores for x in row]], use_exp=True)[0]
        width = len(scores[0])
        weights = [flat[i * width : (i + 1) * width] for i in range(len(scores))]
    else:
        weights = _softmax_rows(scores, use_exp=spec.softmax != "no_exp")
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
    if spec.add_after:  # P added after the projection (a mistake model)
        if len(args[2][0]) != len(total[0]):
            raise NotApplicable("P has d_model columns, the projection d_k")
        total = [[a + b for a, b in zip(r, s)] for r, s in zip(total, args[2])]
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


def _rows(
    spec: StepSpec, args: list[DecimalMatrix], p: Problem, given: DecimalMatrix | None
) -> DecimalMatrix:
    assert spec.rows is not None
    start, stop = spec.rows
    return [list(row) for row in args[0][start:stop]]


def _decode(
    spec: StepSpec, args: list[DecimalMatrix], p: Problem, given: DecimalMatrix | None
) -> DecimalMatrix:
    """The last query over the cached keys and its own (divided as the scores are, the
    temperature included): one row of output."""
    queries, cache_k, cache_v, keys, values = args
    scores = matmul([queries[-1]], transpose([*cache_k, keys[-1]]))
    if spec.divisor is not None:
        c = +evaluate(spec.divisor, decimal.getcontext().prec)
        scores = [[s / c for s in row] for row in scores]
    return matmul(_softmax_rows(scores, use_exp=True), [*cache_v, values[-1]])


def _layer_norm(
    spec: StepSpec, args: list[DecimalMatrix], p: Problem, given: DecimalMatrix | None
) -> DecimalMatrix:
    if len(args[0][0]) < 2 and spec.unbiased:
        raise NotApplicable("an unbiased variance needs two entries")
    try:
        return decimal_layer_norm(args, p, spec.unbiased)
    except decimal.DivisionByZero as exc:
        raise NotApplicable(str(exc)) from None


#: The decimal rule of each kind of step.
DECIMAL_RULES: dict[Kind, DecimalRule] = {
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
    Kind.ADD: lambda spec, args, p, given: decimal_add(args[0], args[1]),
    Kind.POSITIONS: lambda spec, args, p, given: decimal_positions(spec, p.n, p.d_model or 0),
    Kind.ROTATE: lambda spec, args, p, given: decimal_rotate(spec, args[0]),
    Kind.ADDITIVE_HIDDEN: lambda spec, args, p, given: decimal_additive_pairs(
        matmul(args[0], args[2]), matmul(args[1], args[3])
    ),
    Kind.TANH_SCORE: lambda spec, args, p, given: decimal_tanh_score(args[0], args[1], p.n),
    Kind.ROWS: _rows,
    Kind.DECODE: _decode,
    Kind.LAYERNORM: _layer_norm,
    Kind.AFFINE: lambda spec, args, p, given: decimal_affine(
        args[0], args[1], args[2], spec.activation
    ),
}

#: Kinds that a column-layout step computes down the columns (on the transposes).
_TRANSPOSED = (Kind.MASK, Kind.SOFTMAX, Kind.WEIGHTED_SUM)


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
    if spec.layout == "column" and spec.kind in _TRANSPOSED:
        ordered = args[::-1] if spec.kind == Kind.WEIGHTED_SUM else args  # O = V A
        out = transpose(
            DECIMAL_RULES[spec.kind](spec, [transpose(a) for a in ordered], problem, None)
        )
    else:
        out = DECIMAL_RULES[spec.kind](spec, args, problem, given)
    if spec.transposed:
        if len(out) != len(out[0]):
            raise NotApplicable("a transposed matrix needs n = m")
        out = transpose(out)
    return out
