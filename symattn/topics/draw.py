"""What a topic's exercise draw is given: the random source, the options, the matrices."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # the random module loads with the exercises (start-up, issue 24)
    import random

__all__ = ["EXTRA_DRAWS", "Draw", "DrawOptions", "Matrices", "divisors", "keeps", "scores_kind"]

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


Draw = Callable[["random.Random", DrawOptions, dict[str, Any], Matrices], None]


# -- what a topic does to a drawn exercise's scores (optional traits of a Topic) ----------
def scores_kind(topics: Iterable[Any]) -> str:
    """ "grid" when the scores stay whole numbers ÷ √d_k (divided or masked by the topics),
    "moved" when a topic adds to, turns or biases them (its ``draw_scores``), "own" when
    a topic scores on its own."""
    kinds = {getattr(t, "draw_scores", "grid") for t in topics}
    return "own" if "own" in kinds else "moved" if "moved" in kinds else "grid"


def divisors(topics: Iterable[Any], options: Any) -> list[float]:
    """Every factor the topics' draws may divide the scores by (a topic's
    ``draw_divisors``), multiplied out."""
    found = [1.0]
    for topic in topics:
        hook = getattr(topic, "draw_divisors", None)
        if hook is not None:
            found = [f * g for f in found for g in hook(options)]
    return found


def keeps(topics: Iterable[Any], options: Any, n: int, causal: bool) -> list[list[list[bool]]]:
    """Every keep-mask the draw may give: the topics' (``draw_keep``), else the causal
    mask, else every key."""
    for topic in topics:
        hook = getattr(topic, "draw_keep", None)
        if hook is not None:
            return list(hook(options, n))
    return [[[not causal or j <= i for j in range(n)] for i in range(n)]]
