"""The independent NumPy path of a decode step: the K/V cache is a slice, the decoding
step a stable softmax of one row, divided as the scores are (the temperature included)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .numpy_base import Attention, NumpyPath, Out

__all__ = ["PATH"]


class DecodePath(NumpyPath):
    def after_attention(self, problem: Any, config: Any, out: Out, attention: Attention) -> None:
        for prefix, queries, keys in attention.heads:
            q, (k, mk), (v, mv) = out[queries][0], out[keys], out[f"{prefix}V"]
            n = q.shape[0]
            out[f"{prefix}cache_K"] = (k[: n - 1], mk[: n - 1])
            out[f"{prefix}cache_V"] = (v[: n - 1], mv[: n - 1])
            scores = q[n - 1 :] @ k.T
            if attention.divisor is not None:
                scores = scores / attention.divisor
            e = np.exp(scores - np.max(scores))
            weights = e / np.sum(e)
            out[f"{prefix}decode"] = (weights @ v, weights @ mv)


PATH = DecodePath()
