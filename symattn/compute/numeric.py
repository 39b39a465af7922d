"""The independent NumPy path: attention in float64, as a numerical library does it.

This module shares nothing with the exact engine but the :class:`~symattn.spec.Problem`:
it converts the given matrices to float64 and runs attention with a stable softmax
(the row maximum subtracted) and masks as −inf.  Next to each value it carries the
size of the terms behind it (Σ_k |a_ik||b_kj| for a product, the row's largest weight
for a weight), which :mod:`symattn.crosscheck` uses to measure relative error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from . import numeric_block as block
from . import numeric_positions as positions

if TYPE_CHECKING:
    from ..problem import Matrix, Problem

__all__ = ["backward", "forward"]

Array = NDArray[np.float64]

#: Relative error of a weight beyond which float64 is taken to have lost the weight.
LOST = 1e-9


def _floats(matrix: Matrix) -> Array:
    """The matrix in float64; an entry object seen before is not converted again (a
    problem file's repeated values are one object)."""
    seen: dict[int, float] = {}
    rows = []
    for row in matrix:
        cells = []
        for x in row:
            value = seen.get(id(x))
            if value is None:
                value = seen[id(x)] = float(x)
            cells.append(value)
        rows.append(cells)
    return np.array(rows, dtype=np.float64)


def forward(problem: Problem) -> dict[str, tuple[Array, Array]]:
    """Float64 attention: step id → (values, magnitude of the terms behind each entry).

    Overflow and invalid operations (scores of 10⁴⁰⁰) give inf and NaN silently; the
    cross-check does not compare entries whose terms are not finite.
    """
    with np.errstate(all="ignore"):
        out = _forward(problem)
    return positions.to_columns(out) if problem.layout == "column" else out


def _forward(problem: Problem) -> dict[str, tuple[Array, Array]]:
    out: dict[str, tuple[Array, Array]] = {}
    if problem.lookup is not None:
        ids = np.array([[float(i)] for i in problem.lookup.ids])
        out["tokens"] = (ids, np.abs(ids))
    if problem.Q is not None and problem.K is not None and problem.V is not None:
        q, k, v = (_floats(m) for m in (problem.Q, problem.K, problem.V))
        mq, mk, mv = np.abs(q), np.abs(k), np.abs(v)
    else:
        assert problem.X is not None and problem.W_Q is not None
        assert problem.W_K is not None and problem.W_V is not None
        x = _floats(problem.X)
        out["X"] = (x, np.abs(x))
        x = positions.with_positions(problem, x, out)
        if problem.norm == "pre":  # a pre-norm block: attention reads LN(X) (LN(X̃))
            out["X_norm"] = block.layer_norm(problem, x, out.get("X_pos", out["X"])[1])
            x = out["X_norm"][0]
        kv = _floats(problem.memory) if problem.memory is not None else x
        wq, wk, wv = (_floats(m) for m in (problem.W_Q, problem.W_K, problem.W_V))
        q, k, v = x @ wq, kv @ wk, kv @ wv
        mq, mk, mv = np.abs(x) @ np.abs(wq), np.abs(kv) @ np.abs(wk), np.abs(kv) @ np.abs(wv)
    if problem.X is not None and "X" not in out:
        x = _floats(problem.X)
        out["X"] = (x, np.abs(x))
    heads = problem.heads
    if heads == 1 and problem.W_O is None:
        _head(out, "", problem, (q, mq), (k, mk), (v, mv))
        block.after_attention(out, problem, "output", [""])
        return out
    d_k, d_v = problem.d_k, problem.d_v
    groups = problem.kv_heads or heads  # grouped-query attention: head t uses ⌊t·g/h⌋
    pieces = []
    for t in range(heads):
        g = t * groups // heads
        qs, ks, vs = (
            slice(t * d_k, (t + 1) * d_k),
            slice(g * d_k, (g + 1) * d_k),
            slice(g * d_v, (g + 1) * d_v),
        )
        pieces.append(
            _head(
                out,
                f"h{t + 1}.",
                problem,
                (q[:, qs], mq[:, qs]),
                (k[:, ks], mk[:, ks]),
                (v[:, vs], mv[:, vs]),
            )
        )
    concat = np.hstack([p[0] for p in pieces])
    concat_mag = np.hstack([p[1] for p in pieces])
    out["concat"] = (concat, concat_mag)
    if problem.W_O is not None:
        wo = _floats(problem.W_O)
        out["output"] = (concat @ wo, concat_mag @ np.abs(wo))
    else:
        out["output"] = (concat, concat_mag)
    prefixes = [f"h{t + 1}." for t in range(heads)]
    block.after_attention(out, problem, "output", prefixes)
    return out


def _head(
    out: dict[str, tuple[Array, Array]],
    prefix: str,
    problem: Problem,
    qs: tuple[Array, Array],
    ks: tuple[Array, Array],
    vs: tuple[Array, Array],
) -> tuple[Array, Array]:
    """One head of attention in float64; its steps go in ``out`` with ``prefix``."""
    (q, mq), (k, mk), (v, mv) = qs, ks, vs
    out[f"{prefix}Q"], out[f"{prefix}K"], out[f"{prefix}V"] = (q, mq), (k, mk), (v, mv)
    if problem.rope:
        base = float(problem.rope_base)
        (q, mq), (k, mk) = positions.rotate(q, mq, base), positions.rotate(k, mk, base)
        out[f"{prefix}Q_rot"], out[f"{prefix}K_rot"] = (q, mq), (k, mk)
    if problem.score == "additive":
        out[f"{prefix}additive_hidden"], (scores, mag) = positions.additive(problem, q, k)
    else:
        scores, mag = q @ k.T, mq @ mk.T
    out[f"{prefix}scores"] = (scores, mag)
    c = positions.divisor(problem)
    if c is not None:
        scores, mag = scores / c, mag / c
        out[f"{prefix}scaled_scores"] = (scores, mag)
    if problem.mask is not None or problem.mask_add is not None:
        scores, mag = positions.masked(problem, scores, mag)
        out[f"{prefix}masked_scores"] = (scores, mag)
    top = np.max(scores, axis=1, keepdims=True)
    e = np.exp(scores - top)
    weights = e / np.sum(e, axis=1, keepdims=True)
    # float64 gives each weight to about 2·ε·max|terms of the row's scores| (relative):
    # past LOST, the sizes grow with it, so that a float path that cannot resolve the
    # scores (10⁹⁹ + 1 against 10⁹⁹) is not reported as disagreeing.
    lost = 2 * np.finfo(np.float64).eps * np.max(mag, axis=1, keepdims=True)
    widen = np.maximum(1.0, lost / LOST)
    row_max = np.broadcast_to(np.max(weights, axis=1, keepdims=True) * widen, weights.shape)
    out[f"{prefix}weights"] = (weights, row_max.copy())
    out[f"{prefix}output"] = (weights @ v, (weights @ mv) * widen)
    return out[f"{prefix}output"]


def backward(problem: Problem, out: dict[str, tuple[Array, Array]]) -> None:
    """Float64 gradients of the backward pass, added to ``out`` (values, size of the terms)."""
    with np.errstate(all="ignore"):
        _backward(problem, out)


def _backward(problem: Problem, out: dict[str, tuple[Array, Array]]) -> None:
    o = out["output"][0]
    if problem.dO is not None:
        d_o = _floats(problem.dO)
        md_o = np.abs(d_o)
    else:
        assert problem.target is not None
        t = _floats(problem.target)
        d_o, md_o = o - t, np.abs(o) + np.abs(t)
    out["dO"] = (d_o, md_o)
    if problem.heads == 1 and problem.W_O is None:
        parts = [_backward_head(problem, out, "", d_o, md_o)]
    else:
        dc, mdc = d_o, md_o
        if problem.W_O is not None:
            concat, mconcat = out["concat"]
            wo = _floats(problem.W_O)
            out["dW_O"] = (concat.T @ d_o, mconcat.T @ md_o)
            dc, mdc = d_o @ wo.T, md_o @ np.abs(wo).T
            out["dconcat"] = (dc, mdc)
        parts = []
        width = problem.d_v
        for h in range(problem.heads):
            block = slice(h * width, (h + 1) * width)
            prefix = f"h{h + 1}."
            out[f"{prefix}dO"] = (dc[:, block], mdc[:, block])
            parts.append(_backward_head(problem, out, prefix, dc[:, block], mdc[:, block]))
    if problem.X is not None and problem.W_Q is not None:
        out["dX"] = (np.sum([p[0] for p in parts], axis=0), np.sum([p[1] for p in parts], axis=0))


def _backward_head(
    problem: Problem, out: dict[str, tuple[Array, Array]], prefix: str, d_o: Array, md_o: Array
) -> tuple[Array, Array]:
    """One head's gradients; returns its share of dX (and of its size)."""
    a, _ = out[f"{prefix}weights"]
    v, mv = out[f"{prefix}V"]
    q = out[f"{prefix}Q"][0]
    k = out[f"{prefix}K"][0]
    out[f"{prefix}dV"] = (a.T @ d_o, np.abs(a).T @ md_o)
    da, mda = d_o @ v.T, md_o @ mv.T
    out[f"{prefix}dweights"] = (da, mda)
    inner = np.sum(a * da, axis=1, keepdims=True)
    ds = a * (da - inner)
    mds = np.abs(a) * (mda + np.sum(np.abs(a) * mda, axis=1, keepdims=True))
    if problem.scale is not None:
        out[f"{prefix}dscaled_scores"] = (ds, mds)
        c = float(problem.scale)
        ds, mds = ds / c, mds / c
    out[f"{prefix}dscores"] = (ds, mds)
    dq, mdq = ds @ k, mds @ np.abs(k)
    dk, mdk = ds.T @ q, mds.T @ np.abs(q)
    dv, mdv = out[f"{prefix}dV"]
    out[f"{prefix}dQ"], out[f"{prefix}dK"] = (dq, mdq), (dk, mdk)
    if problem.X is None or problem.W_Q is None:
        return np.zeros(1), np.zeros(1)
    assert problem.W_K is not None and problem.W_V is not None
    x = _floats(problem.X)
    kv = _floats(problem.memory) if problem.memory is not None else x
    out[f"{prefix}dW_Q"] = (x.T @ dq, np.abs(x).T @ mdq)
    out[f"{prefix}dW_K"] = (kv.T @ dk, np.abs(kv).T @ mdk)
    out[f"{prefix}dW_V"] = (kv.T @ dv, np.abs(kv).T @ mdv)
    head = int(prefix[1:-1]) - 1 if prefix else 0
    d_k, d_v = problem.d_k, problem.d_v
    wq, wk, wv = (_floats(m) for m in (problem.W_Q, problem.W_K, problem.W_V))
    if prefix:
        wq = wq[:, head * d_k : (head + 1) * d_k]
        wk = wk[:, head * d_k : (head + 1) * d_k]
        wv = wv[:, head * d_v : (head + 1) * d_v]
    dx, mdx = dq @ wq.T, mdq @ np.abs(wq).T
    if problem.memory is None:
        dx = dx + dk @ wk.T + dv @ wv.T
        mdx = mdx + mdk @ np.abs(wk).T + mdv @ np.abs(wv).T
    return dx, mdx
