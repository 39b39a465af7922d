"""Sliding-window attention (``window = w``, w ≥ 1; Longformer, Mistral): query i sees the
keys j with i − w < j ≤ i — causal, w keys including itself — and any other mask of the
problem on top (both must keep a key).

There are no new steps: the window is the keep-mask of ``masked_scores``.  Its mistake:
one key too many, i − w ≤ j ≤ i (``window_off_by_one``).

>>> from symattn.load import load
>>> p = load({"Q": [[1], [1], [1]], "K": [[1], [1], [1]], "V": [[1], [2], [3]], "window": 2})
>>> [[int(k) for k in row] for row in p.mask]
[[1, 0, 0], [1, 1, 0], [0, 1, 1]]
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ..formula import Math, Relation, Sym, Value
from ..problem import Mask, Problem, TopicConfig
from ..steps import Plan
from ..words import MathName, Words
from . import window_numpy
from .base import LoadContext, Matrices, Mistake, Run, Topic

__all__ = ["TOPIC", "WindowConfig", "band"]


class WindowConfig(TopicConfig):
    w: int
    base: Mask | None  # the problem's other keep-mask, before the window


def band(n: int, m: int, w: int, lower: int = 0) -> Mask:
    """Keys i − w < j ≤ i of each query i (``lower`` = 1: one more key, i − w ≤ j)."""
    return tuple(tuple(i - w - lower < j <= i for j in range(m)) for i in range(n))


def _both(a: Mask | None, b: Mask) -> Mask:
    return b if a is None else tuple(tuple(x and y for x, y in zip(r, s)) for r, s in zip(a, b))


def _off_by_one(problem: Problem, plan: Plan) -> list[Run]:
    """The window one key too wide: i − w ≤ j ≤ i."""
    config = problem.topic("window")
    wide = _both(config.base, band(problem.n, problem.m, config.w, lower=1))
    if wide == problem.mask:
        return []  # the window already reaches the first key of every row
    return [(dataclasses.replace(problem, mask=wide), plan, {"w": config.w})]


class Window(Topic):
    name = "window"
    with_memory = False  # a window is causal, over the queries' own tokens
    asked = "window"
    keys = ("window",)
    backward = True
    mistakes = (
        Mistake(
            "window_off_by_one",
            ("masked_scores", "weights"),
            _off_by_one,
            words_facts=lambda p: {"w": p.topic("window").w},
        ),
    )
    symbols: ClassVar[Mapping[str, tuple[str, str]]] = {
        "w": ("w", "w"),
        "w_minus_1": ("w - 1", "w − 1"),
        "window_keys": (r"i - w < j \le i", "i − w < j ≤ i"),
        "window_too_wide": (r"i - w \le j \le i", "i − w ≤ j ≤ i"),
    }
    numpy = window_numpy.PATH

    def read(self, ctx: LoadContext) -> WindowConfig | None:
        if not ctx.has("window"):
            return None
        raw = ctx.data["window"]
        n, m = ctx.shapes["n"], ctx.shapes["m"]
        if isinstance(raw, bool) or not isinstance(raw, int) or raw < 1:
            raise ctx.error(f"expected a whole number of keys ≥ 1, found {raw!r}", "window")
        if n > m:
            raise ctx.error(f"a window is causal: it needs as many keys as queries ({n})", "window")
        masks = ctx.read.get("masks")
        if getattr(masks, "add", None) is not None:  # a mask of numbers, read before
            raise ctx.error("not available with a mask of numbers (−99, −∞) yet", "window")
        keep = _both(ctx.mask, band(n, m, raw))
        config = WindowConfig(raw, ctx.mask)
        ctx.mask = keep
        label = ctx.mask_label
        ctx.mask_label = "window" if label in ("none", "causal") else f"{label}+window"
        return config

    def notes(
        self, problem: Problem, config: WindowConfig, w: Words
    ) -> list[tuple[str | Math | MathName, ...]]:
        width = Relation(Sym("w"), "=", Value(config.w))
        return [(*w.parts("derive.window"), " ", width, w("period"))]

    def draw_keep(self, options: Any, n: int) -> list[list[list[bool]]]:
        """The keep-masks the draw may give (topics/draw.py): query i sees i − w < j ≤ i."""
        sizes = (2,) if options.level < 3 else (2, 3)
        return [[[i - w < j <= i for j in range(n)] for i in range(n)] for w in sizes]

    def draw(
        self, rng: random.Random, options: Any, data: dict[str, Any], matrix: Matrices
    ) -> None:
        """A window of 2 keys (at level 3, 2 or 3)."""
        data["window"] = 2 if options.level < 3 else rng.choice((2, 3))


TOPIC = Window()
