"""The temperature (``temperature = τ``): the scaled scores divided by τ as well,
S' = S / (√d_k · τ); without a scale, S' = S / τ.

>>> from symattn.load import load
>>> p = load({"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]], "temperature": 2})
>>> from symattn.plan import forward_plan
>>> forward_plan(p).spec("scaled_scores").divisor_label
'sqrt(d_k)*tau'
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ..formula import Math, Relation, Sym, Value
from ..numbers import to_sympy
from ..problem import Problem, TopicConfig
from ..words import Words
from . import temperature_numpy
from .base import LoadContext, Matrices, Topic

__all__ = ["TOPIC", "TemperatureConfig"]


class TemperatureConfig(TopicConfig):
    tau: Any  # exact, positive


class Temperature(Topic):
    name = "temperature"
    asked = "temperature"
    keys = ("temperature",)
    symbols: ClassVar[Mapping[str, tuple[str, str]]] = {"tau": (r"\tau", "τ")}
    numpy = temperature_numpy.PATH

    def read(self, ctx: LoadContext) -> TemperatureConfig | None:
        if not ctx.has("temperature"):
            return None
        tau = ctx.positive("temperature")
        return TemperatureConfig(to_sympy(tau) if ctx.symbolic else tau)

    def divisor(self, problem: Problem, config: TemperatureConfig) -> tuple[Any, str, str]:
        return config.tau, "tau", "τ"

    def scale_note(self, problem: Problem, config: TemperatureConfig) -> str:
        return "derive.no_scale_tau"

    def notes(
        self, problem: Problem, config: TemperatureConfig, w: Words
    ) -> list[tuple[str | Math, ...]]:
        tau = Relation(Sym("tau"), "=", Value(config.tau))
        alone = problem.scale_label == "none"  # no √d_k: the temperature is the only divisor
        key = "derive.temperature_alone" if alone else "derive.temperature"
        return [(w(key) + " ", tau, w("period"))]

    def draw_divisors(self, options: Any) -> tuple[float, ...]:
        """The τ the draw may give (topics/draw.py)."""
        return (2.0,) if options.level < 3 else (2.0, 0.5)

    def draw(
        self, rng: random.Random, options: Any, data: dict[str, Any], matrix: Matrices
    ) -> None:
        """τ = 2 (at level 3, τ = 2 or 1/2)."""
        data["temperature"] = "2" if options.level < 3 else rng.choice(("2", "1/2"))


TOPIC = Temperature()
