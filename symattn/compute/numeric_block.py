"""The independent NumPy path of a decode step and an encoder block, in float64.

Like :mod:`.numeric`, this shares nothing with the exact path: the K/V cache is a
slice, the decoding step a stable softmax of one row, LayerNorm NumPy's mean and
variance.  The block's input is X, or X̃ = X + P with positions (what attention read
before its projections); the decode step reads the rotated queries and keys with RoPE
and divides as the scores are (the temperature included).  Each value comes with the
size of the terms behind it, for the cross-check's relative error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from .numeric_positions import divisor

if TYPE_CHECKING:
    from ..problem import Matrix, Problem

__all__ = ["after_attention", "layer_norm"]

Array = NDArray[np.float64]
Pair = tuple[Array, Array]


def _floats(matrix: Matrix) -> Array:
    return np.array([[float(x) for x in row] for row in matrix], dtype=np.float64)


def after_attention(
    out: dict[str, Pair], problem: Problem, output: str, prefixes: list[str]
) -> None:
    """The decode step of each head and the block after attention, into ``out``."""
    if problem.decode:
        for prefix in prefixes:
            _decode(out, problem, prefix)
    if problem.norm is not None:
        _block(out, problem, output)


def _decode(out: dict[str, Pair], problem: Problem, prefix: str) -> None:
    """The last query over the first n − 1 keys and values (the cache) and its own."""
    rot = "_rot" if problem.rope else ""
    q, (k, mk), (v, mv) = out[f"{prefix}Q{rot}"][0], out[f"{prefix}K{rot}"], out[f"{prefix}V"]
    n = q.shape[0]
    out[f"{prefix}cache_K"] = (k[: n - 1], mk[: n - 1])
    out[f"{prefix}cache_V"] = (v[: n - 1], mv[: n - 1])
    scores = q[n - 1 :] @ k.T
    c = divisor(problem)
    if c is not None:
        scores = scores / c
    e = np.exp(scores - np.max(scores))
    weights = e / np.sum(e)
    out[f"{prefix}decode"] = (weights @ v, weights @ mv)


def layer_norm(problem: Problem, x: Array, mag: Array) -> Pair:
    """LayerNorm of each row, biased variance; size: the terms (|x| + |μ|) |γ| / σ + |β|."""
    width = x.shape[1]
    gamma = _floats(problem.gamma) if problem.gamma is not None else np.ones((1, width))
    beta = _floats(problem.beta) if problem.beta is not None else np.zeros((1, width))
    eps = float(problem.eps) if problem.eps is not None else 0.0
    mean = np.mean(x, axis=1, keepdims=True)
    sigma = np.sqrt(np.mean((x - mean) ** 2, axis=1, keepdims=True) + eps)
    size = (mag + np.mean(mag, axis=1, keepdims=True)) * np.abs(gamma) / sigma + np.abs(beta)
    return gamma * (x - mean) / sigma + beta, size


def _block(out: dict[str, Pair], problem: Problem, output: str) -> None:
    """Residual, LayerNorm and the ReLU feed-forward network, post- or pre-norm."""
    assert problem.W_1 is not None and problem.W_2 is not None
    assert problem.b_1 is not None and problem.b_2 is not None
    x, mx = out["X_pos"] if "X_pos" in out else out["X"]
    o, mo = out[output]
    w1, b1, w2, b2 = (_floats(m) for m in (problem.W_1, problem.b_1, problem.W_2, problem.b_2))
    out["residual"] = (x + o, mx + mo)
    out["norm"] = layer_norm(problem, x + o, mx + mo)
    z = out["norm"][0]
    hidden = z @ w1 + b1
    out["ffn_hidden"] = (np.maximum(hidden, 0.0), np.abs(z) @ np.abs(w1) + np.abs(b1))
    h, mh = out["ffn_hidden"]
    f, mf = out["ffn_output"] = (h @ w2 + b2, mh @ np.abs(w2) + np.abs(b2))
    if problem.norm == "pre":
        out["block_output"] = (x + o + f, mx + mo + mf)
    else:
        out["block_output"] = layer_norm(problem, z + f, np.abs(z) + mf)
