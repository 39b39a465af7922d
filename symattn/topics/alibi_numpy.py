"""The independent NumPy path of ALiBi: the bias −m_t·|i − j| made again from the slopes
(as floats) with NumPy's index arithmetic, added to the scaled scores of head t."""

from __future__ import annotations

from typing import Any

import numpy as np

from .numpy_base import Array, NumpyPath, Out, Pair

__all__ = ["PATH"]


class AlibiPath(NumpyPath):
    leaves = "biased_scores"

    def on_scores(
        self, problem: Any, config: Any, prefix: str, head: int, scores: Pair, out: Out
    ) -> Pair:
        values, mag = scores
        n, m = values.shape
        distance = np.abs(np.arange(n)[:, None] - np.arange(m)[None, :]).astype(np.float64)
        bias = config.sign * float(config.slopes[head]) * distance
        out[f"{prefix}alibi_bias"] = (bias, np.abs(bias))
        out[f"{prefix}biased_scores"] = (values + bias, mag + np.abs(bias))
        return out[f"{prefix}biased_scores"]

    def score_bias(self, problem: Any, config: Any, prefix: str, out: Out) -> Array | None:
        return out[f"{prefix}alibi_bias"][0]


PATH = AlibiPath()
