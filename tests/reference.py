"""An independent reference computation of attention, right and under named mistakes.

It shares nothing with symattn's engines: the matrices of a problem dict are read here
(integers, fractions "a/b", decimals; no roots), and every step is computed with
Python's Fraction and Decimal at 40 digits.  The tests make a student's answers with it,
so the checker is never tested against its own arithmetic.

Mistakes (one, or several at once as a tuple): ``no_scaling``, ``scaled_by_d_model``,
``scaled_by_dk``, ``scale_multiplied``, ``no_softmax``, ``softmax_wrong_axis``,
``softmax_global``, ``exp_missing_in_softmax``, ``scores_transposed``,
``weights_transposed``, ``weighted_sum_of_keys``, ``weighted_sum_of_inputs``,
``mask_after_softmax``, ``mask_wrong_triangle``, ``premature_rounding_P`` (the softmax
input rounded to P places); backward: ``jacobian_diagonal_only``,
``backward_no_scaling``, ``backward_transposed``.
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
    mistake: str | tuple[str, ...] | None = None,
    overrides: Mapping[str, Matrix] | None = None,
) -> dict[str, Matrix]:
    """Every step of ``problem`` (a dict with X and the W's, optional scale/mask, and dO or
    target for the gradients), made with ``mistake``; a step in ``overrides`` is taken as
    given (the student's own)."""
    given = dict(overrides or {})
    out: dict[str, Matrix] = {}
    made = set(mistake) if isinstance(mistake, tuple) else {mistake}

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
        scores = _mul(k, _t(q)) if "scores_transposed" in made else _mul(q, _t(k))
        scores = take("scores", scores)
        scale = problem.get("scale", "sqrt(d_k)")
        if scale == "sqrt(d_k)":
            divisor = Decimal(d_k).sqrt()
        elif scale == "none":
            divisor = None
        else:
            divisor = _matrix([[scale]])[0][0]
        if divisor is not None:
            scale = divisor
            if "no_scaling" in made:
                divisor = Decimal(1)
            elif "scaled_by_d_model" in made:
                divisor = Decimal(d_model).sqrt()
            elif "scaled_by_dk" in made:
                divisor = Decimal(d_k)
            elif "scale_multiplied" in made:
                divisor = 1 / divisor
            scores = take("scaled_scores", [[s / divisor for s in row] for row in scores])
        unmasked = scores
        mask = problem.get("mask", "none")
        allowed = [[True] * m for _ in range(n)]
        if mask == "causal":
            allowed = [[j <= i for j in range(m)] for i in range(n)]
            if "mask_wrong_triangle" in made:
                allowed = [[j >= i for j in range(m)] for i in range(n)]
        elif isinstance(mask, list):
            allowed = [[bool(a) for a in row] for row in mask]
        if mask != "none":
            scores = take(
                "masked_scores",
                [[s if a else NEG_INF for s, a in zip(r, ar)] for r, ar in zip(scores, allowed)],
            )
        rounding = [x for x in made if x and x.startswith("premature_rounding_")]
        if rounding:
            places = int(rounding[0].rsplit("_", 1)[1])
            quantum = Decimal(1).scaleb(-places)
            scores = [
                [
                    s.quantize(quantum, rounding=decimal.ROUND_HALF_UP) if s.is_finite() else s
                    for s in row
                ]
                for row in scores
            ]
        if "no_softmax" in made:
            weights = [[s if s.is_finite() else Decimal(0) for s in row] for row in scores]
        elif "softmax_wrong_axis" in made:
            weights = _t(_softmax_rows(_t(scores)))
        elif "softmax_global" in made:
            flat = _softmax_rows([[x for row in scores for x in row]])[0]
            weights = [flat[i * m : (i + 1) * m] for i in range(n)]
        elif "exp_missing_in_softmax" in made:
            weights = _softmax_rows(scores, exp=False)
        elif "mask_after_softmax" in made:
            weights = [
                [w if a else Decimal(0) for w, a in zip(r, ar)]
                for r, ar in zip(_softmax_rows(unmasked), allowed)
            ]
        else:
            weights = _softmax_rows(scores)
        if "weights_transposed" in made:
            weights = _t(weights)
        weights = take("weights", weights)
        summed = (
            k if "weighted_sum_of_keys" in made else (x if "weighted_sum_of_inputs" in made else v)
        )
        output = take("output", _mul(weights, summed))
        if "dO" in problem or "target" in problem:
            _gradients(
                problem,
                made,
                out,
                take,
                x,
                q,
                k,
                v,
                weights,
                output,
                scale if divisor is not None else None,
            )
    return out


def _gradients(
    problem: Mapping[str, Any],
    made: set[str | None],
    out: dict[str, Matrix],
    take: Any,
    x: Matrix,
    q: Matrix,
    k: Matrix,
    v: Matrix,
    a: Matrix,
    o: Matrix,
    scale: Decimal | None,
) -> None:
    """The backward pass, from dO (or O − T)."""
    if "dO" in problem:
        d_o = take("dO", _matrix(problem["dO"]))
    else:
        target = _matrix(problem["target"])
        d_o = take("dO", [[p - t for p, t in zip(r, s)] for r, s in zip(o, target)])
    transposed = "backward_transposed" in made
    d_v = take("dV", _mul(a, d_o) if transposed else _mul(_t(a), d_o))
    d_a = take("dweights", _mul(d_o, _t(v)))
    jacobian = []
    for a_row, g_row in zip(a, d_a):
        if "jacobian_diagonal_only" in made:
            jacobian.append([p * (1 - p) * g for p, g in zip(a_row, g_row)])
        else:
            inner = sum((p * g for p, g in zip(a_row, g_row)), Decimal(0))
            jacobian.append([p * (g - inner) for p, g in zip(a_row, g_row)])
    if scale is not None:
        jacobian = take("dscaled_scores", jacobian)
        divisor = Decimal(1) if "backward_no_scaling" in made else scale
        d_s = take("dscores", [[g / divisor for g in row] for row in jacobian])
    else:
        d_s = take("dscores", jacobian)
    d_q = take("dQ", _mul(d_s, k))
    d_k = take("dK", _mul(d_s, q) if transposed else _mul(_t(d_s), q))
    w_q, w_k, w_v = (_matrix(problem[w]) for w in ("W_Q", "W_K", "W_V"))
    take("dW_Q", _mul(_t(x), d_q))
    take("dW_K", _mul(_t(x), d_k))
    take("dW_V", _mul(_t(x), d_v))
    terms = [_mul(d_q, _t(w_q)), _mul(d_k, _t(w_k)), _mul(d_v, _t(w_v))]
    take("dX", [[sum(cells, Decimal(0)) for cells in zip(*rows)] for rows in zip(*terms)])
