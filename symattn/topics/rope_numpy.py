"""The independent NumPy path of RoPE: each row pos of Q and K, pairs (2i, 2i+1) turned by
pos · base^(−2i/d) with ``np.cos`` and ``np.sin`` of float angles."""

from __future__ import annotations

from typing import Any

import numpy as np

from .numpy_base import NumpyPath, Out, Pair

__all__ = ["PATH", "rotate"]


def rotate(x: Pair, base: float) -> Pair:
    """RoPE on each row pos: pairs (2i, 2i+1) turned by pos · base^(−2i/d)."""
    values, mag = x
    n, d = values.shape
    theta = (
        np.arange(n, dtype=np.float64)[:, None]
        * np.power(base, -np.arange(0, d, 2, dtype=np.float64) / d)[None, :]
    )
    c, s = np.cos(theta), np.sin(theta)
    even, odd = values[:, 0::2], values[:, 1::2]
    out = np.empty_like(values)
    out[:, 0::2] = even * c - odd * s
    out[:, 1::2] = even * s + odd * c
    size = np.empty_like(mag)
    pair = mag[:, 0::2] + mag[:, 1::2]
    size[:, 0::2], size[:, 1::2] = pair, pair
    return out, size


class RopePath(NumpyPath):
    def after_qk(
        self, problem: Any, config: Any, prefix: str, q: str, k: str, out: Out
    ) -> tuple[str, str]:
        base = float(config.base)
        out[f"{prefix}Q_rot"], out[f"{prefix}K_rot"] = rotate(out[q], base), rotate(out[k], base)
        return f"{prefix}Q_rot", f"{prefix}K_rot"


PATH = RopePath()
