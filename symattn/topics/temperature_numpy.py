"""The independent NumPy path of the temperature: τ as a float, a divisor of the scores."""

from __future__ import annotations

from typing import Any

from .numpy_base import NumpyPath

__all__ = ["PATH"]


class TemperaturePath(NumpyPath):
    def divisor(self, problem: Any, config: Any) -> float:
        return float(config.tau)


PATH = TemperaturePath()
