"""The draws of the attention unit's parts that are not topics of their own: W_O after the
heads, cross-attention over a memory, and the backward pass from a target.

They are core (the problem's own keys, not a topic module's), so they have no
:class:`~symattn.topics.base.Topic`; each is one draw here, named in ``--with`` beside
the topics'.  A draw adds its keys to the drawn problem as a topic's draw does, and says
which options it cannot be drawn with.

>>> EXTRAS
('wo', 'cross', 'backward')
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..errors import SymattnError
from ..record import Record
from ..topics import keys_sources
from ..topics.base import Topic
from ..topics.draw import EXTRA_DRAWS, Matrices

__all__ = ["EXTRAS", "Extra", "builds_scores", "by_name", "check_extras", "draw_extras"]


#: Most tokens of a cross-attention exercise (its keys are not built, so it is drawn
#: as it comes; beyond this, nice weights are too rare to find in seconds).
CROSS_TOKENS = 4


class Extra(Record):
    """One part of the unit an exercise may be drawn with."""

    name: str
    draw: Callable[[random.Random, Any, dict[str, Any], Matrices], None]


def _wo(rng: random.Random, options: Any, data: dict[str, Any], matrix: Matrices) -> None:
    """W_O maps the heads' concatenated outputs (h·d_v wide) back to d_model."""
    _, d_model, _, d_v = options.shape
    data["W_O"] = matrix(int(options.heads) * d_v, d_model, 1, sparse=True)


def _cross(rng: random.Random, options: Any, data: dict[str, Any], matrix: Matrices) -> None:
    """The keys and values come from a memory of its own rows (an encoder's output)."""
    n, d_model, _, _ = options.shape
    rows = max(2, n - 1)
    source = keys_sources()[0]  # the topic's matrix that K and V come from
    data[source.given] = matrix(rows, d_model, int(options.level))  # as X: −level … level
    data[source.tokens] = [f"m{i + 1}" for i in range(rows)]


def _backward(rng: random.Random, options: Any, data: dict[str, Any], matrix: Matrices) -> None:
    """A target T of the output's shape: L = ½‖O − T‖², then every gradient."""
    n, d_model, _, d_v = options.shape
    width = d_model if "W_O" in data else int(options.heads) * d_v
    data["target"] = matrix(n, width, 1)


EXTRAS_BY_NAME = {
    "wo": Extra("wo", _wo),
    "cross": Extra("cross", _cross),
    "backward": Extra("backward", _backward),
}
EXTRAS: tuple[str, ...] = EXTRA_DRAWS
assert tuple(EXTRAS_BY_NAME) == EXTRAS, "topics.draw.EXTRA_DRAWS names the draws here"


def by_name(name: str) -> Extra:
    return EXTRAS_BY_NAME[name]


def check_extras(options: Any, topics: list[Topic]) -> None:
    """Refuse a part of the unit with an option it cannot be drawn with (SymattnError):
    the topics say themselves whether they take a memory and a backward pass."""
    chosen = set(options.topics)
    if "cross" in chosen and options.from_text:
        raise SymattnError(
            "cross and --from-text do not go together (the memory is given as numbers)",
            option="with",
        )
    for topic in topics:
        if "cross" in chosen and not topic.with_memory:
            raise SymattnError(
                f"cross and {topic.name} do not go together "
                f"({topic.name} attends over its own tokens)",
                option="with",
            )
        if "backward" in chosen and not topic.draws_backward(options):
            raise SymattnError(
                f"backward and {topic.name} do not go together "
                f"(the backward pass is not derived with {topic.name} yet)",
                option="with",
            )
    if "cross" in chosen and options.shape[0] > CROSS_TOKENS:
        raise SymattnError(
            f"a cross-attention exercise is drawn as it comes, with at most {CROSS_TOKENS} "
            f"tokens; found {options.shape[0]}",
            option="tokens",
        )
    if "cross" in chosen and options.mask != "none":
        raise SymattnError(
            "cross and --mask causal do not go together (a query sees the whole memory)",
            option="with",
        )
    if {"cross", "backward"} <= chosen:
        raise SymattnError(
            "cross and backward do not go together (the backward pass is of self-attention)",
            option="with",
        )


def builds_scores(options: Any) -> bool:
    """Whether the draw may build the scores (:mod:`.build` makes the keys from X): not when
    the keys come from a memory; then it draws as they come."""
    return "cross" not in options.topics


def draw_extras(rng: random.Random, options: Any, data: dict[str, Any], matrix: Matrices) -> None:
    """Add the drawn parts' keys, in the order ``--with`` lists them (W_O before a target)."""
    for name in sorted((t for t in options.topics if t in EXTRAS_BY_NAME), key=EXTRAS.index):
        EXTRAS_BY_NAME[name].draw(rng, options, data, matrix)
