"""The independent NumPy path of grouped-query attention: head t's K/V group ⌊t·g/h⌋."""

from __future__ import annotations

from typing import Any

from .numpy_base import NumpyPath

__all__ = ["PATH"]


class GqaPath(NumpyPath):
    def kv_group(self, problem: Any, config: Any, head: int) -> int:
        return int(head * config.groups // problem.heads)


PATH = GqaPath()
