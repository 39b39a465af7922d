"""An independent reference computation of attention, right and under named mistakes.

It shares nothing with symattn's engines: the matrices of a problem dict are read here
(integers, fractions "a/b", decimals; no roots), and every step is computed with
Python's Fraction and Decimal at 40 digits.  The tests make a student's answers with it,
so the checker is never tested against its own arithmetic.

Mistakes: ``no_scaling``, ``scaled_by_d_model``, ``scaled_by_dk``, ``no_softmax``,
``softmax_wrong_axis``, ``exp_missing_in_softmax``, ``scores_transposed``,
``weights_transposed``, ``weighted_sum_of_keys``, ``mask_after_softmax``,
``premature_rounding_P`` (the softmax input rounded to P places).
"""

from __future__ import annotations

import decimal
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

Matrix = list[list[Decimal]]
NEG_INF = Decimal("-Infinity")
PRECISION = 40


def _number(raw: Any) -> Fraction:
    if isinstance(raw, str) and "/" in raw:
        num, den = raw.split("/")
        return Fraction(int(num), int(den))
    return Fraction(str(raw))


def _matrix(raw: Sequence[Sequence[Any]]) -> Matrix:
    out = []
    for row in raw:
        cells = []
        for x in row:
            q = _number(x)
            cells.append(Decimal(q.numerator) / Decimal(q.denominator))
        out.append(cells)
    return out


def _mul(a: Matrix, b: Matrix) -> Matrix:
    return [[sum((x * y for x, y in zip(row, col)), Decimal(0)) for col in zip(*b)] for row in a]


def _t(a: Matrix) -> Matrix:
    return [list(col) for col in zip(*a)]


def _softmax_rows(scores: Matrix, exp: bool = True) -> Matrix:
    out = []
    for row in scores:
        finite = [x for x in row if x.is_finite()]
        top = max(finite)
        terms = [((x - top).exp() if exp else x) if x.is_finite() else Decimal(0) for x in row]
        total = sum(terms, Decimal(0))
        out.append([t / total for t in terms])
    return out


def attention(
    problem: Mapping[str, Any],
    mistake: str | None = None,
    overrides: Mapping[str, Matrix] | None = None,
) -> dict[str, Matrix]:
    """Every step of ``problem`` (a dict with X and the W's, optional scale/mask), made
    with ``mistake``; a step in ``overrides`` is taken as given (the student's own)."""
    given = dict(overrides or {})
    out: dict[str, Matrix] = {}

    def take(step: str, value: Matrix) -> Matrix:
        out[step] = given.get(step, value)
        return out[step]

    with decimal.localcontext() as ctx:
        ctx.prec = PRECISION
        x = _matrix(problem["X"])
        out["X"] = x
        q = take("Q", _mul(x, _matrix(problem["W_Q"])))
        k = take("K", _mul(x, _matrix(problem["W_K"])))
        v = take("V", _mul(x, _matrix(problem["W_V"])))
        n, m, d_k = len(q), len(k), len(q[0])
        d_model = len(x[0])
        scores = _mul(k, _t(q)) if mistake == "scores_transposed" else _mul(q, _t(k))
        scores = take("scores", scores)
        scale = problem.get("scale", "sqrt(d_k)")
        if scale == "sqrt(d_k)":
            divisor = Decimal(d_k).sqrt()
        elif scale == "none":
            divisor = None
        else:
            divisor = _matrix([[scale]])[0][0]
        if divisor is not None:
            if mistake == "no_scaling":
                divisor = Decimal(1)
            elif mistake == "scaled_by_d_model":
                divisor = Decimal(d_model).sqrt()
            elif mistake == "scaled_by_dk":
                divisor = Decimal(d_k)
            scores = take("scaled_scores", [[s / divisor for s in row] for row in scores])
        unmasked = scores
        mask = problem.get("mask", "none")
        allowed = [[True] * m for _ in range(n)]
        if mask == "causal":
            allowed = [[j <= i for j in range(m)] for i in range(n)]
        elif isinstance(mask, list):
            allowed = [[bool(a) for a in row] for row in mask]
        if mask != "none":
            scores = take(
                "masked_scores",
                [[s if a else NEG_INF for s, a in zip(r, ar)] for r, ar in zip(scores, allowed)],
            )
        if mistake and mistake.startswith("premature_rounding_"):
            places = int(mistake.rsplit("_", 1)[1])
            quantum = Decimal(1).scaleb(-places)
            scores = [
                [
                    s.quantize(quantum, rounding=decimal.ROUND_HALF_UP) if s.is_finite() else s
                    for s in row
                ]
                for row in scores
            ]
        if mistake == "no_softmax":
            weights = [[s if s.is_finite() else Decimal(0) for s in row] for row in scores]
        elif mistake == "softmax_wrong_axis":
            weights = _t(_softmax_rows(_t(scores)))
        elif mistake == "exp_missing_in_softmax":
            weights = _softmax_rows(scores, exp=False)
        elif mistake == "mask_after_softmax":
            weights = [
                [w if a else Decimal(0) for w, a in zip(r, ar)]
                for r, ar in zip(_softmax_rows(unmasked), allowed)
            ]
        else:
            weights = _softmax_rows(scores)
        if mistake == "weights_transposed":
            weights = _t(weights)
        weights = take("weights", weights)
        take("output", _mul(weights, k if mistake == "weighted_sum_of_keys" else v))
    return out
