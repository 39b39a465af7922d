"""The blocks of a Moodle quiz's question (:mod:`symattn.exercises.question`), beyond the
headings and sentences every document has: a table of the question — a given matrix, the
vocabulary, the mask, or a step's fields — whose cells are formulas or Cloze fields.

A Cloze field is markup that Moodle reads (``{1:NUMERICAL:=2.5:0.0001#Right.}``), already
escaped for a field by :mod:`symattn.exercises.cloze`: a :class:`ClozeCell` says so, and a
writer writes it as it is — never escaped again, never read as a formula.
"""

from __future__ import annotations

from ..formula import Math
from ..record import Record

__all__ = ["ClozeCell", "QuizTable"]


class ClozeCell(Record):
    """One Cloze ("embedded answers") field: its ``markup``, written as it is."""

    markup: str


class QuizTable(Record):
    """A table of the question: ``name`` (a formula written before it as ``name =``;
    None: no name), its cells row by row (formulas, or fields to answer), and the tokens
    beside (``row_labels``) and above (``col_labels``) it."""

    name: Math | None
    cells: tuple[tuple[Math | ClozeCell, ...], ...]
    row_labels: tuple[str, ...] | None = None
    col_labels: tuple[str, ...] | None = None
