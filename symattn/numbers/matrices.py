"""Exact matrix arithmetic on symattn's numbers: the products, scaling, masking, softmax
and weighted sums that every kind of step is made of.

Rational matrices are multiplied as integer matrices over a common denominator (by
FLINT, exact); surds and symbols fall back to term-by-term arithmetic.  The softmax is
never simplified: each weight is an :class:`~symattn.numbers.ExpRatio`
``exp(s'_ij) / Σ_k exp(s'_ik)`` whose row shares one
:class:`~symattn.numbers.SoftmaxRow`, and each output entry is the same closed form
with the values in the numerator.

>>> from symattn.printing import sstr
>>> one, two = Surd.rational(1), Surd.rational(2)
>>> [[sstr(x) for x in row] for row in matmul(((one, two),), ((two,), (one,)))]
[['4']]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from math import lcm
from typing import Any

from flint import fmpz_mat

from .closed import NEG_INF, Coefficients, Combination, ExpRatio, SoftmaxRow
from .surd import Surd
from .sympy_bridge import to_sympy

__all__ = [
    "add",
    "concat",
    "is_rational",
    "mask",
    "matmul",
    "scale",
    "softmax",
    "transpose",
    "weighted_sum",
]

Matrix = tuple[tuple[Any, ...], ...]
Mask = tuple[tuple[bool, ...], ...]
_CLOSED = (Surd, ExpRatio, Combination)


def transpose(matrix: Matrix) -> Matrix:
    return tuple(zip(*matrix))


def is_rational(matrix: Matrix) -> bool:
    return all(isinstance(x, Surd) and x.is_rational for row in matrix for x in row)


def _integer_rows(matrix: Matrix) -> tuple[list[list[int]], int]:
    """Numerators over one common denominator (entries that are rational surds)."""
    pairs = [[_ratio(x.terms) for x in row] for row in matrix]
    den = lcm(*{d for row in pairs for _, d in row})
    return [[n * (den // d) for n, d in row] for row in pairs], den


def _ratio(terms: tuple[tuple[int, Fraction], ...]) -> tuple[int, int]:
    """Numerator and denominator of a rational surd's terms."""
    if not terms:
        return 0, 1
    q = terms[0][1]
    return q.numerator, q.denominator


def _rational_matrix(numerators: list[list[Any]], den: int) -> Matrix:
    """The surds n / den of integer numerators (FLINT's or Python's); a numerator seen
    before gives the same (immutable) surd again: a product has few distinct values."""
    seen: dict[int, Surd] = {}
    out = []
    for row in numerators:
        entries = []
        for x in row:
            n = int(x)
            found = seen.get(n)
            if found is None:
                found = seen[n] = Surd.rational(Fraction(n, den))
            entries.append(found)
        out.append(tuple(entries))
    return tuple(out)


def matmul(left: Matrix, right: Matrix) -> Matrix:
    """Exact ``left · right``; rational matrices go through integer arithmetic."""
    if is_rational(left) and is_rational(right):
        a, da = _integer_rows(left)
        b, db = _integer_rows(right)
        product = (fmpz_mat(a) * fmpz_mat(b)).tolist()  # FLINT: the n³ work in C
        return _rational_matrix(product, da * db)
    columns = transpose(right)
    if any(isinstance(x, ExpRatio) for row in left for x in row):  # concat · W_O
        return tuple(tuple(_combination(col, row) for col in columns) for row in left)
    if all(isinstance(x, Surd) for m in (left, right) for row in m for x in row):
        zero = Surd()
        out: list[tuple[Any, ...]] = []
        for row in left:
            entries = []
            for col in columns:
                total = zero
                for x, y in zip(row, col):
                    total = total + x * y
                entries.append(total)
            out.append(tuple(entries))
        return tuple(out)
    import sympy

    if not all(isinstance(x, sympy.Basic) for m in (left, right) for row in m for x in row):
        left, columns = _sympy(left), _sympy(columns)  # sin(1) and surds meet
    return tuple(
        tuple(sympy.Add(*(x * y for x, y in zip(row, col))) for col in columns) for row in left
    )


def _sympy(matrix: Sequence[Sequence[Any]]) -> Matrix:
    return tuple(tuple(to_sympy(x) for x in row) for row in matrix)


def _combination(coefs: Sequence[Any], values: Sequence[Any]) -> Any:
    """Σ c_t · r_t; a surd when every r_t is one (a quotient with an algebraic value,
    such as 4/4 = 1, counts): 10⁶⁰ · 1 + 1 · 1 is 10⁶⁰ + 1, written as one number."""
    closed = [r.closed_value() if isinstance(r, ExpRatio) else r for r in values]
    if all(isinstance(c, Surd) for c in coefs) and all(isinstance(r, Surd) for r in closed):
        total = Surd()
        for c, r in zip(coefs, closed):
            total = total + c * r
        return total
    return Combination(list(zip(coefs, values)))


def _each(matrix: Matrix, rule: Callable[[Any], Any]) -> Matrix:
    """``rule`` of every entry, once per distinct entry object (entries repeat)."""
    done: dict[int, Any] = {}
    out = []
    for row in matrix:
        entries = []
        for x in row:
            found = done.get(id(x))
            if found is None:
                found = done[id(x)] = rule(x)
            entries.append(found)
        out.append(tuple(entries))
    return tuple(out)


