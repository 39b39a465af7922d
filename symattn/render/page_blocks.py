"""The blocks of a page that is worked on in a browser: the self-check page's.

The page's main part and its given section hold other blocks (:class:`Main`,
:class:`PageSection`); a step to answer is an :class:`AnswerGrid` (a box per entry);
each mistake the page can name has a :class:`DiagnosisTemplate`, shown by the page's
script; the script's data and the scripts themselves are blocks too (:class:`PageData`,
:class:`Script`), so the HTML writer writes the whole page from its document.

The two containers take the type of what they hold as a parameter (``Main[Block]``):
:data:`.block_type.Block` counts these blocks among its own, so this module cannot name it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, TypeVar, Union

from ..formula import Math
from ..messages import Message
from ..record import Record

__all__ = [
    "AnswerGrid",
    "DiagnosisTemplate",
    "HandIn",
    "Main",
    "MaskMatrix",
    "Noscript",
    "PageBlock",
    "PageData",
    "PageSection",
    "Script",
    "Tally",
]

#: What a container holds: the blocks of a document (``Block``, :mod:`.block_type`).
B = TypeVar("B")


class Main(Record, Generic[B]):
    """The page's main part: the given section and the steps to answer."""

    blocks: tuple[B, ...]


class PageSection(Record, Generic[B]):
    """A section of the page with its own ``anchor``, under the heading ``title``."""

    anchor: str
    title: str
    blocks: tuple[B, ...]


class Noscript(Record):
    """What the page says where its scripts do not run."""

    text: str


class Tally(Record):
    """The place of the whole sheet's tally, filled in by the page's script."""


class HandIn(Record):
    """The button that downloads what was typed (``button``), then ``kept``: where it is
    kept meanwhile."""

    button: str
    kept: str


class MaskMatrix(Record):
    """The mask: its sentence (``parts``, as a :class:`~.blocks.Sentence`'s), then the
    matrix of 1 (may see) and 0 (may not) as the layout writes it."""

    parts: tuple[str | Math, ...]
    keep: tuple[tuple[bool, ...], ...]


class AnswerGrid(Record):
    """Step ``step_id`` to answer, numbered ``number`` under its heading ``title``: its
    matrix ``name`` = a box per entry, ``rows`` × ``cols`` as the layout writes it, with
    the tokens' labels when the step has them and each box's ``entry_names`` (as
    written; what a screen reader says)."""

    step_id: str
    number: int
    title: str
    name: Math
    rows: int
    cols: int
    row_labels: tuple[str, ...] | None
    col_labels: tuple[str, ...] | None
    entry_names: tuple[tuple[str, ...], ...]


class DiagnosisTemplate(Record):
    """A mistake the page can name, as its script shows it (template ``number``): its id,
    its ``name`` and what it says (``message``; None: the name alone)."""

    number: int
    mistake_id: str
    name: str
    message: Message | None


class PageData(Record):
    """The data the page's script reads, as JSON in the element ``element_id``."""

    element_id: str
    data: Mapping[str, Any]


class Script(Record):
    """One of the page's scripts (its file ``name`` and its ``text``), inlined."""

    name: str
    text: str


#: The page's blocks that hold no others (the containers are in :data:`.block_type.Block`).
PageBlock = Union[
    Noscript, Tally, HandIn, MaskMatrix, AnswerGrid, DiagnosisTemplate, PageData, Script
]
