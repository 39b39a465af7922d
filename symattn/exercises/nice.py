"""A cheap first look at a drawn exercise, before anything is derived exactly: its scores
in float64, by the independent NumPy path with the topics' own NumPy siblings (positions
added, turns, other scores, a divisor, a bias).

A draw passes when, in every head and row, the scores the softmax reads (after the scale,
without the masked ones) are small (|s| ≤ the level's bound), not all alike, and no two
alike unless ties are allowed; and its weights are neither near one-hot (the largest ≤
0.9) nor, from level 2, negligible (none < 0.02).  The exact derivation that follows
decides; this only spares it hopeless draws.

>>> from symattn.load import load
>>> p = load({"X": [[1, 0], [0, 1]], "W_Q": [[1], [0]], "W_K": [[1], [2]], "W_V": [[1], [1]]})
>>> scores_nice(p, 3, causal=False, ties=False)
False
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..compute.numeric import Paths, forward
from ..problem import Problem
from ..topics import numpy_paths
from ..topics.base import per_head
from .rules import WEIGHT_CEILING, WEIGHT_FLOOR

__all__ = ["read_scores", "scores_nice", "weights_nice"]


def read_scores(out: dict[str, Any], prefix: str, paths: Paths) -> Any:
    """The scores a head's softmax reads, from the NumPy path's steps: the steps a head's
    scores go through, last first (the mask, the topics' steps on the scores, the scaled
    scores, the scores), the first present."""
    own = tuple(path.leaves for path, _ in reversed(paths) if path.leaves is not None)
    steps = ("masked_scores", *own, "scaled_scores", "scores")
    return out[next(f"{prefix}{s}" for s in steps if f"{prefix}{s}" in out)][0]


def weights_nice(weights: Any, *, floor: bool) -> bool:
    """A row's (unmasked) weights: the largest ≤ 0.9 and, with ``floor``, none < 0.02."""
    if len(weights) < 2:
        return True  # a lone unmasked key: its weight is exactly 1, and that is right
    if max(weights) > WEIGHT_CEILING:
        return False
    return not floor or min(weights) >= WEIGHT_FLOOR


def scores_nice(
    problem: Problem,
    bound: float,
    *,
    causal: bool,
    ties: bool,
    floor: bool = False,
) -> bool:
    """Every row's scores small, not all alike, and distinct unless ties are allowed
    (``causal``: only the keys up to the query's own count); its weights not near one-hot
    and, with ``floor``, none negligible."""
    paths = numpy_paths(problem)
    out = forward(problem, paths)
    for prefix in per_head(problem):
        scores = read_scores(out, prefix, paths)
        weights = out[f"{prefix}weights"][0]
        for i, row in enumerate(scores.tolist()):
            keep = [j for j, s in enumerate(row) if math.isfinite(s) and (not causal or j <= i)]
            kept = [row[j] for j in keep]
            if any(abs(s) > bound + 1e-9 for s in kept):
                return False
            distinct = len({round(s, 9) for s in kept})
            if len(kept) > 1 and (distinct == 1 or (distinct < len(kept) and not ties)):
                return False
            if not weights_nice([float(weights[i][j]) for j in keep], floor=floor):
                return False
    return bool(np.isfinite(out[f"{per_head(problem)[0]}weights"][0]).all())
