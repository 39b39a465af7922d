"""The blocks of a derivation (:mod:`.document`), which every writer reads: a heading, a
sentence, displayed formulas and the heatmap — all that a derivation's walk (:mod:`.kinds`)
makes, so that a derivation loads no other blocks (start-up, issue 24).

The other producers' blocks are in their own modules: check's feedback :mod:`.check_blocks`,
the exercise sheet's :mod:`.sheet_blocks`, the class reports' :mod:`.report_blocks`, the
self-check page's :mod:`.page_blocks` and the Moodle question's :mod:`.quiz_blocks`; the
union of them all, :data:`.block_type.Block`, is a name for the type checker.
"""

from __future__ import annotations

from ..formula import Line, Math, Sym
from ..record import Record
from ..words import MathName

__all__ = ["Display", "Heading", "Heatmap", "Sentence", "math_part"]


class Heading(Record):
    number: int | None  # None for unnumbered sections (Given, Result)
    title: str


class Sentence(Record):
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


class Display(Record):
    """Displayed formula lines (aligned at their first relation when there are several)."""

    lines: tuple[Line, ...]


class Heatmap(Record):
    """The attention weights as shaded cells with token labels."""

    caption: str
    rows: tuple[str, ...]
    cols: tuple[str, ...]
    values: tuple[tuple[float, ...], ...]
    labels: tuple[tuple[str, ...], ...]
