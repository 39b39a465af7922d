"""An independent reference for the further topics: the sinusoidal table, RoPE,
additive attention, the temperature, additive masks, ``valid_lens`` and the column
layout, right and under named mistakes.

It shares nothing with symattn: a problem dict is read here (integers, fractions
"a/b", decimals; no roots), and every step is computed with mpmath at 40 digits
(sin, cos, tanh, exp of mpmath, not FLINT's balls, not NumPy).  The column layout is
the row computation transposed at the end (symattn computes it down the columns:
Q = W_Q X, S = Kᵀ Q, softmax down each column, O = V A), so the two meet only in the
numbers.

Mistakes: ``pe_sin_cos_swapped``, ``pe_added_after_projection``, ``rope_pairs_wrong``
(rotate-half pairs (i, i + d/2)), ``row_layout`` (a column-layout problem worked in the
row layout, every matrix transposed).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, TypeVar

import mpmath

#: Digits of every computation here (mpmath's precision is global: set it on each call, so
#: that another test module's setting never reaches this reference).
DIGITS = 40
Matrix = list[list[Any]]
NEG_INF = mpmath.mpf("-inf")


F = TypeVar("F", bound=Callable[..., Any])


def _precise(function: F) -> F:
    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> Any:
        with mpmath.workdps(DIGITS):
            return function(*args, **kwargs)

    return run  # type: ignore[return-value]


def _number(raw: Any) -> Any:
    if isinstance(raw, str) and raw.strip().lower() in ("-inf", "−inf", "-∞", "−∞"):
        return NEG_INF
    q = Fraction(raw) if not isinstance(raw, float) else Fraction(str(raw))
    return mpmath.mpf(q.numerator) / q.denominator


def _matrix(raw: Any) -> Matrix:
    return [[_number(x) for x in row] for row in raw]


def _t(a: Matrix) -> Matrix:
    return [list(c) for c in zip(*a)]


def _mul(a: Matrix, b: Matrix) -> Matrix:
    return [[mpmath.fsum(x * y for x, y in zip(row, col)) for col in zip(*b)] for row in a]


def _add(a: Matrix, b: Matrix) -> Matrix:
    return [[x + y for x, y in zip(r, s)] for r, s in zip(a, b)]


@_precise
def sinusoidal(n: int, d: int, swapped: bool = False) -> Matrix:
    out = []
    for pos in range(n):
        row = []
        for c in range(d):
            theta = mpmath.mpf(pos) / mpmath.power(10000, mpmath.mpf(c - c % 2) / d)
            odd = c % 2 == 1
            row.append(mpmath.cos(theta) if odd != swapped else mpmath.sin(theta))
        out.append(row)
    return out


@_precise
def rope(x: Matrix, base: Any, half: bool = False) -> Matrix:
    d = len(x[0])
    pairs = [(t, t + d // 2) if half else (2 * t, 2 * t + 1) for t in range(d // 2)]
    out = []
    for pos, row in enumerate(x):
        new = list(row)
        for t, (a, b) in enumerate(pairs):
            theta = pos * mpmath.power(base, -mpmath.mpf(2 * t) / d)
            c, s = mpmath.cos(theta), mpmath.sin(theta)
            new[a], new[b] = row[a] * c - row[b] * s, row[a] * s + row[b] * c
        out.append(new)
    return out


def _softmax_rows(scores: Matrix) -> Matrix:
    out = []
    for row in scores:
        top = max(x for x in row if x != NEG_INF)
        e = [mpmath.exp(x - top) if x != NEG_INF else mpmath.mpf(0) for x in row]
        total = mpmath.fsum(e)
        out.append([x / total for x in e])
    return out


@_precise
def attention(problem: Mapping[str, Any], mistake: str | None = None) -> dict[str, Matrix]:
    """Every step of ``problem`` (row layout unless it says column), under ``mistake``."""
    column = problem.get("layout") == "column" and mistake != "row_layout"
    turn = problem.get("layout") == "column"  # the file's matrices are columns
    get = {k: _matrix(problem[k]) for k in ("X", "W_Q", "W_K", "W_V") if k in problem}
    if turn:
        get = {k: _t(v) for k, v in get.items()}
    x = get["X"]
    n, d_model = len(x), len(x[0])
    out: dict[str, Matrix] = {"X": x}
    positions = problem.get("positions", "none")
    add_after = None
    if positions != "none":
        p = (
            sinusoidal(n, d_model, mistake == "pe_sin_cos_swapped")
            if positions == "sinusoidal"
            else _matrix(positions)
        )
        out["P"], out["X_pos"] = p, _add(x, p)
        if mistake == "pe_added_after_projection":
            add_after = p
        else:
            x = out["X_pos"]
    q, k, v = (_mul(x, get[w]) for w in ("W_Q", "W_K", "W_V"))
    if add_after is not None:
        q, k, v = (m if len(m[0]) != d_model else _add(m, add_after) for m in (q, k, v))
    out["Q"], out["K"], out["V"] = q, k, v
    if problem.get("rope"):
        base = _number(problem.get("rope_base", 10000))
        q, k = (
            rope(q, base, mistake == "rope_pairs_wrong"),
            rope(k, base, mistake == "rope_pairs_wrong"),
        )
        out["Q_rot"], out["K_rot"] = q, k
    d_k = len(q[0])
    if problem.get("score") == "additive":
        w_a, u_a = _matrix(problem["W_a"]), _matrix(problem["U_a"])
        v_a = [_number(x) for x in problem["v_a"]]
        qw, ku = _mul(q, w_a), _mul(k, u_a)
        hidden = [[a + b for a, b in zip(r, s)] for r in qw for s in ku]
        out["additive_hidden"] = hidden
        m = len(k)
        flat = [mpmath.fsum(mpmath.tanh(h) * w for h, w in zip(row, v_a)) for row in hidden]
        scores = [flat[i * m : (i + 1) * m] for i in range(n)]
        scale = problem.get("scale", "none")
    else:
        scores = _mul(q, _t(k))
        scale = problem.get("scale", "sqrt(d_k)")
    out["scores"] = scores
    divisor = (
        None if scale == "none" else mpmath.sqrt(d_k) if scale == "sqrt(d_k)" else _number(scale)
    )
    if "temperature" in problem:
        tau = _number(problem["temperature"])
        divisor = tau if divisor is None else divisor * tau
    if divisor is not None:
        scores = [[s / divisor for s in row] for row in scores]
        out["scaled_scores"] = scores
    mask = problem.get("mask", "none")
    m = len(scores[0])
    keep = [[True] * m for _ in range(n)]
    if mask == "causal":
        keep = [[j <= i for j in range(m)] for i in range(n)]
    lens = problem.get("valid_lens")
    if lens is not None:
        lens = [lens] * n if isinstance(lens, int) else lens
        keep = [[kp and j < lens[i] for j, kp in enumerate(row)] for i, row in enumerate(keep)]
    if isinstance(mask, list):
        add = _matrix(mask)
        if turn:
            add = _t(add)
        scores = [
            [s + a if kp else NEG_INF for s, a, kp in zip(r, ar, kr)]
            for r, ar, kr in zip(scores, add, keep)
        ]
        out["masked_scores"] = scores
    elif mask == "causal" or lens is not None:
        scores = [[s if kp else NEG_INF for s, kp in zip(r, kr)] for r, kr in zip(scores, keep)]
        out["masked_scores"] = scores
    weights = _softmax_rows(scores)
    out["weights"] = weights
    out["output"] = _mul(weights, v)
    if column:  # the column layout: every matrix transposed (tokens are columns)
        out = {key: _t(value) for key, value in out.items() if key != "additive_hidden"}
    return out
