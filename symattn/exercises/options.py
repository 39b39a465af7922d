"""What kind of exercise to make (``symattn exercises``' options), validated when built:
the level's numbers, the sizes, the topics, and the sizes that cannot have nice numbers
(:mod:`.sizes`)."""

from __future__ import annotations

from math import isqrt
from typing import Any

from ..errors import SymattnError
from ..load.topic_reading import LAYOUTS
from ..record import Record
from ..topics import by_name, drawn
from ..topics.base import Topic
from ..words import LANGUAGES, words
from .extras import EXTRAS, check_extras
from .sizes import size_refusal

__all__ = ["DRAWN", "LEVELS", "MAX_PLACES", "ZERO_SHARE", "ExerciseOptions"]

#: Level → (largest |entry| of X and W_V, default tokens, d_model, d_k, largest |scaled
#: score|).  W_Q and W_K hold −1, 0 and 1 at every level, so that the scores stay small.
LEVELS = {1: (1, 2, 2, 1, 3), 2: (2, 3, 3, 2, 5), 3: (3, 4, 4, 4, 8)}
#: How often an entry of a W is 0: sparse weights keep the scores small and the sums short.
ZERO_SHARE = {1: 0.2, 2: 0.3, 3: 0.6}
#: Most decimal places a sheet may ask for.
MAX_PLACES = 8
#: What an exercise can be drawn with (``--with``): the topics with a draw of their own,
#: then the parts of attention that are not topics (W_O, cross-attention, the backward pass).
DRAWN = drawn() + EXTRAS


class ExerciseOptions(Record):
    """What kind of exercise to make; validated when built."""

    tokens: int | None = None
    d_model: int | None = None
    d_k: int | None = None
    d_v: int | None = None
    mask: str = "none"
    heads: int = 1
    level: int = 2
    lang: str = "en"
    allow_ties: bool = False
    places: int = 4
    from_text: bool = False
    topics: tuple[str, ...] = ()  # more of the attention unit: see DRAWN
    layout: str = "row"  # or "column": tokens are columns (Q = W_Q X), as AI-by-hand writes

    def __post_init__(self) -> None:
        unknown = [t for t in self.topics if t not in DRAWN]
        if unknown:
            raise SymattnError(
                f"expected some of {', '.join(DRAWN)}, found {', '.join(unknown)}", option="with"
            )
        if self.layout not in LAYOUTS:
            raise SymattnError(
                f"expected {' or '.join(LAYOUTS)}, found {self.layout!r}", option="layout"
            )
        for topic in self.drawn:
            heads = topic.heads(self)
            if heads is not None:
                object.__setattr__(self, "heads", heads)
        for topic in self.drawn:
            topic.check_options(self)
        if self.level not in LEVELS:
            raise SymattnError(f"expected 1, 2 or 3, found {self.level}", option="level")
        if not 1 <= self.heads <= 4:
            raise SymattnError(
                f"expected 1 … 4 for a hand exercise, found {self.heads}", option="heads"
            )
        if self.mask not in ("none", "causal"):
            raise SymattnError(f"expected none or causal, found {self.mask!r}", option="mask")
        if self.lang not in LANGUAGES:
            raise SymattnError(
                f"expected one of {', '.join(LANGUAGES)}, found {self.lang!r}", option="lang"
            )
        if not 1 <= self.places <= MAX_PLACES:
            why = " (at 0 places every weight would round to 0 or 1)" if self.places == 0 else ""
            raise SymattnError(
                f"expected 1 … {MAX_PLACES}, found {self.places}{why}", option="places"
            )
        if self.tokens is not None and self.tokens < 2:  # one token: its one weight is 1
            raise SymattnError(
                f"expected 2 … 8 for a hand exercise, found {self.tokens}", option="tokens"
            )
        for name in ("tokens", "d_model", "d_k", "d_v"):
            value = getattr(self, name)
            if value is not None and not 1 <= value <= 8:
                raise SymattnError(
                    f"expected 1 … 8 for a hand exercise, found {value}", option=name
                )
        if self.from_text and self.shape[0] > len(words(self.lang)("exercise.vocabulary").split()):
            raise SymattnError(
                "a sentence from the word list has at most "
                f"{len(words(self.lang)('exercise.vocabulary').split())} words",
                option="tokens",
            )
        check_extras(self, self.drawn)
        refusal = size_refusal(self, LEVELS)
        if refusal is not None:
            raise SymattnError(refusal[1], option=refusal[0])

    @property
    def drawn(self) -> list[Topic]:
        """The topics of this exercise, in the order ``--with`` lists them."""
        return [by_name(name) for name in self.topics if name not in EXTRAS]

    @property
    def shape(self) -> tuple[int, int, int, int]:
        """Tokens, d_model, d_k, d_v (per head, d_k ≤ d_model / heads unless d_k is asked
        for, as in a transformer whose heads split the model's width; as the topics need
        them: an even d_k, d_v = d_model, …)."""
        _, n, d_model, d_k, _ = LEVELS[self.level]
        n = self.tokens or n
        d_model = self.d_model or d_model
        # d_k = 1 only for two tokens, one head and no topic: see exercises.md, "Sizes"
        least = 1 if n <= 2 and self.heads == 1 and not self.topics else 2
        d_k = self.d_k or max(least, min(d_k, d_model // self.heads))
        for topic in self.drawn:
            d_k = topic.d_k(self, d_k)
        d_v = self.d_v if self.d_v is not None else min(d_k, 2)
        for topic in self.drawn:
            d_v = topic.d_v(self, d_model, d_v)
        return n, d_model, d_k, d_v

    @property
    def kv_heads(self) -> int:
        """K/V heads: one per query head, unless a topic shares them (grouped queries)."""
        for topic in self.drawn:
            groups = topic.kv_heads(self)
            if groups is not None:
                return groups
        return self.heads

    @property
    def scale_is_whole(self) -> bool:
        d_k = self.shape[2]
        return isqrt(d_k) ** 2 == d_k

    def to_json(self) -> dict[str, Any]:
        n, d_model, d_k, d_v = self.shape
        return {
            "level": self.level,
            "tokens": n,
            "d_model": d_model,
            "d_k": d_k,
            "d_v": d_v,
            "heads": self.heads,
            "mask": self.mask,
            "places": self.places,
            "from_text": self.from_text,
            "allow_ties": self.allow_ties,
            "with": list(self.topics),
            "layout": self.layout,
        }
