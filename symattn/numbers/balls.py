"""Certified evaluation of exact values with ball arithmetic (FLINT's ``arb``).

A ball is a midpoint and a radius that the true value is guaranteed to lie in: a digit
read from it is certain, or the precision is raised until it is.  Three rules:

* a softmax row subtracts its largest exponent *exactly* before any exponential is
  taken, so scores of 10⁹⁹ + 1 and 10⁹⁹ give e¹/(e¹ + 1), not 1/2;
* the entries of a step that share a softmax row are one ball-matrix product (in C);
* a decimal that must be rounded is decided by interval, or — at a near tie — by the
  sign of ``value − boundary``, computed with the boundary subtracted exactly from
  every coefficient (``Σ_g (C_g − b n_g) e^{x_g}``), so 0.12345 · 1/(1 + e⁻²⁰⁰)
  rounds to 0.1234 after a few hundred bits, not after 10⁸⁸ of them.

>>> str(evaluate_ball(Surd.sqrt(2), 20))
'1.4142135623730950488'
"""

from __future__ import annotations

import decimal
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from decimal import Decimal
from fractions import Fraction
from typing import Any

from flint import arb, arb_mat, ctx, fmpq, fmpz

from ..errors import SymattnError
from .closed import Combination, ExpRatio, NegInf, SoftmaxRow
from .context import decimal_context
from .surd import Surd

__all__ = [
    "MAX_BITS",
    "DigitsUnavailable",
    "RowBalls",
    "ball",
    "bits_for",
    "closed_surd",
    "evaluate_ball",
    "evaluate_matrix",
    "precision",
    "round_certified",
    "to_decimal",
]

#: Most bits a certified digit may take before we give up with a clear error.
MAX_BITS = 1 << 17

_LOG2_10 = 3.3219280948873626
_TOO_CLOSE = (
    f"a value is too close to a rounding tie (or to 0) to decide its digits with "
    f"{MAX_BITS} bits of precision"
)


class DigitsUnavailable(SymattnError, ValueError):
    """A digit that no precision up to :data:`MAX_BITS` decides (a value absurdly close
    to a rounding tie, or to 0 by cancellation): a clear error, not a hang."""


def bits_for(digits: int) -> int:
    """Bits that carry ``digits`` significant decimal digits, with a few to spare."""
    return int(digits * _LOG2_10) + 8


@contextmanager
def precision(bits: int) -> Iterator[None]:
    """Run FLINT's ball arithmetic at ``bits`` bits."""
    saved = ctx.prec
    ctx.prec = bits
    try:
        yield
    finally:
        ctx.prec = saved


# -- one value ---------------------------------------------------------------------
def _fraction(q: Fraction) -> arb:
    return arb(fmpq(q.numerator, q.denominator))


def _surd(value: Surd) -> arb:
    total = arb(0)
    for r, c in value.terms:
        term = _fraction(c)
        total += term if r == 1 else term * arb(r).sqrt()
    return total


def _exact(value: Any) -> Surd:
    """A numeric exponent or coefficient as a Surd (ints and fractions included)."""
    if isinstance(value, Surd):
        return value
    if isinstance(value, (int, Fraction)):
        return Surd.rational(value)
    raise TypeError("only numbers have a ball")


def _top(exponents: Sequence[Surd]) -> Surd:
    """An exponent at (or next to) the largest; the exact differences do the rest."""
    if all(x.is_rational for x in exponents):
        return max(exponents, key=lambda x: x.as_fraction())
    with precision(64):
        mids = [float(_surd(x).mid()) for x in exponents]
    return exponents[mids.index(max(mids))]


def _shifted_exps(exponents: Sequence[Surd]) -> list[arb]:
    """e^{x_j − x_top} for every exponent, each difference taken exactly."""
    top = _top(exponents)
    radicand = _common_radicand(exponents)
    if radicand is not None:  # c_j √r (r = 1: rationals): differences of fmpq
        root = arb(1) if radicand == 1 else arb(radicand).sqrt()
        t = _coefficient(top)
        return [(arb(_coefficient(x) - t) * root).exp() for x in exponents]
    return [_surd(x - top).exp() for x in exponents]


def _common_radicand(exponents: Sequence[Surd]) -> int | None:
    """r when every exponent is c √r (or 0), else None; r = 1 for rationals.

    >>> _common_radicand([Surd.rational(1), Surd.sqrt(2)]) is None
    True
    >>> _common_radicand([Surd(), Surd.sqrt(8)])
    2
    """
    found: int | None = None
    for x in exponents:
        if len(x.terms) > 1:
            return None
        if x.terms:
            r = x.terms[0][0]
            if found is not None and r != found:
                return None
            found = r
    return 1 if found is None else found


def _coefficient(x: Surd) -> fmpq:
    if not x.terms:
        return fmpq(0)
    c = x.terms[0][1]
    return fmpq(c.numerator, c.denominator)


