"""The blocks of a document (:mod:`.document`), read by every writer; the self-check
page's own are :mod:`.page_blocks`, the Moodle question's :mod:`.quiz_blocks`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ..formula import Line, Math, Sym
from ..messages import Message
from ..words import MathName
from .page_blocks import Main, PageBlock, PageSection
from .quiz_blocks import QuizTable

__all__ = [
    "AnswerBox",
    "AnswerBoxes",
    "BarRow",
    "Bars",
    "Bin",
    "Block",
    "CheckedStep",
    "Columns",
    "CountRow",
    "Counts",
    "Diagnoses",
    "DiagnosisItem",
    "Display",
    "EntryList",
    "EntryRow",
    "FromKey",
    "GivenMatrices",
    "Heading",
    "Headline",
    "Heatmap",
    "Histogram",
    "KeySection",
    "Legend",
    "NameLine",
    "Notice",
    "Remark",
    "Sentence",
    "SubHeading",
    "Tokens",
    "Verdict",
    "Vocabulary",
    "math_part",
]


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


# -- the blocks of check's feedback: a verdict, then each checked step ---------------------


@dataclass(frozen=True)
class Verdict:
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


@dataclass(frozen=True)
class Remark:
    """A sentence under a checked step: a :class:`~symattn.messages.Message` said by the
    writer's voice after the words ``prefix``, or ``words`` alone (``muted`` on a page)."""

    message: Message | None = None
    prefix: str = ""
    words: str = ""
    muted: bool = False


@dataclass(frozen=True)
class EntryRow:
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


@dataclass(frozen=True)
class EntryList:
    """The answered entries of step ``step_id`` as a table under ``heads``."""

    step_id: str
    heads: tuple[str, ...]
    rows: tuple[EntryRow, ...]


@dataclass(frozen=True)
class DiagnosisItem:
    """A mistake found: its id, its name in the layout's words (``name``; the page says
    ``page_name``) and what it says (the page says ``page_message``, which leaves out
    the right values when the key is hidden)."""

    id: str
    name: str
    page_name: str
    message: Message
    page_message: Message


@dataclass(frozen=True)
class Diagnoses:
    """The mistakes found in a step, under ``heading`` (the page has no heading)."""

    heading: str
    items: tuple[DiagnosisItem, ...]


@dataclass(frozen=True)
class AnswerBox:
    """The key's own working of the first wrong entry, under ``heading``: the text and the
    page show only its ``lines`` (that entry's line and the sum it names), the LaTeX
    sheet the whole derived ``step`` (its displays and sentences)."""

    heading: str
    lines: tuple[Line, ...]
    step: tuple[Block, ...]


@dataclass(frozen=True)
class CheckedStep:
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
    blocks: tuple[Remark | EntryList | Diagnoses | AnswerBox, ...]


# -- the blocks of an exercise sheet ------------------------------------------------------


@dataclass(frozen=True)
class NameLine:
    """A line for the student's name after ``label``."""

    label: str


@dataclass(frozen=True)
class Tokens:
    """The input tokens after ``label``."""

    label: str
    tokens: tuple[str, ...]


@dataclass(frozen=True)
class Vocabulary:
    """The sentence (after ``sentence_label``), then the vocabulary under ``label``: each
    token (row ``token_label``) above its id (row ``id_label``)."""

    sentence_label: str
    text: str
    label: str
    token_label: str
    id_label: str
    tokens: tuple[str, ...]


@dataclass(frozen=True)
class GivenMatrices:
    """The given inputs, aligned: ``first`` (X, or the embedding table E), then the
    ``compact`` matrices side by side on one line."""

    first: tuple[Math, Math]
    compact: tuple[tuple[Math, Math], ...]


@dataclass(frozen=True)
class FromKey:
    """Blocks of the key's own derivation, written as the derivation writes them."""

    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class AnswerBoxes:
    """A step to answer: its heading, its matrix ``name`` as a ``rows`` × ``cols`` matrix
    of empty boxes ``width`` em wide, then ``lines`` lines of room under ``working``."""

    heading: str
    name: Math
    rows: int
    cols: int
    width: float
    working: str
    lines: int


@dataclass(frozen=True)
class KeySection:
    """One exercise of the teacher's keys: its ``title``, then its key's derivation
    (``blocks``), kept together where the page allows."""

    title: str
    blocks: tuple[Block, ...]


# -- the blocks of the class at a glance ----------------------------------------------------


@dataclass(frozen=True)
class Headline:
    """The finding that leads a report: ``ok`` (nothing went wrong) or not; ``most_common``:
    the id of the most common first error, for scripts."""

    text: str
    ok: bool
    most_common: str | None = None


@dataclass(frozen=True)
class SubHeading:
    """A heading of a report (no section, no number)."""

    title: str


@dataclass(frozen=True)
class Legend:
    """The colour of each group, with its name: (group, name) pairs."""

    groups: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class BarRow:
    """A step: for each group its (group, count, share of the bar in %, share as shown,
    the names of the students, the group's name)."""

    step_id: str
    title: str
    groups: tuple[tuple[str, int, float, str, str, str], ...]


@dataclass(frozen=True)
class Bars:
    """A stacked bar per step under ``heads``."""

    heads: tuple[str, ...]
    rows: tuple[BarRow, ...]


@dataclass(frozen=True)
class CountRow:
    """What was counted (``id``, ``title``; ``code``: the id shown too; ``steps``: where,
    or None), how many, their share as shown, and who."""

    id: str
    title: str
    code: bool
    steps: str | None
    count: int
    share: str
    names: str


@dataclass(frozen=True)
class Counts:
    """A table of counts, each row marked ``data-<what>``."""

    what: str
    heads: tuple[str, ...]
    rows: tuple[CountRow, ...]


@dataclass(frozen=True)
class Bin:
    """A bin of a histogram: its id, its label and how many fall in it."""

    id: str
    title: str
    count: int


@dataclass(frozen=True)
class Histogram:
    """Counts as columns, the highest at 80 % of the height."""

    bins: tuple[Bin, ...]


@dataclass(frozen=True)
class Columns:
    """A table of plain words: the first ``aligned`` columns padded to one width, the last
    one as long as it is (the first row is the header)."""

    rows: tuple[tuple[str, ...], ...]
    aligned: int


@dataclass(frozen=True)
class Notice:
    """A line said flush left, under a report's table."""

    text: str


#: Every block a writer may be given (a checked step's own blocks among them).
Block = Union[
    Heading,
    Sentence,
    Display,
    Heatmap,
    Verdict,
    CheckedStep,
    Remark,
    EntryList,
    Diagnoses,
    AnswerBox,
    NameLine,
    Tokens,
    Vocabulary,
    GivenMatrices,
    FromKey,
    AnswerBoxes,
    KeySection,
    Headline,
    SubHeading,
    Legend,
    Bars,
    Counts,
    Histogram,
    Columns,
    Notice,
    QuizTable,
    PageBlock,
    Main["Block"],
    PageSection["Block"],
]
