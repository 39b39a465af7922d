"""The blocks of an exercise sheet and its keys (:mod:`symattn.exercises.sheet`): the name
line, the tokens and the vocabulary, the given matrices, the boxes to answer in, and the
key's own derivation.

The key's blocks are a derivation's (``FromKey[Block]``, ``KeySection[Block]``):
:data:`.block_type.Block` counts these blocks among its own, so this module cannot name it
(as :mod:`.page_blocks`).
"""

from __future__ import annotations

from typing import Generic, TypeVar

from ..formula import Math
from ..record import Record

__all__ = [
    "AnswerBoxes",
    "FromKey",
    "GivenMatrices",
    "KeySection",
    "NameLine",
    "Tokens",
    "Vocabulary",
]

#: What the key's parts hold: the blocks of a document (``Block``).
B = TypeVar("B", covariant=True)


class NameLine(Record):
    """A line for the student's name after ``label``."""

    label: str


class Tokens(Record):
    """The input tokens after ``label``."""

    label: str
    tokens: tuple[str, ...]


class Vocabulary(Record):
    """The sentence (after ``sentence_label``), then the vocabulary under ``label``: each
    token (row ``token_label``) above its id (row ``id_label``)."""

    sentence_label: str
    text: str
    label: str
    token_label: str
    id_label: str
    tokens: tuple[str, ...]


class GivenMatrices(Record):
    """The given inputs, aligned: ``first`` (X, or the embedding table E), then the
    ``compact`` matrices side by side on one line."""

    first: tuple[Math, Math]
    compact: tuple[tuple[Math, Math], ...]


class FromKey(Record, Generic[B]):
    """Blocks of the key's own derivation, written as the derivation writes them."""

    blocks: tuple[B, ...]


class AnswerBoxes(Record):
    """A step to answer: its heading, its matrix ``name`` as a ``rows`` × ``cols`` matrix
    of empty boxes ``width`` em wide, then ``lines`` lines of room under ``working``."""

    heading: str
    name: Math
    rows: int
    cols: int
    width: float
    working: str
    lines: int


class KeySection(Record, Generic[B]):
    """One exercise of the teacher's keys: its ``title``, then its key's derivation
    (``blocks``), kept together where the page allows."""

    title: str
    blocks: tuple[B, ...]