def _ratio(value: ExpRatio, shift: Fraction = Fraction(0)) -> arb:
    """(Σ c_j e^{x_j}) / (Σ e^{x_j}) − shift, with equal exponents grouped and the
    shift subtracted exactly from each group's coefficient."""
    groups: dict[Surd, tuple[Surd, int]] = {}
    for c, x in zip(value.coefs, value.exponents):
        total, count = groups.get(_exact(x), (Surd(), 0))
        groups[_exact(x)] = (total + _exact(c), count + 1)
    exponents = list(groups)
    exps = _shifted_exps(exponents)
    num, den = arb(0), arb(0)
    for e, x in zip(exps, exponents):
        total, count = groups[x]
        coef = total - Surd.rational(shift * count) if shift else total
        num += _surd(coef) * e
        den += e * count
    return num / den


def in_balls(value: Any) -> bool:
    """Whether :func:`ball` takes ``value``: surds, −∞ and closed forms of them. A softmax
    of transcendental scores (sin, cos, tanh: SymPy exponents) is SymPy's to evaluate."""
    if isinstance(value, ExpRatio):  # every exponent: a tanh score may be 0 beside others
        return value.row.algebraic
    if isinstance(value, Combination):
        return all(in_balls(r) for _, r in value.terms)
    return isinstance(value, (Surd, NegInf))


def ball(value: Any, shift: Fraction = Fraction(0)) -> arb:
    """``value − shift`` as a ball at the current precision (numbers only)."""
    if isinstance(value, ExpRatio):
        return _ratio(value, shift)
    if isinstance(value, Combination):
        total = arb(0)
        for c, r in value.terms:
            total += _surd(_exact(c)) * ball(r)
        return total - _fraction(shift) if shift else total
    if isinstance(value, NegInf):
        raise ValueError("−∞ has no ball")
    base = _surd(_exact(value))
    return base - _fraction(shift) if shift else base


def _magnitude_bits(value: Any) -> int:
    """About log2 |value| (0 when it is tiny), from a cheap first look."""
    with precision(64):
        b = ball(value)
    if not b.is_finite() or b.is_zero():
        return 0
    man, exp = b.mid().man_exp()
    return max(int(exp) + int(man).bit_length(), 0)


def evaluate_ball(value: Any, digits: int) -> Decimal:
    """``value`` to ``digits`` significant digits, every digit certain but the last
    (which is off by at most one unit); a quotient with a rational value (equal
    exponents: (2e^a + 2e^b)/(e^a + e^b) = 2) exactly."""
    if isinstance(value, NegInf):
        return Decimal("-Infinity")
    closed = value.closed_value() if isinstance(value, ExpRatio) else value
    if isinstance(closed, Surd) and closed.is_rational:
        q = closed.as_fraction()
        return decimal_context(digits).divide(Decimal(q.numerator), Decimal(q.denominator))
    need = bits_for(digits)
    bits = need + 32
    while True:
        with precision(bits):
            b = ball(value)
        if b.is_exact() or b.rel_accuracy_bits() >= need:
            return to_decimal(b, digits)
        bits *= 2
        if bits > MAX_BITS:
            raise DigitsUnavailable(_TOO_CLOSE)


def to_decimal(b: arb, digits: int) -> Decimal:
    if b.is_zero():
        return Decimal(0)
    man, exp = b.mid().man_exp()
    if int(exp) + int(man).bit_length() < _TINY_BITS:  # below any Decimal: e^(-10^200)
        return Decimal(0)
    context = _CONTEXTS.get(digits)
    if context is None:
        context = _CONTEXTS[digits] = decimal_context(digits)
    return context.plus(Decimal(b.str(digits, radius=False)))


_CONTEXTS: dict[int, decimal.Context] = {}
#: log2 of the smallest decimal the contexts keep (10^-999,999,999), with a margin.
_TINY_BITS = -3_300_000_000


# -- a whole matrix ----------------------------------------------------------------
#: A softmax row's shifted exponentials and their sum, by the row's id and the bits.
RowBalls = dict[tuple[int, int], tuple[SoftmaxRow, list[arb], arb]]


def evaluate_matrix(
    matrix: Sequence[Sequence[Any]], digits: int, rows: RowBalls | None = None
) -> list[list[Decimal]]:
    """Every entry of a numeric matrix to ``digits`` significant digits.

    Entries that share a softmax row and columns of coefficients (a step's weights,
    the output of a weighted sum) are evaluated as one ball-matrix product; any entry
    whose ball is too wide after that (cancellation) is evaluated again on its own.
    ``rows`` keeps each softmax row's exponentials for the next matrix that uses the
    row (the weights, then the output: the same balls, made once).
    """
    need = bits_for(digits)
    out: list[list[Decimal | None]] = [[None] * len(row) for row in matrix]
    with precision(need + 40):
        balls = _matrix_balls(matrix, {} if rows is None else rows)
        for (i, j), b in balls.items():
            if b.is_exact() or b.rel_accuracy_bits() >= need:
                out[i][j] = to_decimal(b, digits)
    for i, row in enumerate(matrix):
        for j, entry in enumerate(row):
            if out[i][j] is None:
                out[i][j] = evaluate_ball(entry, digits)
    return out  # type: ignore[return-value]


