"""Carried rounding: how far a step may move when the answers it is computed from were
rounded by the student — a first-order bound, in one pass over the plan.

Each rounded input entry carries a radius (half a unit of its last written place); the
radius is propagated step by step by the rule of each kind: for a product C = AB,
|A||R_B| + |R_A||B|; for a softmax, a_j (r_j + Σ_k a_k r_k) over the entries it
normalises; and so on.  One pass costs what one evaluation costs, whatever the size.
A kind without a rule of its own here (a topic's kinds: a norm, a
network, a rotation, a tanh score) is bounded to first order through its decimal rule, one
rounded entry at a time: a new kind of step needs nothing in this module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

from ..compute.values import NotApplicable, apply, dec_matrix
from ..compute.variants import DecimalMatrix
from ..numbers import evaluate
from ..plan import Plan
from ..problem import Problem
from ..steps import Kind, StepSpec
from .compare import PRECISION

__all__ = ["radii"]

ZERO = Decimal(0)
#: A recomputed step is evaluated to PRECISION significant digits, so it may be off by a few
#: units of its last digit, more after a cancellation: an exact answer that is right from the
#: student's own earlier answers must not be marked wrong for that noise.
EVALUATION_ERROR = Decimal(10) ** (4 - PRECISION)


def _t(matrix: Sequence[Sequence[Decimal]]) -> DecimalMatrix:
    return [list(col) for col in zip(*matrix)]


def _abs(matrix: Sequence[Sequence[Decimal]]) -> DecimalMatrix:
    return [[abs(x) if x.is_finite() else ZERO for x in row] for row in matrix]


def _zeros(rows: int, cols: int) -> DecimalMatrix:
    return [[ZERO] * cols for _ in range(rows)]


def _matmul(a: DecimalMatrix, b: DecimalMatrix) -> DecimalMatrix:
    """``a b``, skipping zero terms (a radius matrix is often all zero: exact answers)."""
    columns = list(zip(*b))
    out = []
    for row in a:
        nonzero = [k for k, x in enumerate(row) if x]
        if not nonzero:  # what the sum of no terms is
            out.append([ZERO] * len(columns))
            continue
        out.append([sum((row[k] * col[k] for k in nonzero if col[k]), ZERO) for col in columns])
    return out


def _add(a: DecimalMatrix, b: DecimalMatrix) -> DecimalMatrix:
    return [[x + y for x, y in zip(r, s)] for r, s in zip(a, b)]


def _product(
    spec: StepSpec, values: list[DecimalMatrix], radii: list[DecimalMatrix]
) -> DecimalMatrix:
    total: DecimalMatrix | None = None
    for k in range(0, len(values), 2):
        left, right = _abs(values[k]), _abs(values[k + 1])
        r_left, r_right = radii[k], radii[k + 1]
        if spec.transpose_left:
            left, r_left = _t(left), _t(r_left)
        if spec.transpose_right:
            right, r_right = _t(right), _t(r_right)
        term = _add(_add(_matmul(left, r_right), _matmul(r_left, right)), _matmul(r_left, r_right))
        total = term if total is None else _add(total, term)
    assert total is not None
    return total


def _normalised(
    weights: DecimalMatrix,
    radii: DecimalMatrix,
    groups: list[list[tuple[int, int]]],
    use_exp: bool,
    scores: DecimalMatrix,
) -> DecimalMatrix:
    out = _zeros(len(weights), len(weights[0]))
    for group in groups:
        if use_exp:
            spread = sum((weights[i][j] * radii[i][j] for i, j in group), ZERO)
            for i, j in group:
                out[i][j] = weights[i][j] * (radii[i][j] + spread)
        else:
            total = abs(sum((scores[i][j] for i, j in group), ZERO)) or Decimal(1)
            spread = sum((radii[i][j] for i, j in group), ZERO)
            for i, j in group:
                out[i][j] = (radii[i][j] + abs(weights[i][j]) * spread) / total
    return out


def _softmax(
    spec: StepSpec,
    scores: DecimalMatrix,
    weights: DecimalMatrix,
    radius: DecimalMatrix,
    problem: Problem,
) -> DecimalMatrix:
    rows, cols = len(scores), len(scores[0])
    kept = [[(i, j) for j in range(cols) if scores[i][j].is_finite()] for i in range(rows)]
    if spec.softmax == "none":
        return [list(r) for r in radius]
    if spec.transposed:  # the weights were transposed after the softmax: undo for the bound
        weights = _t(weights)
    if spec.softmax == "columns":
        groups = [[(i, j) for i in range(rows) if scores[i][j].is_finite()] for j in range(cols)]
    elif spec.softmax == "global":
        groups = [[cell for row in kept for cell in row]]
    else:
        groups = kept
    out = _normalised(weights, radius, groups, spec.softmax != "no_exp", scores)
    if spec.mask_after and problem.mask is not None:
        out = [
            [r if keep else ZERO for r, keep in zip(row, m)] for row, m in zip(out, problem.mask)
        ]
    return out


def _jacobian(
    a: DecimalMatrix, g: DecimalMatrix, r_a: DecimalMatrix, r_g: DecimalMatrix
) -> DecimalMatrix:
    out = []
    for a_row, g_row, ra_row, rg_row in zip(a, g, r_a, r_g):
        inner = sum((x * y for x, y in zip(a_row, g_row)), ZERO)
        spread = sum(
            (ra * abs(y) + abs(x) * rg for x, y, ra, rg in zip(a_row, g_row, ra_row, rg_row)), ZERO
        )
        out.append(
            [
                ra * abs(y - inner) + abs(x) * (rg + spread)
                for x, y, ra, rg in zip(a_row, g_row, ra_row, rg_row)
            ]
        )
    return out


def _first_order(
    spec: StepSpec,
    args: list[DecimalMatrix],
    rads: list[DecimalMatrix],
    problem: Problem,
) -> DecimalMatrix:
    """Σ over rounded entries of |f(x + r e) − f(x)|, by the kind's decimal rule."""
    given = dec_matrix(spec.source.take(problem)) if spec.source is not None else None
    base = apply(spec, args, problem, given)
    out = _zeros(len(base), len(base[0]))
    for k, rad in enumerate(rads):
        for i, row in enumerate(rad):
            for j, r in enumerate(row):
                if not r:
                    continue
                moved = [[list(x) for x in a] if a is args[k] else a for a in args]
                moved[k][i][j] += r
                try:
                    shifted = apply(spec, moved, problem, given)
                except NotApplicable:
                    continue
                out = _add(
                    out, _abs([[y - x for x, y in zip(p, q)] for p, q in zip(base, shifted)])
                )
    return out


