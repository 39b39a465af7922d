"""The independent NumPy path: attention in float64, as a numerical library does it.

This module shares nothing with the exact engine but the :class:`~symattn.spec.Problem`:
it converts the given matrices to float64 and runs attention with a stable softmax
(the row maximum subtracted) and masks as −inf.  Next to each value it carries the
size of the terms behind it (Σ_k |a_ik||b_kj| for a product, carried on from the sizes
of the steps before, never restarted from |values|; for a weight, the terms of its
scores), which :mod:`symattn.crosscheck` uses to measure relative error.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ..topics.numpy_base import Attention, NumpyPath

if TYPE_CHECKING:
    from ..problem import Matrix, Problem

#: The NumPy siblings of a problem's topics, with their configs (handed in by the caller,
#: so that this module never imports the topics' exact side).
Paths = Sequence[tuple[NumpyPath, Any]]

__all__ = ["backward", "forward"]

Array = NDArray[np.float64]
Pair = tuple[Array, Array]


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


def forward(problem: Problem, paths: Paths = ()) -> dict[str, tuple[Array, Array]]:
    """Float64 attention: step id → (values, magnitude of the terms behind each entry),
    in the row layout, with the steps of the problem's topics (``paths``).

    Overflow and invalid operations (scores of 10⁴⁰⁰) give inf and NaN silently; the
    cross-check does not compare entries whose terms are not finite.
    """
    with np.errstate(all="ignore"):
        return _forward(problem, paths)


def _divisor(problem: Problem, paths: Paths) -> float | None:
    """The scale times the topics' factors (the temperature), as a float."""
    c = None if problem.scale is None else float(problem.scale)
    for path, config in paths:
        factor = path.divisor(problem, config)
        if factor is not None:
            c = factor if c is None else c * factor
    return c


def _forward(problem: Problem, paths: Paths) -> dict[str, tuple[Array, Array]]:
    out: dict[str, tuple[Array, Array]] = {}
    x_name = "X"
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
        for path, config in paths:  # X, or X̃ = X + P
            x_name = path.after_x(problem, config, x_name, out)
        attended = x_name
        for path, config in paths:  # X̃, or LN(X̃) before a pre-norm block
            attended = path.attended(problem, config, attended, out)
        # the sizes carry on from the step before (a LayerNorm's cancellation included),
        # never restarted from |values|: that would hide the conditioning of what came before
        x, mx = out[attended]
        kv_of = _keys(problem, paths)  # a topic's matrix (a memory), or X
        if kv_of is not None:
            kv, mkv = kv_of, np.abs(kv_of)
        else:
            kv, mkv = x, mx
        wq, wk, wv = (_floats(m) for m in (problem.W_Q, problem.W_K, problem.W_V))
        q, k, v = x @ wq, kv @ wk, kv @ wv
        mq, mk, mv = mx @ np.abs(wq), mkv @ np.abs(wk), mkv @ np.abs(wv)
    if problem.X is not None and "X" not in out:
        x = _floats(problem.X)
        out["X"] = (x, np.abs(x))
    heads = problem.heads
    divisor = _divisor(problem, paths)
    attention: list[tuple[str, str, str]] = []
    if heads == 1 and problem.W_O is None:
        attention.append(_head(out, "", problem, (q, mq), (k, mk), (v, mv), paths, divisor)[1])
        _after(problem, paths, out, Attention(tuple(attention), divisor, "output", x_name))
        return out
    d_k, d_v = problem.d_k, problem.d_v
    pieces = []
    for t in range(heads):
        g = _group(problem, paths, t)
        qs, ks, vs = (
            slice(t * d_k, (t + 1) * d_k),
            slice(g * d_k, (g + 1) * d_k),
            slice(g * d_v, (g + 1) * d_v),
        )
        piece, names = _head(
            out,
            f"h{t + 1}.",
            problem,
            (q[:, qs], mq[:, qs]),
            (k[:, ks], mk[:, ks]),
            (v[:, vs], mv[:, vs]),
            paths,
            divisor,
        )
        pieces.append(piece)
        attention.append(names)
    concat = np.hstack([p[0] for p in pieces])
    concat_mag = np.hstack([p[1] for p in pieces])
    out["concat"] = (concat, concat_mag)
    if problem.W_O is not None:
        wo = _floats(problem.W_O)
        out["output"] = (concat @ wo, concat_mag @ np.abs(wo))
    else:
        out["output"] = (concat, concat_mag)
    _after(problem, paths, out, Attention(tuple(attention), divisor, "output", x_name))
    return out


def _group(problem: Problem, paths: Paths, head: int) -> int:
    """Head t's K/V head: its own, unless a topic groups them (⌊t·g/h⌋)."""
    for path, config in paths:
        group = path.kv_group(problem, config, head)
        if group is not None:
            return group
    return head


