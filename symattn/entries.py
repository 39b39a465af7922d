"""One entry of a step, written out: which terms are summed, what is divided by what.

Renderers read these structures; they never compute.  The numbers behind a
substituted value (a weight's decimal, the exponentials of a softmax row, the softmax
Jacobian of a row) are worked out here, once, from the step values.
"""

from __future__ import annotations

import decimal
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Union

from .numbers import NEG_INF, NegInf, decimal_context
from .problem import Matrix, Problem
from .record import Record
from .steps import Kind, Ref, Step

__all__ = [
    "DotEntry",
    "EntryFormula",
    "GivenEntry",
    "JacobianEntry",
    "LookupEntry",
    "MaskEntry",
    "Product",
    "Ref",
    "ScaleEntry",
    "SoftmaxEntry",
    "entry_formula",
]


class Product(Record):
    """One term ``left · right`` of a dot product."""

    left: Ref
    right: Ref
    left_value: Any
    right_value: Any


class DotEntry(Record):
    """``target = Σ_k left_k · right_k``, every term kept, zeros included."""

    target: Ref
    terms: tuple[Product, ...]
    value: Any


class ScaleEntry(Record):
    """``target = source / divisor``."""

    target: Ref
    source: Ref
    source_value: Any
    divisor: Any
    divisor_label: str
    value: Any


class MaskEntry(Record):
    """``target = source`` where the mask allows it, else −∞."""

    target: Ref
    source: Ref
    source_value: Any
    allowed: bool
    value: Any


class SoftmaxEntry(Record):
    """``target = exp(numerator) / Σ exp(row)`` over the unmasked entries of the row."""

    target: Ref
    numerator: Ref | None  # None when the entry is masked (weight exactly 0)
    row: tuple[tuple[Ref, Any], ...]
    value: Any
    exps: tuple[Decimal, ...] | None = None  # e^x of each unmasked score (numeric problems)
    total: Decimal | None = None  # their sum


class JacobianEntry(Record):
    """``target = a_j (g_j − Σ_k a_k g_k)``: row i of the softmax Jacobian applied to g.

    ``weights`` and ``upstream`` are the row's entries (a_k and g_k = dL/da_k); the Jacobian
    of the softmax is diag(a) − a aᵀ, whose values ``jacobian`` holds (numeric problems).
    """

    target: Ref
    weights: tuple[tuple[Ref, Any], ...]
    upstream: tuple[tuple[Ref, Any], ...]
    column: int
    value: Any
    jacobian: tuple[tuple[Decimal, ...], ...] | None = None


class LookupEntry(Record):
    """``target`` copied from row ``token_id`` of the embedding."""

    target: Ref
    token: str
    token_id: int
    value: Any


class GivenEntry(Record):
    """An entry given in the problem file (or copied, or taken from a block)."""

    target: Ref
    value: Any


EntryFormula = Union[
    DotEntry, ScaleEntry, MaskEntry, SoftmaxEntry, JacobianEntry, LookupEntry, GivenEntry
]


#: Largest |score| whose exponential a derivation writes out as a number (e^100000 has
#: 43,430 digits before the point; beyond, the sum of exponentials is named only).
MAX_SHOWN_EXPONENT = 100_000


def _exponentials(
    scores: Step, i: int, precision: int
) -> tuple[tuple[Decimal, ...] | None, Decimal | None]:
    """e^x of each unmasked score of row i, and their sum (None when symbolic)."""
    line = scores.values[i]
    values = [v for v in line if v is None or v.is_finite()]
    if any(v is None or abs(v) > MAX_SHOWN_EXPONENT for v in values):
        return None, None  # symbols, or e^(3·10⁹): the sum is named, not evaluated
    context = decimal_context(precision)
    context.Emax, context.Emin = decimal.MAX_EMAX, decimal.MIN_EMIN
    with decimal.localcontext(context):
        exps = tuple(v.exp() for v in values if v is not None)
        return exps, sum(exps, Decimal(0))


def softmax_jacobian(weights: Step, i: int) -> tuple[tuple[Decimal, ...], ...] | None:
    """J = diag(a_i) − a_i a_iᵀ of row i, from the weights' values (None when symbolic)."""
    row = weights.values[i]
    if any(a is None for a in row):
        return None
    a = [x for x in row if x is not None]
    return tuple(
        tuple((x if j == k else Decimal(0)) - x * y for k, y in enumerate(a))
        for j, x in enumerate(a)
    )


def entry_formula(
    step: Step,
    matrices: Mapping[str, Matrix],
    problem: Problem,
    precision: int,
    i: int,
    j: int,
    steps: Mapping[str, Step] | None = None,
) -> EntryFormula:
    """The written-out formula of entry (i, j), 0-based, of ``step``.

    ``matrices`` names every matrix the step may be made from; ``steps`` the earlier
    steps themselves (for the values behind a softmax or a Jacobian).
    """
    target = Ref(step.id, i, j)
    value = step.exact[i][j]
    spec = step.spec
    kind = spec.kind
    if kind in (Kind.PRODUCT, Kind.SUM_OF_PRODUCTS, Kind.WEIGHTED_SUM):
        terms = []
        for left_name, right_name in zip(spec.operands[::2], spec.operands[1::2]):
            left, right = matrices[left_name], matrices[right_name]
            width = len(left) if spec.transpose_left else len(left[0])
            for k in range(width):
                l_ref = Ref(left_name, k, i) if spec.transpose_left else Ref(left_name, i, k)
                r_ref = Ref(right_name, j, k) if spec.transpose_right else Ref(right_name, k, j)
                terms.append(
                    Product(l_ref, r_ref, left[l_ref.row][l_ref.col], right[r_ref.row][r_ref.col])
                )
        return DotEntry(target, tuple(terms), value)
    if kind == Kind.JACOBIAN:
        weights_id, upstream_id = spec.operands
        a_row, g_row = matrices[weights_id][i], matrices[upstream_id][i]
        jacobian = softmax_jacobian(steps[weights_id], i) if steps else None
        return JacobianEntry(
            target,
            tuple((Ref(weights_id, i, k), a) for k, a in enumerate(a_row)),
            tuple((Ref(upstream_id, i, k), g) for k, g in enumerate(g_row)),
            j,
            value,
            jacobian,
        )
    if kind == Kind.SCALE:
        (src,) = spec.operands
        return ScaleEntry(
            target, Ref(src, i, j), matrices[src][i][j], spec.divisor, spec.divisor_label, value
        )
    if kind == Kind.MASK:
        (src,) = spec.operands
        allowed = not isinstance(value, NegInf)
        return MaskEntry(target, Ref(src, i, j), matrices[src][i][j], allowed, value)
    if kind == Kind.SOFTMAX:
        (src,) = spec.operands
        source = matrices[src][i]
        row = tuple((Ref(src, i, k), x) for k, x in enumerate(source) if x is not NEG_INF)
        numerator = None if source[j] is NEG_INF else Ref(src, i, j)
        exps, total = _exponentials(steps[src], i, precision) if steps else (None, None)
        return SoftmaxEntry(target, numerator, row, value, exps, total)
    if kind == Kind.LOOKUP and problem.lookup is not None:
        return LookupEntry(target, problem.lookup.tokens[i], problem.lookup.ids[i], value)
    return GivenEntry(target, value)
