"""The independent NumPy path for docs/topics.md: the sinusoidal table, RoPE, additive
attention, the temperature, additive masks and the column layout, in float64.

Like :mod:`.numeric`, this shares nothing with the exact path: the table and the
rotations come from ``np.sin``/``np.cos`` of float angles, tanh from ``np.tanh``, and
the column layout is the row-layout computation transposed at the end (the exact path
computes it down the columns).  Each value comes with the size of the terms behind it,
for the cross-check's relative error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from ..problem import Matrix, Problem

__all__ = [
    "additive",
    "divisor",
    "masked",
    "rotate",
    "sinusoidal",
    "to_columns",
    "with_positions",
]

Array = NDArray[np.float64]
Pair = tuple[Array, Array]


def _floats(matrix: Matrix) -> Array:
    return np.array([[float(x) for x in row] for row in matrix], dtype=np.float64)


def sinusoidal(n: int, d: int, base: float = 10000.0) -> Array:
    """P[pos, 2i] = sin(pos / base^(2i/d)), P[pos, 2i+1] = cos(pos / base^(2i/d))."""
    pos = np.arange(n, dtype=np.float64)[:, None]
    twice_i = (np.arange(d) // 2 * 2).astype(np.float64)[None, :]
    angles = pos / np.power(base, twice_i / d)
    return np.where(np.arange(d)[None, :] % 2 == 0, np.sin(angles), np.cos(angles))


def with_positions(problem: Problem, x: Array, out: dict[str, Pair]) -> Array:
    """X + P when the problem has positions (P and X_pos go in ``out``)."""
    if problem.positions == "none":
        return x
    if problem.positions == "given":
        assert problem.P is not None
        p = _floats(problem.P)
    else:
        p = sinusoidal(x.shape[0], x.shape[1])
    out["P"] = (p, np.abs(p))
    x_pos = x + p
    out["X_pos"] = (x_pos, np.abs(x) + np.abs(p))
    return x_pos


def rotate(x: Array, mag: Array, base: float) -> Pair:
    """RoPE on each row pos: pairs (2i, 2i+1) turned by pos · base^(−2i/d)."""
    n, d = x.shape
    theta = (
        np.arange(n, dtype=np.float64)[:, None]
        * np.power(base, -np.arange(0, d, 2, dtype=np.float64) / d)[None, :]
    )
    c, s = np.cos(theta), np.sin(theta)
    even, odd = x[:, 0::2], x[:, 1::2]
    out = np.empty_like(x)
    out[:, 0::2] = even * c - odd * s
    out[:, 1::2] = even * s + odd * c
    size = np.empty_like(mag)
    pair = mag[:, 0::2] + mag[:, 1::2]
    size[:, 0::2], size[:, 1::2] = pair, pair
    return out, size


def additive(problem: Problem, q: Array, k: Array) -> tuple[Pair, Pair]:
    """Bahdanau: H[(i, j)] = q_i W_a + k_j U_a, S[i, j] = tanh(H[(i, j)]) · v_a."""
    assert problem.W_a is not None and problem.U_a is not None and problem.v_a is not None
    w_a, u_a, v_a = (_floats(m) for m in (problem.W_a, problem.U_a, problem.v_a))
    n, m = q.shape[0], k.shape[0]
    hidden = (q @ w_a)[:, None, :] + (k @ u_a)[None, :, :]
    hidden_mag = (np.abs(q) @ np.abs(w_a))[:, None, :] + (np.abs(k) @ np.abs(u_a))[None, :, :]
    scores = np.tanh(hidden) @ v_a[:, 0]
    # tanh is 1-Lipschitz: the size of a score is Σ |v_r| (|tanh h_r| + |h_r| ε-terms)
    scores_mag = (np.abs(np.tanh(hidden)) + hidden_mag) @ np.abs(v_a[:, 0])
    flat = hidden.reshape(n * m, -1)
    return (flat, hidden_mag.reshape(n * m, -1)), (scores, scores_mag)


def divisor(problem: Problem) -> float | None:
    """The scale times the temperature, as a float (None: the scores are not divided)."""
    c = None if problem.scale is None else float(problem.scale)
    if problem.temperature is None:
        return c
    tau = float(problem.temperature)
    return tau if c is None else c * tau


def masked(problem: Problem, scores: Array, mag: Array) -> Pair:
    """The mask: −inf where a keep-mask forbids, or the additive mask's numbers added."""
    if problem.mask_add is not None:
        add = _floats(problem.mask_add)
        return scores + add, mag + np.where(np.isfinite(add), np.abs(add), 0.0)
    assert problem.mask is not None
    allowed = np.array(problem.mask, dtype=bool)
    return np.where(allowed, scores, -np.inf), mag


def to_columns(out: dict[str, Pair]) -> dict[str, Pair]:
    """The column layout: every matrix transposed (tokens as columns)."""
    return {key: (value.T.copy(), size.T.copy()) for key, (value, size) in out.items()}
