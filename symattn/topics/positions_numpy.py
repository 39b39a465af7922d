"""The independent NumPy path of positions: the sinusoidal table from ``np.sin`` and
``np.cos`` of float angles, or the given P, added to X."""

from __future__ import annotations

from typing import Any

import numpy as np

from .numpy_base import Array, NumpyPath, Out, floats

__all__ = ["PATH", "sinusoidal"]


def sinusoidal(n: int, d: int, base: float = 10000.0) -> Array:
    """P[pos, 2i] = sin(pos / base^(2i/d)), P[pos, 2i+1] = cos(pos / base^(2i/d))."""
    pos = np.arange(n, dtype=np.float64)[:, None]
    twice_i = (np.arange(d) // 2 * 2).astype(np.float64)[None, :]
    angles = pos / np.power(base, twice_i / d)
    return np.where(np.arange(d)[None, :] % 2 == 0, np.sin(angles), np.cos(angles))


class PositionsPath(NumpyPath):
    def after_x(self, problem: Any, config: Any, x: str, out: Out) -> str:
        values, mag = out[x]
        p = floats(config.P) if config.P is not None else sinusoidal(*values.shape)
        out["P"] = (p, np.abs(p))
        out["X_pos"] = (values + p, mag + np.abs(p))
        return "X_pos"

    def x_offset(self, problem: Any, config: Any, out: Out) -> Array | None:
        return out["P"][0]


PATH = PositionsPath()
