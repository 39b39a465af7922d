"""How check names a student's entries: as the student's paper writes them.

The marking works in the row layout; a column-layout student writes every matrix
transposed, so entry (i, j) of the row layout is their entry (j, i), and the mistakes'
sentences take the column layout's words (``diagnosis.<id>.column``).  :class:`Naming` is
that view for one problem; :func:`entry_name` names an entry as written.

>>> Naming("column").entry("weights", 0, 1)
'a₂,₁'
"""

from __future__ import annotations

from ..messages import Entries
from ..printing import TERMINAL
from ..record import Record
from ..words import Words

__all__ = ["Naming", "entry_name", "entry_names"]


def entry_name(step_id: str, i: int, j: int) -> str:
    """``a₁,₂`` for entry (i, j), 0-based as written, of a step (the terminal's names)."""
    return TERMINAL.entry(step_id, i, j)


def entry_names(language: Words, step_id: str, cells: list[tuple[int, int]]) -> str:
    """``a₁,₁, a₁,₂ and a₂,₁`` (0-based cells as written), shortened past six."""
    names = [entry_name(step_id, i, j) for i, j in cells]
    if len(names) > 6:
        return language("list.many", first=language("list.sep").join(names[:3]), count=len(names))
    if len(names) == 1:
        return names[0]
    return language("list.and", items=language("list.sep").join(names[:-1]), last=names[-1])


class Naming(Record):
    """The names of a problem's entries in its layout ("row" or "column")."""

    layout: str = "row"

    @property
    def variant(self) -> str | None:
        """The words' variant of this layout (None: the row layout's own words)."""
        return "column" if self.layout == "column" else None

    def index(self, i: int, j: int) -> tuple[int, int]:
        """Row-layout entry (i, j) as written (0-based)."""
        return (j, i) if self.layout == "column" else (i, j)

    def entry(self, step_id: str, i: int, j: int) -> str:
        return entry_name(step_id, *self.index(i, j))

    def entries(self, language: Words, step_id: str, cells: list[tuple[int, int]]) -> str:
        return entry_names(language, step_id, [self.index(i, j) for i, j in cells])

    def entries_fact(self, step_id: str, cells: list[tuple[int, int]]) -> Entries:
        """Row-layout cells (0-based) as a message's fact, named as written."""
        return Entries(step_id, tuple(self.index(i, j) for i, j in cells))

    def cells(self, cells: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
        """Row-layout cells, 0-based, as written and 1-based (a diagnosis's ``cells``)."""
        return tuple((a + 1, b + 1) for a, b in (self.index(i, j) for i, j in cells))