def _keys(problem: Problem, paths: Paths) -> Array | None:
    """What K and V are projected from when a topic says (a memory), else None (X)."""
    for path, config in paths:
        found = path.keys(problem, config)
        if found is not None:
            return found
    return None


def _after(problem: Problem, paths: Paths, out: dict[str, Pair], attention: Attention) -> None:
    for path, config in paths:
        path.after_attention(problem, config, out, attention)


def _head(
    out: dict[str, tuple[Array, Array]],
    prefix: str,
    problem: Problem,
    qs: Pair,
    ks: Pair,
    vs: Pair,
    paths: Paths,
    divisor: float | None,
) -> tuple[Pair, tuple[str, str, str]]:
    """One head of attention in float64; its steps go in ``out`` with ``prefix``; returns
    its output and the names of the queries and keys it scored."""
    out[f"{prefix}Q"], out[f"{prefix}K"], out[f"{prefix}V"] = qs, ks, vs
    q_name, k_name = f"{prefix}Q", f"{prefix}K"
    for path, config in paths:  # a topic may turn them
        q_name, k_name = path.after_qk(problem, config, prefix, q_name, k_name, out)
    names = (prefix, q_name, k_name)
    (q, mq), (k, mk), (v, mv) = out[q_name], out[k_name], vs
    scored = None
    for path, config in paths:  # a topic's own scores
        scored = scored or path.scores(problem, config, prefix, q_name, k_name, out)
    scores, mag = scored if scored is not None else (q @ k.T, mq @ mk.T)
    out[f"{prefix}scores"] = (scores, mag)
    if divisor is not None:
        scores, mag = scores / divisor, mag / divisor
        out[f"{prefix}scaled_scores"] = (scores, mag)
    head = int(prefix[1:-1]) - 1 if prefix else 0
    for path, config in paths:
        scores, mag = path.on_scores(problem, config, prefix, head, (scores, mag), out)
    if problem.mask is not None:
        keep = np.array(problem.mask, dtype=bool)
        for path, config in paths:
            keep = path.keep(problem, config, keep)
        scores = np.where(keep, scores, -np.inf)
        out[f"{prefix}masked_scores"] = (scores, mag)
    top = np.max(scores, axis=1, keepdims=True)
    e = np.exp(scores - top)
    weights = e / np.sum(e, axis=1, keepdims=True)
    # exp(s_j − max) carries the absolute error of s_j − max, about ε·(|terms of s_j| +
    # |terms of the max|): so weight j has the size w_j·(1 + |terms of s_j| + the row's
    # largest terms), at least the row's largest weight.  A float path that cannot resolve
    # the scores at all (10⁹⁹ + 1 against 10⁹⁹, or s − 10⁹ with a mask added) is then
    # measured against what float64 can do; terms that overflowed leave the row uncompared.
    top_terms = np.max(mag, axis=1, keepdims=True)
    terms = np.where(weights > 0, weights * (1.0 + mag + top_terms), 0.0)
    terms = np.where(np.isfinite(top_terms), terms, np.inf)
    row_max = np.max(weights, axis=1, keepdims=True)
    out[f"{prefix}weights"] = (weights, np.maximum(terms, row_max))
    out[f"{prefix}output"] = (weights @ v, weights @ mv + terms @ np.abs(v))
    return out[f"{prefix}output"], names


def backward(problem: Problem, out: dict[str, tuple[Array, Array]], paths: Paths = ()) -> None:
    """Float64 gradients of the backward pass, added to ``out`` (values, size of the terms);
    ``paths`` as for :func:`forward` (a memory's keys)."""
    with np.errstate(all="ignore"):
        _backward(problem, out, _keys(problem, paths))


def _backward(problem: Problem, out: dict[str, tuple[Array, Array]], kv_of: Array | None) -> None:
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
        parts = [_backward_head(problem, out, "", d_o, md_o, kv_of)]
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
            parts.append(_backward_head(problem, out, prefix, dc[:, block], mdc[:, block], kv_of))
    if problem.X is not None and problem.W_Q is not None:
        out["dX"] = (np.sum([p[0] for p in parts], axis=0), np.sum([p[1] for p in parts], axis=0))


def _backward_head(
    problem: Problem,
    out: dict[str, tuple[Array, Array]],
    prefix: str,
    d_o: Array,
    md_o: Array,
    kv_of: Array | None,
) -> tuple[Array, Array]:
    """One head's gradients; returns its share of dX (and of its size); ``kv_of``: what K
    and V were projected from when not X (a memory), whose gradient dX does not take."""
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
    kv = kv_of if kv_of is not None else x
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
    if kv_of is None:
        dx = dx + dk @ wk.T + dv @ wv.T
        mdx = mdx + mdk @ np.abs(wk).T + mdv @ np.abs(wv).T
    return dx, mdx
