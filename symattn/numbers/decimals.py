"""Matrices of decimals: what the decimal rule of every kind of step is made of.

Every function works in the current :mod:`decimal` context; the caller sets the
precision once.  A masked score is ``-Infinity``.

>>> from decimal import Decimal as D
>>> matmul([[D(1), D(2)]], [[D(3)], [D(4)]])
[[Decimal('11')]]
"""

from __future__ import annotations

import decimal
from collections.abc import Sequence
from decimal import Decimal

from ..errors import NotApplicable
from .closed import NegInf
from .surd import Surd

__all__ = [
    "NEG_INF",
    "DecimalMatrix",
    "add",
    "dec_matrix",
    "matmul",
    "round_to",
    "softmax_rows",
    "transpose",
]

DecimalMatrix = list[list[Decimal]]
NEG_INF = Decimal("-Infinity")


def transpose(matrix: Sequence[Sequence[Decimal]]) -> DecimalMatrix:
    return [list(col) for col in zip(*matrix)]


def dec_matrix(matrix: Sequence[Sequence[object]]) -> DecimalMatrix:
    """A matrix of exact numbers as decimals in the current context."""
    out = []
    for row in matrix:
        cells = []
        for x in row:
            if isinstance(x, NegInf):  # a mask of numbers
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


def add(left: Sequence[Sequence[Decimal]], right: Sequence[Sequence[Decimal]]) -> DecimalMatrix:
    return [[a + b for a, b in zip(r, s)] for r, s in zip(left, right)]


def round_to(matrix: Sequence[Sequence[Decimal]], places: int) -> DecimalMatrix:
    step = Decimal(1).scaleb(-places)
    return [
        [x if not x.is_finite() else x.quantize(step, rounding=decimal.ROUND_HALF_UP) for x in row]
        for row in matrix
    ]


def softmax_rows(matrix: Sequence[Sequence[Decimal]], use_exp: bool = True) -> DecimalMatrix:
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
