"""The independent NumPy path of the masks: an additive mask's numbers added to the scaled
scores (−∞ as −inf), and valid_lens as a keep-mask made again from the lengths."""

from __future__ import annotations

from typing import Any

import numpy as np

from .numpy_base import Array, NumpyPath, Out, Pair, floats

__all__ = ["PATH"]


class MasksPath(NumpyPath):
    def on_scores(
        self, problem: Any, config: Any, prefix: str, head: int, scores: Pair, out: Out
    ) -> Pair:
        if config.add is None:
            return scores
        values, mag = scores
        add = floats(config.add)
        out[f"{prefix}masked_scores"] = (
            values + add,
            mag + np.where(np.isfinite(add), np.abs(add), 0.0),
        )
        return out[f"{prefix}masked_scores"]

    def keep(self, problem: Any, config: Any, keep: Array) -> Array:
        if config.valid_lens is None:
            return keep
        lens = np.array(config.valid_lens)[:, None]
        within: Array = np.logical_and(keep, np.arange(keep.shape[1])[None, :] < lens)
        return within


PATH = MasksPath()
