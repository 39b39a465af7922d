"""The independent NumPy path of cross-attention: the memory as floats, what K and V are
projected from."""

from __future__ import annotations

from typing import Any

from .numpy_base import Array, NumpyPath, floats

__all__ = ["PATH"]


class MemoryPath(NumpyPath):
    def keys(self, problem: Any, config: Any) -> Array | None:
        return floats(config.memory)


PATH = MemoryPath()