def _matrix_balls(matrix: Sequence[Sequence[Any]], rows: RowBalls) -> dict[tuple[int, int], arb]:
    """Balls of the ExpRatio entries whose rows have distinct exponents, in batches."""
    batches: dict[tuple[Any, ...], list[tuple[int, SoftmaxRow, list[int]]]] = {}
    coef_tuples: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}
    for i, row in enumerate(matrix):
        ratios = [(j, e) for j, e in enumerate(row) if isinstance(e, ExpRatio)]
        if not ratios:
            continue
        if not ratios[0][1].row.distinct:  # equal exponents: rational entries are exact
            ratios = [(j, e) for j, e in ratios if e.closed_value() is None]
            if not ratios:
                continue
        shared = ratios[0][1].row
        if any(e.row is not shared for _, e in ratios):
            continue
        key = (len(shared), *(id(e.coefs) for _, e in ratios))
        batches.setdefault(key, []).append((i, shared, [j for j, _ in ratios]))
        coef_tuples.setdefault(key, [e.coefs for _, e in ratios])
    out: dict[tuple[int, int], arb] = {}
    coef_balls: dict[int, arb] = {}
    for key, members in batches.items():
        columns = coef_tuples[key]
        try:
            shifted = [_row_balls(row, rows) for _, row, _ in members]
            c = arb_mat(
                [[_coef_ball(col[k], coef_balls) for col in columns] for k in range(key[0])]
            )
        except TypeError:  # symbols: no numbers here
            continue
        products = arb_mat([exps for exps, _ in shifted]) * c
        for a, (i, _, js) in enumerate(members):
            den = shifted[a][1]
            for b, j in enumerate(js):
                out[(i, j)] = products[a, b] / den
    return out


def _row_balls(row: SoftmaxRow, rows: RowBalls) -> tuple[list[arb], arb]:
    """The row's exponentials e^{x_j − x_top} and their sum, at the current precision."""
    key = (id(row), ctx.prec)
    found = rows.get(key)
    if found is None or found[0] is not row:
        exps = _shifted_exps([_exact(x) for x in row.exponents])
        found = rows[key] = (row, exps, sum(exps, arb(0)))
    return found[1], found[2]


def _coef_ball(value: Any, cache: dict[int, arb]) -> arb:
    key = id(value)
    if key not in cache:
        cache[key] = _surd(_exact(value))
    return cache[key]


# -- certified rounding ------------------------------------------------------------
def round_certified(value: Any, places: int) -> str:
    """``value`` rounded half away from zero to ``places`` decimals, every digit certain.

    >>> round_certified(ExpRatio([Surd.rational(Fraction(12345, 100000)), Surd()],
    ...                          [Surd.rational(200), Surd()]), 4)
    '0.1234'
    """
    scale = arb(fmpz(10) ** places)
    half = arb(1) / 2
    bits = 64 + _magnitude_bits(value) + bits_for(places)
    while True:
        with precision(bits):
            b = ball(value)
            floored = (abs(b) * scale + half).floor()
            if floored.is_exact() and (floored.is_zero() or not b.contains(0)):
                whole = _integer(floored)
                return _format(-whole if b < 0 else whole, places)
            if bits > 4096:
                whole = _integer((floored - half).mid())
                negative = bool(b.mid() < 0)
                break
        bits *= 2
    # Next to a tie: decide by the sign of value − boundary, the boundary subtracted
    # exactly inside the closed form (a true tie of a rational goes away from zero).
    boundary = Fraction(2 * whole + 1, 2 * 10**places)
    side = _sign(value, -boundary if negative else boundary)
    beyond = side < 0 if negative else side > 0
    if beyond or side == 0:
        whole += 1
    return _format(-whole if negative else whole, places)


def _integer(b: arb) -> int:
    found = b.unique_fmpz()
    assert found is not None, "an exact integer ball"
    return int(found)


def closed_surd(value: Any) -> Surd | None:
    """``value`` as one exact surd when it is algebraic (a surd, a softmax quotient of
    equal exponents, a combination of them: a block's row that attends to one key)."""
    if isinstance(value, Surd):
        return value
    if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
        return Surd.rational(value)
    if isinstance(value, ExpRatio):
        return value.closed_value()
    if isinstance(value, Combination):
        total = Surd()
        for c, r in value.terms:
            closed = closed_surd(r)
            if closed is None or not isinstance(c, (Surd, int, Fraction)):
                return None
            total = total + _exact(c) * closed
        return total
    return None


def _sign(value: Any, shift: Fraction) -> int:
    closed = closed_surd(value)
    if closed is not None:  # exactly, however close to the boundary
        return (closed - Surd.rational(shift)).sign()
    bits = 256
    while bits <= MAX_BITS:
        with precision(bits):
            b = ball(value, shift)
        if not b.contains(0):
            return 1 if b > 0 else -1
        bits *= 2
    raise DigitsUnavailable(_TOO_CLOSE)


def _format(whole: int, places: int) -> str:
    text = str(abs(whole)).rjust(places + 1, "0")
    body = f"{text[:-places]}.{text[-places:]}" if places else text
    return f"-{body}" if whole < 0 else body
