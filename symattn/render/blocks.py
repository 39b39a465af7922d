"""The blocks of a rendered derivation: format-neutral, read by every writer.

A heading, a sentence (words and inline formulas), a display of formula lines, or a
heatmap of the weights.  The formulas are :mod:`.math` trees; the words come from
:mod:`symattn.words` in the chosen language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ..formula import Line, Math, Sym
from ..words import MathName

__all__ = ["Block", "Display", "Heading", "Heatmap", "Sentence", "math_part"]


@dataclass(frozen=True)
class Heading:
    number: int | None  # None for unnumbered sections (Given, Result)
    title: str


@dataclass(frozen=True)
class Sentence:
    """Words and inline formulas, in order: a ``str`` part is words, anything else math."""

    parts: tuple[str | Math, ...]

    @classmethod
    def of(cls, *parts: str | Math | MathName) -> Sentence:
        """A sentence of words' pieces (:meth:`~symattn.words.Words.parts`) and formulas:
        the math the words name becomes its symbol."""
        return cls(tuple(math_part(p) for p in parts))


def math_part(part: str | Math | MathName) -> str | Math:
    """A piece of a sentence as a writer reads it: the math that words name is the
    symbol of that name (:mod:`.symbols`), printed by the writer's printer."""
    return Sym(part.name) if isinstance(part, MathName) else part


@dataclass(frozen=True)
class Display:
    """Displayed formula lines (aligned at their first relation when there are several)."""

    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Heatmap:
    """The attention weights as shaded cells with token labels."""

    caption: str
    rows: tuple[str, ...]
    cols: tuple[str, ...]
    values: tuple[tuple[float, ...], ...]
    labels: tuple[tuple[str, ...], ...]


Block = Union[Heading, Sentence, Display, Heatmap]
