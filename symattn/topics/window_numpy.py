"""The independent NumPy path of a sliding window: the band i − w < j ≤ i made again from
w with NumPy's own index arithmetic, and ANDed with the problem's other mask."""

from __future__ import annotations

from typing import Any

import numpy as np

from .numpy_base import Array, NumpyPath

__all__ = ["PATH"]


class WindowPath(NumpyPath):
    def keep(self, problem: Any, config: Any, keep: Array) -> Array:
        n, m = keep.shape
        i, j = np.arange(n)[:, None], np.arange(m)[None, :]
        inside = (j <= i) & (j > i - config.w)
        base = np.ones((n, m), dtype=bool) if config.base is None else np.array(config.base)
        band: Array = np.logical_and(base, inside)
        return band


PATH = WindowPath()
