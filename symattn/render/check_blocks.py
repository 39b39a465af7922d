"""The blocks of check's feedback (:mod:`symattn.check.feedback`): a verdict, then each
checked step with its remarks, its answered entries, the mistakes found and the key's
working of the first wrong entry.

The key's working holds blocks of a derivation (``AnswerBox[Block]``, and so
``CheckedStep[Block]``): :data:`.block_type.Block` counts these blocks among its own, so
this module cannot name it (as :mod:`.page_blocks`).
"""

from __future__ import annotations

from typing import Generic, TypeVar

from ..formula import Line
from ..messages import Message
from ..record import Record

__all__ = [
    "AnswerBox",
    "CheckedStep",
    "Diagnoses",
    "DiagnosisItem",
    "EntryList",
    "EntryRow",
    "Remark",
    "Verdict",
]

#: What the key's working holds: the blocks of a document (``Block``).
B = TypeVar("B", covariant=True)


class Verdict(Record):
    """The top of a feedback sheet: the answers' ``source``, the ``score`` line and the
    ``verdict`` sentence (``ok``: no wrong step; ``verdict_id``, ``right`` and
    ``answered`` are the page's data attributes)."""

    source: str
    score: str
    verdict: str
    ok: bool
    verdict_id: str
    right: int
    answered: int


class Remark(Record):
    """A sentence under a checked step: a :class:`~symattn.messages.Message` said by the
    writer's voice after the words ``prefix``, or ``words`` alone (``muted`` on a page)."""

    message: Message | None = None
    prefix: str = ""
    words: str = ""
    muted: bool = False


class EntryRow(Record):
    """One answered entry (``row``, ``col`` 1-based): what was given, what the key says
    (None: the key hidden), its status, the word for it and the words a screen reader
    says for its mark on a page."""

    row: int
    col: int
    given: str
    expected: str | None
    status: str
    label: str
    spoken: str


class EntryList(Record):
    """The answered entries of step ``step_id`` as a table under ``heads``."""

    step_id: str
    heads: tuple[str, ...]
    rows: tuple[EntryRow, ...]


class DiagnosisItem(Record):
    """A mistake found: its id, its name in the layout's words (``name``; the page says
    ``page_name``) and what it says (the page says ``page_message``, which leaves out
    the right values when the key is hidden)."""

    id: str
    name: str
    page_name: str
    message: Message
    page_message: Message


class Diagnoses(Record):
    """The mistakes found in a step, under ``heading`` (the page has no heading)."""

    heading: str
    items: tuple[DiagnosisItem, ...]


class AnswerBox(Record, Generic[B]):
    """The key's own working of the first wrong entry, under ``heading``: the text and the
    page show only its ``lines`` (that entry's line and the sum it names), the LaTeX
    sheet the whole derived ``step`` (its displays and sentences)."""

    heading: str
    lines: tuple[Line, ...]
    step: tuple[B, ...]


class CheckedStep(Record, Generic[B]):
    """A checked step: its title, status and the word for it; ``entries``/``error``:
    whether any entry was read and whether it has an error; ``first``: the first wrong
    step (``first_label`` says so, ``page_first_label`` on a page); then its blocks."""

    step_id: str
    title: str
    status: str
    status_word: str
    good: bool
    entries: bool
    error: bool
    first: bool
    first_label: str
    page_first_label: str
    blocks: tuple[Remark | EntryList | Diagnoses | AnswerBox[B], ...]
