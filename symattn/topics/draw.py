"""What a topic's exercise draw is given: the random source, the options, the matrices."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

__all__ = ["EXTRA_DRAWS", "Draw", "DrawOptions", "Matrices"]

#: The parts of the attention itself (not topics) an exercise may be drawn with, beside the
#: topics (``exercises --with``); their draws are in :mod:`symattn.exercises.extras`.
EXTRA_DRAWS: tuple[str, ...] = ("wo", "cross", "backward")


# -- exercises ---------------------------------------------------------------------------------
class Matrices(Protocol):
    """The exercise draw's matrices of small integers (no zero row or column)."""

    def __call__(self, rows: int, cols: int, largest: int, sparse: bool = False) -> Any: ...


class DrawOptions(Protocol):
    """What a topic's draw may read of the exercise options."""

    level: int
    heads: int
    topics: tuple[str, ...]

    @property
    def shape(self) -> tuple[int, int, int, int]: ...


Draw = Callable[[random.Random, DrawOptions, dict[str, Any], Matrices], None]
