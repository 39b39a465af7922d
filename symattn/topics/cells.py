"""Spreadsheet formulas of a kind of step (``--format xlsx``): a topic's kind gives its
:data:`CellRule` in its :class:`~symattn.topics.base.KindRules`, written with the cell
references of :class:`CellRefs` (the spreadsheet writer in symattn.render provides them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..steps import StepSpec

__all__ = ["CellRefs", "CellRule"]


class CellRefs(Protocol):
    """The cells a spreadsheet rule refers to (``--format xlsx``): operand ``k``'s entry,
    row or column as an A1 reference, its size, and an exact number as an expression."""

    @property
    def operands(self) -> int: ...  # how many operands the step has

    def cell(self, operand: int, i: int, j: int) -> str: ...

    def row(self, operand: int, i: int) -> str: ...

    def column(self, operand: int, j: int) -> str: ...

    def width(self, operand: int) -> int: ...

    def height(self, operand: int) -> int: ...

    def size(self) -> tuple[int, int]: ...  # the step's own rows and columns

    def constant(self, value: Any) -> str: ...


#: Entry (i, j) of a step as a spreadsheet formula (without ``=``), from its operands'
#: cells; None writes the entry's value.
CellRule = Callable[[StepSpec, CellRefs, int, int], "str | None"]
