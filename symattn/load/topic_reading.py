"""The keys of a problem file, its layout, and its topics read through the registry of
:mod:`symattn.topics` (only a file with a key of theirs loads them).

``layout = "column"`` writes every matrix with tokens as columns; :func:`read_layout`
turns them back (the problem is always held in the row layout: the column layout is a
view).  Each topic reads its own keys into its config; the reader then checks that the
topics a file asks for go together, and with the backward pass.  Every failure names the
file and the key.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import SymattnError
from ..problem import LAID_OUT, Mask, TopicConfig
from ..topics import EXCLUDES, LoadContext, Topic, by_name, everything
from .checks import read_mask

__all__ = [
    "CORE_KEYS",
    "read_layout",
    "read_topics",
    "reading_topics",
    "scan_symbols",
    "topic_keep_mask",
]

#: The core's matrices that the column layout writes transposed (tokens as columns).
LAYOUTS = ("row", "column")


#: The keys the core reads; the topics read theirs (:func:`symattn.topics.keys`).
CORE_KEYS = (
    "title",
    "description",
    "tokens",
    "X",
    "text",
    "vocab",
    "embedding",
    "W_Q",
    "W_K",
    "W_V",
    "Q",
    "K",
    "V",
    "scale",
    "mask",
    "heads",
    "notation",
    "W_O",
    "pad_token",
    "dO",
    "target",
    "places",
    "layout",
)
#: The core's keys that no topic reads or claims: a file of these alone asks for no topic
#: (then none is loaded: ``notation`` may rename a topic's matrices, a mask of numbers is
#: a topic's).
_PLAIN_KEYS = frozenset(CORE_KEYS) - {"notation", "mask"}


def reading_topics(data: Mapping[str, Any]) -> tuple[Topic, ...]:
    """The topics that read this file: none when it has only the core's keys (a mask
    only "causal" or "none"), else every topic (one of them may know a key)."""
    plain = all(key in _PLAIN_KEYS for key in data if key != "mask")
    if plain and data.get("mask", "none") in ("causal", "none"):
        return ()
    return everything()


def _t(rows: Any) -> Any:
    return tuple(zip(*rows))


def read_layout(
    data: Mapping[str, Any], givens: dict[str, Any], source: str, more: tuple[str, ...] = ()
) -> str:
    """``layout = "column"``: the core's matrices (and ``more``, a topic's that the core
    reads) are turned to the row layout."""
    raw = data.get("layout", "row")
    if raw not in LAYOUTS:
        raise SymattnError(f'{source}: layout: expected "row" or "column", found {raw!r}')
    if raw == "column":
        for key in (*LAID_OUT, *more):
            if key in givens:
                givens[key] = _t(givens[key])
    return str(raw)


def scan_symbols(data: Mapping[str, Any], reader: Any, topics: Sequence[Topic]) -> None:
    """Read every value of the topics' keys once, before the problem is known to be
    numeric or symbolic (a symbol in W_a makes the whole problem symbolic)."""

    def walk(raw: Any, key: str, row: int | None, col: int | None) -> None:
        if isinstance(raw, list):
            for k, item in enumerate(raw):
                walk(item, key, k if row is None else row, None if row is None else k)
        elif isinstance(raw, str) and key != "layout" and not raw.strip().startswith(("-", "−")):
            # the topic itself says what is wrong, with its own rule
            with contextlib.suppress(SymattnError):
                reader.value(raw, key, row, col)

    for topic in topics:
        labels = () if topic.keys_source is None else (topic.keys_source.tokens,)  # words
        for key in topic.keys:
            if isinstance(data.get(key), list) and key not in labels:
                walk(data[key], key, None, None)


def topic_keep_mask(
    data: Mapping[str, Any], n: int, m: int, layout: str, source: str, topics: Sequence[Topic]
) -> tuple[Mask | None, str]:
    """The ``mask`` key as a keep-mask, unless a topic reads it (a mask of numbers); a
    matrix is written m × n (keys down the side) in the column layout."""
    raw = data.get("mask", "none")
    for topic in topics:
        label = topic.claims_mask(raw)
        if label is not None:
            return None, label
    if layout == "column" and isinstance(raw, list):
        keep, label = read_mask(raw, m, n, source)
        return (None if keep is None else _t(keep)), label
    return read_mask(raw, n, m, source)


def read_topics(ctx: LoadContext, topics: Sequence[Topic]) -> tuple[tuple[str, TopicConfig], ...]:
    """Each topic's config, in the registry's order; refused where two do not go together,
    or where the backward pass is asked for and a topic is not derived backward."""
    read: list[tuple[str, TopicConfig]] = []
    for topic in topics:
        config = topic.read(ctx)
        if config is not None:
            read.append((topic.name, config))
            ctx.read[topic.name] = config
    names = [name for name, _ in read]
    for name, other, reason in EXCLUDES:
        if name in names and other in names:
            asked = by_name(other).asked
            raise ctx.error(f"{reason}; not available with {asked} yet", by_name(name).keys[0])
    upstream = [k for k in ("dO", "target") if ctx.has(k)]
    if upstream:
        for topic in topics:
            if topic.name in names and not topic.backward:
                raise ctx.error(
                    f"the backward pass is not available with {topic.asked} yet", upstream[0]
                )
    return tuple(read)
