"""A document: a title and blocks (:mod:`.blocks`) that every producer makes — the
derivation's walk, check's feedback, the exercise sheet and its key — and that one
writer per format writes.

A writer is a :class:`BlockWriter`: ``write(block)`` calls its method
``_write_<Block>`` (``_write_Heading``, ``_write_Display``, …), as SymPy's printers
call ``_print_<Node>``; a block it has no method for is an error naming both, never a
block silently left out.  The printers of formulas dispatch the same way
(:class:`NodePrinter`: ``_print_<Node>`` for each :mod:`symattn.formula` node).

>>> from symattn.render.blocks import Heading, Sentence
>>> class Titles(BlockWriter):
...     def _write_Heading(self, block: Heading) -> None:
...         self.out.append(block.title)
>>> Titles().lines(Document("T", (Heading(None, "Given"),)))
['Given']
>>> Titles().lines(Document("T", (Sentence(("a",)),)))
Traceback (most recent call last):
  ...
TypeError: Titles has no way to write a Sentence
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import TYPE_CHECKING

from ..formula import Math
from ..record import Record

if TYPE_CHECKING:
    from .block_type import Block

__all__ = ["BlockWriter", "Document", "NodePrinter"]


class Document(Record):
    """What a producer writes: a title and blocks, in one language; ``subtitle`` and
    ``footer`` are said by the page formats (HTML) that have a place for them, and
    ``contents``: a list of the sections first (a derivation's page); ``renames``: the
    problem's own letters for its matrices, which every printer of names uses;
    ``kind``: ``"derivation"``, or ``"feedback"`` (check's sheet: a :class:`~.blocks.Verdict`
    and the checked steps; no underlined title in text, the verdict before ``<main>``),
    ``"sheet"``, ``"report"``, ``"question"`` (a Moodle quiz's question), or
    ``"self_check"`` (the page of :mod:`.page_blocks`: its blocks hold its ``<main>``);
    ``style``: a page's own style sheet, in its head (HTML)."""

    title: str
    blocks: tuple[Block, ...]
    subtitle: str | None = None
    footer: str | None = None
    contents: bool = False
    lang: str = "en"
    renames: Mapping[str, str] = field(default_factory=dict)
    kind: str = "derivation"
    style: str = ""


class BlockWriter:
    """Writes blocks by their type: ``_write_<Block>`` methods append to ``out``."""

    def __init__(self) -> None:
        self.out: list[str] = []

    def write(self, block: Block) -> None:
        method = getattr(self, f"_write_{type(block).__name__}", None)
        if method is None:
            raise TypeError(f"{type(self).__name__} has no way to write a {type(block).__name__}")
        method(block)

    def lines(self, document: Document | Sequence[Block]) -> list[str]:
        """The pieces written for every block of ``document`` (or of a list of blocks)."""
        blocks = document.blocks if isinstance(document, Document) else document
        for block in blocks:
            self.write(block)
        return self.out


class NodePrinter:
    """Prints a formula by its node type: ``_print_<Node>`` methods return its text."""

    def math(self, node: Math) -> str:
        method = getattr(self, f"_print_{type(node).__name__}", None)
        if method is None:
            raise TypeError(f"{type(self).__name__} has no way to print a {type(node).__name__}")
        text: str = method(node)
        return text