def scale(scores: Matrix, divisor: Any) -> Matrix:
    """``scores / divisor``, the divisor kept visible (1/√2 is not rationalised here)."""
    if isinstance(divisor, Surd) and divisor.is_rational and is_rational(scores):
        c = divisor.as_fraction()
        return _each(scores, lambda x: Surd.rational(x.as_fraction() / c))
    if isinstance(divisor, Surd) and len(divisor.terms) == 1 and is_rational(scores):
        r, c = divisor.terms[0]  # x / (c √r) = x / (c r) · √r, one term each
        factor = 1 / (c * r)
        return _each(scores, lambda x: Surd.monomial(r, x.as_fraction() * factor))
    if isinstance(divisor, Surd) and any(not isinstance(x, Surd) for r in scores for x in r):
        divisor = to_sympy(divisor)  # transcendental scores (sin, cos, tanh)
        return tuple(tuple(to_sympy(x) / divisor for x in row) for row in scores)
    return tuple(tuple(x / divisor for x in row) for row in scores)


def mask(scores: Matrix, keep: Mask) -> Matrix:
    """−∞ where the mask forbids."""
    return tuple(
        tuple(x if allowed else NEG_INF for x, allowed in zip(row, mask_row))
        for row, mask_row in zip(scores, keep)
    )


def softmax(scores: Matrix) -> Matrix:
    """Closed-form weights, row by row (masked entries exactly 0, a lone key exactly 1).

    The unit coefficient tuples are shared by every row with as many unmasked keys, so
    that printers and evaluators can do their per-tuple work once.
    """
    zero, one = Surd(), Surd.rational(1)
    units: dict[tuple[int, int], tuple[Surd, ...]] = {}
    rows: list[tuple[Any, ...]] = []
    for row in scores:
        keep = [j for j, x in enumerate(row) if x is not NEG_INF]
        shared = SoftmaxRow(tuple(row[j] for j in keep))
        entries: list[Any] = []
        position = 0
        for x in row:
            if x is NEG_INF:
                entries.append(zero)
            elif len(keep) == 1:  # e^x / e^x
                entries.append(one)
            else:
                key = (len(keep), position)
                if key not in units:
                    units[key] = Coefficients(
                        one if k == position else zero for k in range(len(keep))
                    )
                entries.append(ExpRatio(units[key], shared))
                position += 1
        rows.append(tuple(entries))
    return tuple(rows)


def weighted_sum(weights: Matrix, values: Matrix) -> Matrix:
    """b_i = Σ_j a_ij v_j in closed form: the weight's quotient with v_j in the numerator.

    The coefficients of an output column are one tuple for every row with the same
    unmasked keys (all rows, without a mask).
    """
    columns: dict[tuple[tuple[int, ...], int], tuple[Any, ...]] = {}
    rows: list[tuple[Any, ...]] = []
    for a_row in weights:
        keep = tuple(j for j, a in enumerate(a_row) if not (isinstance(a, Surd) and a.is_zero()))
        if len(keep) == 1:
            rows.append(values[keep[0]])
            continue
        template = a_row[keep[0]]
        assert isinstance(template, ExpRatio)
        entries = []
        for col in range(len(values[0])):
            if (keep, col) not in columns:
                columns[(keep, col)] = Coefficients(values[j][col] for j in keep)
            entries.append(ExpRatio(columns[(keep, col)], template.row))
        rows.append(tuple(entries))
    return tuple(rows)


def concat(blocks: Sequence[Matrix]) -> Matrix:
    """The heads' outputs side by side."""
    return tuple(tuple(x for block in row for x in block) for row in zip(*blocks))


def add(left: Matrix, right: Matrix) -> Matrix:
    """``left + right`` (a residual, X + P, S' + a mask of numbers): surds stay surds,
    closed forms a sum of them, −∞ absorbs, else SymPy (sin(1) + 1)."""
    out = []
    for a_row, b_row in zip(left, right):
        if all(isinstance(x, Surd) for x in (*a_row, *b_row)):
            out.append(tuple(a + b for a, b in zip(a_row, b_row)))
        elif all(isinstance(x, _CLOSED) for x in (*a_row, *b_row)):
            out.append(tuple(_sum_combination(a, b) for a, b in zip(a_row, b_row)))
        else:
            out.append(tuple(_one(a, b) for a, b in zip(a_row, b_row)))
    return tuple(out)


def _one(a: Any, b: Any) -> Any:
    if a is NEG_INF or b is NEG_INF:  # a masked score stays masked
        return NEG_INF
    if isinstance(a, Surd) and isinstance(b, Surd):
        return a + b
    return to_sympy(a) + to_sympy(b)


def _sum_combination(a: Any, b: Any) -> Any:
    one = Surd.rational(1)
    terms: list[tuple[Surd, Any]] = []
    for x in (a, b):
        if isinstance(x, Combination):
            terms.extend(x.terms)
        elif not (isinstance(x, Surd) and x.is_zero()):
            terms.append((one, x))
    return Combination(terms)
