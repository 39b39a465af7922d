"""The independent NumPy path and the cross-check against the exact derivation.

This module shares nothing with the exact engine but the :class:`~symattn.spec.Problem`:
it converts the given matrices to float64 and runs attention the way a numerical
library does (stable softmax with the row maximum subtracted, masks as −inf).

The cross-check measures, for every entry of every step, the absolute error
``|float − exact|`` and a relative error against the larger of ``|exact|`` and the
*size of the terms that make the entry* (for a product C = AB: Σ_k |a_ik||b_kj|;
for a weight: the largest weight of its row).  Float64 cancellation (0.1 + 0.2 − 0.3)
and underflow (e^−1000) are then not reported as disagreement, while a wrong value
is.  ``passed`` means a relative error of at most 1e-12 everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from .spec import Matrix, Problem
    from .steps import Derivation

__all__ = ["TOLERANCE", "Crosscheck", "crosscheck", "forward"]

#: Largest relative error for the cross-check to pass.
TOLERANCE = 1e-12

Array = NDArray[np.float64]


def _floats(matrix: Matrix) -> Array:
    return np.array([[float(x) for x in row] for row in matrix], dtype=np.float64)


def forward(problem: Problem) -> dict[str, tuple[Array, Array]]:
    """Float64 attention: step id → (values, magnitude of the terms behind each entry)."""
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
        kv = _floats(problem.memory) if problem.memory is not None else x
        wq, wk, wv = (_floats(m) for m in (problem.W_Q, problem.W_K, problem.W_V))
        out["X"] = (x, np.abs(x))
        q, k, v = x @ wq, kv @ wk, kv @ wv
        mq, mk, mv = np.abs(x) @ np.abs(wq), np.abs(kv) @ np.abs(wk), np.abs(kv) @ np.abs(wv)
    if problem.X is not None and "X" not in out:
        x = _floats(problem.X)
        out["X"] = (x, np.abs(x))
    out["Q"], out["K"], out["V"] = (q, mq), (k, mk), (v, mv)
    scores, mag = q @ k.T, mq @ mk.T
    out["scores"] = (scores, mag)
    if problem.scale is not None:
        c = float(problem.scale)
        scores, mag = scores / c, mag / c
        out["scaled_scores"] = (scores, mag)
    if problem.mask is not None:
        allowed = np.array(problem.mask, dtype=bool)
        scores = np.where(allowed, scores, -np.inf)
        out["masked_scores"] = (scores, mag)
    top = np.max(scores, axis=1, keepdims=True)
    e = np.exp(scores - top)
    weights = e / np.sum(e, axis=1, keepdims=True)
    row_max = np.broadcast_to(np.max(weights, axis=1, keepdims=True), weights.shape).copy()
    out["weights"] = (weights, row_max)
    out["output"] = (weights @ v, weights @ mv)
    return out


@dataclass(frozen=True)
class Crosscheck:
    """Largest errors of the float64 path against the exact values."""

    max_abs_error: float
    max_rel_error: float
    worst_step: str | None
    worst_index: tuple[int, int] | None

    @property
    def passed(self) -> bool:
        return self.max_rel_error <= TOLERANCE

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "max_abs_error": self.max_abs_error,
            "max_rel_error": self.max_rel_error,
            "passed": self.passed,
        }
        if self.worst_step is not None and self.worst_index is not None:
            out["worst"] = {
                "step": self.worst_step,
                "index": [self.worst_index[0] + 1, self.worst_index[1] + 1],
            }
        return out


def crosscheck(derivation: Derivation) -> Crosscheck | None:
    """Compare every numeric step with the NumPy path; None for symbolic problems."""
    if derivation.problem.symbolic:
        return None
    floats = forward(derivation.problem)
    max_abs = max_rel = 0.0
    worst: tuple[str, tuple[int, int]] | None = None
    with np.errstate(all="ignore"):
        for step in derivation.steps:
            if step.id not in floats:
                continue
            numeric, magnitude = floats[step.id]
            for i, row in enumerate(step.values):
                for j, exact in enumerate(row):
                    got = float(numeric[i, j])
                    if exact is None:
                        continue
                    if exact.is_infinite() or got == float("-inf"):
                        same = exact.is_infinite() and got == float("-inf")
                        abs_err, rel_err = (0.0, 0.0) if same else (float("inf"),) * 2
                    elif got != got:  # NaN
                        abs_err = rel_err = float("inf")
                    else:
                        diff = abs(Decimal(got) - exact)
                        scale = max(abs(exact), Decimal(float(magnitude[i, j])))
                        abs_err = float(diff)
                        rel_err = float(diff / scale) if scale else (0.0 if not diff else 1.0)
                    if rel_err > max_rel or worst is None:
                        worst = (step.id, (i, j)) if rel_err >= max_rel else worst
                    max_abs = max(max_abs, abs_err)
                    max_rel = max(max_rel, rel_err)
    return Crosscheck(max_abs, max_rel, worst[0] if worst else None, worst[1] if worst else None)