def _radius(
    spec: StepSpec,
    values: Mapping[str, DecimalMatrix],
    radius: Mapping[str, DecimalMatrix],
    own: DecimalMatrix,
    problem: Problem,
    plan: Plan,
) -> DecimalMatrix:
    sources = plan.sources
    args = [
        values[o] if o in values else dec_matrix(sources[o].take(problem)) for o in spec.operands
    ]
    rads = [radius.get(o) or _zeros(len(v), len(v[0])) for o, v in zip(spec.operands, args)]
    kind = spec.kind
    if kind in (Kind.PRODUCT, Kind.WEIGHTED_SUM, Kind.SUM_OF_PRODUCTS):
        out = _product(spec, args, rads)
    elif kind == Kind.SCALE:
        c = abs(evaluate(spec.divisor, 30)) if spec.divisor is not None else Decimal(1)
        out = [[r / c for r in row] for row in rads[0]]
    elif kind == Kind.MASK:
        assert problem.mask is not None
        out = [
            [r if keep else ZERO for r, keep in zip(row, m)]
            for row, m in zip(rads[0], problem.mask)
        ]
    elif kind == Kind.SOFTMAX:
        return _softmax(spec, args[0], own, rads[0], problem)
    elif kind == Kind.CONCAT:
        out = [[x for block in blocks for x in block] for blocks in zip(*rads)]
    elif kind == Kind.ADD:  # X̃ = X + P, M = S' + mask, a residual
        out = [[a + b for a, b in zip(r, t)] for r, t in zip(rads[0], rads[1])]
    elif kind in (Kind.COPY, Kind.DIFFERENCE):
        out = [list(r) for r in rads[0]]
    elif kind == Kind.COLUMNS:
        assert spec.columns is not None
        out = [row[spec.columns[0] : spec.columns[1]] for row in rads[0]]
    elif kind == Kind.JACOBIAN:
        out = _jacobian(args[0], args[1], rads[0], rads[1])
    elif kind in (Kind.TOKENS, Kind.LOOKUP, Kind.GIVEN):  # given matrices are exact
        out = _zeros(len(own), len(own[0]))
    else:
        return _first_order(spec, args, rads, problem)
    if spec.transposed:
        out = _t(out)
    return out


def radii(
    problem: Problem,
    plan: Plan,
    values: Mapping[str, DecimalMatrix],
    inputs: Mapping[str, DecimalMatrix],
    until: str,
) -> DecimalMatrix:
    """How far ``until`` may move when the steps of ``inputs`` are off by their radii.

    ``values`` are every step's values under ``plan`` (with the student's answers in
    place); ``inputs`` the radius of each entry the student wrote rounded.
    """
    radius: dict[str, DecimalMatrix] = {}
    for spec in plan.specs:
        if spec.id in inputs:
            radius[spec.id] = [list(r) for r in inputs[spec.id]]
        elif any(o in radius for o in spec.operands):
            radius[spec.id] = _radius(spec, values, radius, values[spec.id], problem, plan)
        if spec.id == until:
            break
    found = radius.get(until)
    if found is None:
        found = _zeros(len(values[until]), len(values[until][0]))
    return [
        [r + _noise(v) for r, v in zip(r_row, v_row)] for r_row, v_row in zip(found, values[until])
    ]


def _noise(value: Decimal) -> Decimal:
    return EVALUATION_ERROR * max(Decimal(1), abs(value)) if value.is_finite() else ZERO
