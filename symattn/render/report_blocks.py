"""The blocks of the class at a glance (:mod:`symattn.classroom`): the headline, a
legend, stacked bars, tables of counts, a histogram, plain columns and a notice under them.
"""

from __future__ import annotations

from ..record import Record

__all__ = [
    "BarRow",
    "Bars",
    "Bin",
    "Columns",
    "CountRow",
    "Counts",
    "Headline",
    "Histogram",
    "Legend",
    "Notice",
    "SubHeading",
]


class Headline(Record):
    """The finding that leads a report: ``ok`` (nothing went wrong) or not; ``most_common``:
    the id of the most common first error, for scripts."""

    text: str
    ok: bool
    most_common: str | None = None


class SubHeading(Record):
    """A heading of a report (no section, no number)."""

    title: str


class Legend(Record):
    """The colour of each group, with its name: (group, name) pairs."""

    groups: tuple[tuple[str, str], ...]


class BarRow(Record):
    """A step: for each group its (group, count, share of the bar in %, share as shown,
    the names of the students, the group's name)."""

    step_id: str
    title: str
    groups: tuple[tuple[str, int, float, str, str, str], ...]


class Bars(Record):
    """A stacked bar per step under ``heads``."""

    heads: tuple[str, ...]
    rows: tuple[BarRow, ...]


class CountRow(Record):
    """What was counted (``id``, ``title``; ``code``: the id shown too; ``steps``: where,
    or None), how many, their share as shown, and who."""

    id: str
    title: str
    code: bool
    steps: str | None
    count: int
    share: str
    names: str


class Counts(Record):
    """A table of counts, each row marked ``data-<what>``."""

    what: str
    heads: tuple[str, ...]
    rows: tuple[CountRow, ...]


class Bin(Record):
    """A bin of a histogram: its id, its label and how many fall in it."""

    id: str
    title: str
    count: int


class Histogram(Record):
    """Counts as columns, the highest at 80 % of the height."""

    bins: tuple[Bin, ...]


class Columns(Record):
    """A table of plain words: the first ``aligned`` columns padded to one width, the last
    one as long as it is (the first row is the header)."""

    rows: tuple[tuple[str, ...], ...]
    aligned: int


class Notice(Record):
    """A line said flush left, under a report's table."""

    text: str
