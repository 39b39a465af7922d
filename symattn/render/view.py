"""The layout as a view: how a derivation, computed in the row layout, is written on paper.

The row layout writes each token as a row (Q = X W_Q, S = Q Kᵀ, softmax along each row);
the column layout, as the AI-by-hand sheets do, each token as a column: every matrix is
the transpose of its row-layout form, so a matrix product is written the other way round
(Q = W_Q X, S = Kᵀ Q, O = V A), entry (i, j) of a row-layout step is entry (j, i) of the
written one, and the softmax runs down each column.  The computation never changes: the
view transposes the tables and turns the formula trees (:meth:`View.math`), the general
formulas among them (:mod:`.general`: JSON prints the same tree).  A topic's vectors and
angles are written the same in both layouts (its ``fixed`` names).

>>> from symattn.formula import Name, Product
>>> turned = COLUMNS.math(Product((Name("X", 0, 1), Name("W_Q", 1, 0)), flips=True))
>>> [(f.matrix, f.row, f.col) for f in turned.factors]
[('W_Q', 0, 1), ('X', 1, 0)]
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from ..formula import Brackets, Join, Name, Product, Table
from ..ids import split_id
from ..problem import LAID_OUT
from ..record import Record
from ..topics import fixed, laid_out

__all__ = ["COLUMNS", "ROWS", "View", "view_of"]

_SWAP = {"i": "j", "j": "i"}

T = TypeVar("T")


def _index(index: int | str | None) -> int | str | None:
    return _SWAP.get(index, index) if isinstance(index, str) else index


class View(Record):
    """The row layout (nothing turns) or the column layout (everything does)."""

    layout: str = "row"

    @property
    def columns(self) -> bool:
        return self.layout == "column"

    def matrix(self, matrix: Any) -> Any:
        """A step's matrix as written: transposed in the column layout."""
        return tuple(zip(*matrix)) if self.columns else matrix

    def given(self, name: str, matrix: Any) -> Any:
        """A given matrix as the problem file writes it (a vector as it is)."""
        turned = name in LAID_OUT or name in laid_out()
        return tuple(zip(*matrix)) if self.columns and turned else matrix

    def index(self, i: int, j: int) -> tuple[int, int]:
        """Entry (i, j) of a row-layout step, as written (0-based)."""
        return (j, i) if self.columns else (i, j)

    def shape(self, rows: int, cols: int) -> tuple[int, int]:
        return (cols, rows) if self.columns else (rows, cols)

    def math(self, node: T) -> T:
        """A formula tree as this layout writes it: every entry's indices turned, every
        matrix product's factors the other way round."""
        if not self.columns:
            return node
        return _turn(node)  # type: ignore[no-any-return]


def _turn(node: Any) -> Any:
    """The column layout's form of one node of a formula tree (and of its children)."""
    if isinstance(node, Name):
        if node.row is None or node.col is None or split_id(node.matrix)[1] in fixed():
            return node
        return Name(node.matrix, _index(node.col), _index(node.row), node.transposed)
    if isinstance(node, Table):
        return node  # tables are made in the layout already (:func:`.walker.table`)
    if isinstance(node, Brackets) and isinstance(node.body, Join) and node.body.sep == "comma":
        return Brackets(Join(tuple(_turn(x) for x in node.body.items), "semicolon"))
    if isinstance(node, tuple):
        return tuple(_turn(x) for x in node)
    if not dataclasses.is_dataclass(node) or isinstance(node, type):
        return node
    changes = {f.name: _turn(getattr(node, f.name)) for f in dataclasses.fields(node)}
    turned = dataclasses.replace(node, **changes)
    if isinstance(turned, Product) and turned.flips:
        return dataclasses.replace(turned, factors=turned.factors[::-1])
    return turned


ROWS = View("row")
COLUMNS = View("column")


def view_of(layout: str) -> View:
    return COLUMNS if layout == "column" else ROWS
