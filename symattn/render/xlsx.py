"""A live spreadsheet (.xlsx): the givens as numbers, every later step as formulas.

One worksheet per step family (the givens, the projections, the scores, the weights, the
output, the gradients); each step is a table under its title and general formula, its
cells formulas that reference the cells they come from — ``=Given!B3*Given!F3+…`` for a
product, ``=EXP(…)`` over a row for the softmax (with its table of exponentials and their
sums beside it) — so a student can change a given and watch every step follow, as on the
AI-by-hand sheets.  Each kind of step has one cell rule (:mod:`.xlsx_cells` for the
kinds of attention itself, :attr:`~symattn.topics.base.KindRules.cells` for a topic's);
a kind without one shows its values, with a note saying so.  Each cell caches the
derivation's value, so a viewer that never recalculates still shows the numbers; a cell
whose exact value a spreadsheet cannot hold (1/3, √2, a softmax) has its exact value as a
note.  Written with xlsxwriter (a new dependency: it writes formulas, notes and formats
and needs no spreadsheet program).
"""

from __future__ import annotations

import io
from fractions import Fraction
from typing import Any

import xlsxwriter
from xlsxwriter.utility import quote_sheetname, xl_rowcol_to_cell

from ..derivation import Derivation
from ..errors import SymattnError
from ..numbers import NegInf, rational_value, to_sympy
from ..plan import backward_plan, forward_plan
from ..printing import StrPrinter
from ..problem import Matrix
from ..record import Record
from ..steps import Kind, Source, Step
from ..topics import kind_rules
from ..topics.cells import CellRefs
from ..words import Words
from .general import formula_text
from .walker import title_of
from .xlsx_cells import CELL_RULES, MINUS_INFINITY, constant

__all__ = ["MINUS_INFINITY", "render_xlsx"]
#: Longest note (the exact value of a cell); Excel allows 32,767 characters.
_NOTE_CHARS = 2000


class _Place(Record):
    """Where a matrix's entries are: its sheet, first row and column (0-based)."""

    sheet: str
    row: int
    col: int

    def cell(self, i: int, j: int, here: str) -> str:
        a1 = xl_rowcol_to_cell(self.row + i, self.col + j)
        return a1 if here == self.sheet else f"{quote_sheetname(self.sheet)}!{a1}"

    def span(self, r0: int, c0: int, r1: int, c1: int, here: str) -> str:
        a1 = f"{xl_rowcol_to_cell(self.row + r0, self.col + c0)}:"
        a1 += xl_rowcol_to_cell(self.row + r1, self.col + c1)
        return a1 if here == self.sheet else f"{quote_sheetname(self.sheet)}!{a1}"


class _Refs(CellRefs):
    """The references a cell rule writes: the operands' entries, rows and columns."""

    def __init__(
        self, places: list[_Place], shapes: list[tuple[int, int]], here: str, own: tuple[int, int]
    ) -> None:
        self.places, self.shapes, self.here, self.own = places, shapes, here, own

    def cell(self, operand: int, i: int, j: int) -> str:
        return self.places[operand].cell(i, j, self.here)

    def row(self, operand: int, i: int) -> str:
        return self.places[operand].span(i, 0, i, self.shapes[operand][1] - 1, self.here)

    def column(self, operand: int, j: int) -> str:
        return self.places[operand].span(0, j, self.shapes[operand][0] - 1, j, self.here)

    def width(self, operand: int) -> int:
        return self.shapes[operand][1]

    def height(self, operand: int) -> int:
        return self.shapes[operand][0]

    def size(self) -> tuple[int, int]:
        return self.own

    @property
    def operands(self) -> int:
        return len(self.places)

    def constant(self, value: Any) -> str:
        return constant(value)


#: The families of steps, each a worksheet, in order.
FAMILIES = ("given", "projections", "scores", "weights", "output", "gradients")


class _Book:
    """The workbook being written: its sheets, formats and where each matrix is."""

    def __init__(self, derivation: Derivation, words: Words, digits: int) -> None:
        self.d, self.words, self.digits = derivation, words, digits
        self.buffer = io.BytesIO()
        self.book = xlsxwriter.Workbook(self.buffer, {"in_memory": True})
        self.places: dict[str, _Place] = {}
        self.shapes: dict[str, tuple[int, int]] = {}
        self.sheets: dict[str, Any] = {}
        self.next_row: dict[str, int] = {}
        bold = {"bold": True}
        self.title = self.book.add_format({**bold, "font_size": 12})
        self.formula = self.book.add_format({"italic": True, "font_color": "#555555"})
        self.label = self.book.add_format({**bold, "align": "center", "bg_color": "#EEEEEE"})
        self.given = self.book.add_format({"font_color": "#1F4E9E", "bg_color": "#E8F0FB"})
        places = "0." + "0" * digits if digits else "0"
        self.number = self.book.add_format({"num_format": places})
        self.masked = self.book.add_format({"align": "right", "font_color": "#888888"})
        self.kind_rules = {kind: rules.cells for kind, rules in kind_rules().items() if rules.cells}

    def sheet(self, family: str) -> tuple[str, Any]:
        name = self.words("xlsx." + family)
        if name not in self.sheets:
            sheet = self.book.add_worksheet(name)
            sheet.set_column(0, 0, 14)
            sheet.set_column(1, 60, 12)
            sheet.write(0, 0, self.words("xlsx.about." + family), self.formula)
            self.sheets[name] = sheet
            self.next_row[name] = 2
        return name, self.sheets[name]

    def table(
        self,
        family: str,
        name: str,
        title: str,
        formula: str,
        shape: tuple[int, int],
        row_labels: tuple[str, ...] | None,
        col_labels: tuple[str, ...] | None,
    ) -> tuple[str, Any, _Place]:
        """A table's title and labels; the place of its entries."""
        sheet_name, sheet = self.sheet(family)
        top = self.next_row[sheet_name]
        sheet.write(top, 0, title, self.title)
        if formula:
            sheet.write(top + 1, 0, formula, self.formula)
        n, m = shape
        for j in range(m):
            sheet.write(top + 2, 1 + j, col_labels[j] if col_labels else str(j + 1), self.label)
        for i in range(n):
            sheet.write(top + 3 + i, 0, row_labels[i] if row_labels else str(i + 1), self.label)
        place = _Place(sheet_name, top + 3, 1)
        self.next_row[sheet_name] = top + 3 + n + 1
        first = xl_rowcol_to_cell(place.row, place.col, True, True)
        last = xl_rowcol_to_cell(place.row + n - 1, place.col + m - 1, True, True)
        self.book.define_name(_defined_name(name), f"={quote_sheetname(sheet_name)}!{first}:{last}")
        self.places[name], self.shapes[name] = place, shape
        return sheet_name, sheet, place

    def note(self, sheet: Any, row: int, col: int, entry: Any, value: float | None) -> None:
        """The exact value as a note, when the cell's double is not it."""
        exact = rational_value(entry)
        if exact is not None and value is not None and Fraction(value) == exact:
            return
        text = self.words("xlsx.exact", value=_exact_text(entry))
        sheet.write_comment(row, col, text[:_NOTE_CHARS], {"x_scale": 2})

    def close(self) -> bytes:
        self.book.close()
        return self.buffer.getvalue()


def _defined_name(matrix: str) -> str:
    """The workbook name of a matrix's cells (``step_h1_Q`` for h1.Q): a spreadsheet's
    Name Box goes there, and a test finds every step by it."""
    return "step_" + "".join(ch if ch.isalnum() else "_" for ch in matrix)


def _exact_text(entry: Any) -> str:
    return StrPrinter()(entry)


def _given(
    book: _Book, name: str, matrix: Matrix, title: str, labels: tuple[Any, Any] = (None, None)
) -> None:
    n, m = len(matrix), len(matrix[0])
    _, sheet, place = book.table("given", name, title, "", (n, m), *labels)
    for i, row in enumerate(matrix):
        for j, entry in enumerate(row):
            r, c = place.row + i, place.col + j
            if isinstance(entry, NegInf):
                sheet.write_string(r, c, MINUS_INFINITY, book.masked)
                continue
            value = _float(entry)
            sheet.write_number(r, c, value, book.given)
            book.note(sheet, r, c, entry, value)


def _float(entry: Any) -> float:
    exact = rational_value(entry)
    if exact is None:
        value = to_sympy(entry)
        if getattr(value, "free_symbols", None):
            raise SymattnError(
                "xlsx: a symbolic problem has no numbers to put in a spreadsheet; "
                "give numbers, or use --format tex"
            )
        return float(value)
    return exact.numerator / exact.denominator


def _step_title(book: _Book, step: Step, n: int) -> str:
    return book.words("step_heading", n=n, title=title_of(step, book.words))


def _write_step(book: _Book, step: Step, family: str, n: int, refs_of: list[str]) -> None:
    rows, cols = step.shape
    title = _step_title(book, step, n)
    here, sheet, place = book.table(
        family,
        step.id,
        title,
        formula_text(step.spec, book.words),
        (rows, cols),
        step.row_labels,
        step.col_labels,
    )
    places, shapes = [book.places[o] for o in refs_of], [book.shapes[o] for o in refs_of]
    refs = _Refs(places, shapes, here, (rows, cols))
    rule = CELL_RULES.get(step.kind) or book.kind_rules.get(step.kind)
    if rule is None:
        sheet.write_comment(place.row - 3, 0, book.words("xlsx.no_formula"), {"x_scale": 2})
    for i in range(rows):
        values = step.float_row(i)
        for j in range(cols):
            r, c, entry = place.row + i, place.col + j, step.exact[i][j]
            if isinstance(entry, NegInf):
                sheet.write_string(r, c, MINUS_INFINITY, book.masked)
                continue
            value = values[j]
            formula = rule(step.spec, refs, i, j) if rule is not None else None
            if formula is None:
                sheet.write_number(r, c, value if value is not None else 0.0, book.number)
            else:
                sheet.write_formula(r, c, "=" + formula, book.number, value)
            book.note(sheet, r, c, entry, value)


def _write_softmax(book: _Book, step: Step, family: str, n: int, refs_of: list[str]) -> None:
    """The exponentials (less the row's largest score) and their row sums, then each
    weight as its exponential over the sum: as a tutorial writes the softmax."""
    rows, cols = step.shape
    scores = book.places[refs_of[0]]
    here, sheet, exps = book.table(
        family,
        step.id + ".exp",
        book.words("xlsx.exp"),
        "",
        (rows, cols),
        step.row_labels,
        step.col_labels,
    )
    sheet.write(exps.row - 1, exps.col + cols, "Σ", book.label)
    for i in range(rows):
        row = scores.span(i, 0, i, cols - 1, here)
        for j in range(cols):
            s = scores.cell(i, j, here)
            sheet.write_formula(
                exps.row + i,
                exps.col + j,
                f"=IF(ISNUMBER({s}),EXP({s}-MAX({row})),0)",
                book.number,
            )
        sheet.write_formula(
            exps.row + i,
            exps.col + cols,
            f"=SUM({exps.span(i, 0, i, cols - 1, here)})",
            book.number,
        )
    title = _step_title(book, step, n)
    _, _, place = book.table(
        family,
        step.id,
        title,
        formula_text(step.spec, book.words),
        (rows, cols),
        step.row_labels,
        step.col_labels,
    )
    for i in range(rows):
        values = step.float_row(i)
        total = exps.cell(i, cols, here)
        for j in range(cols):
            r, c = place.row + i, place.col + j
            sheet.write_formula(r, c, f"={exps.cell(i, j, here)}/{total}", book.number, values[j])
            book.note(sheet, r, c, step.exact[i][j], values[j])


def _family(step: Step, current: str, backward: set[str]) -> str:
    """The step's worksheet: gradients after the forward pass; in it, the projections
    until the scores (a product with a transpose, or a topic's score), the scores until
    the softmax, the weights, then the output."""
    if step.id in backward:
        return "gradients"
    if step.kind == Kind.SOFTMAX:
        return "weights"
    if current == "weights":
        return "output"
    if current == "projections" and (
        (step.kind == Kind.PRODUCT and step.spec.transpose_right) or step.kind == Kind.SCALE
    ):
        return "scores"
    return current


def render_xlsx(derivation: Derivation, words: Words, digits: int) -> bytes:
    """The derivation as the bytes of an .xlsx workbook."""
    book = _Book(derivation, words, digits)
    problem = derivation.problem
    backward = {s.id for s in backward_plan(problem).specs} if derivation.has("dO") else set()
    plans = [forward_plan(problem)] + ([backward_plan(problem)] if backward else [])
    sources: dict[str, Source] = {}
    for plan in plans:
        sources.update(plan.sources)
    number = {step.id: k for k, step in enumerate(derivation, 1)}  # as every format counts
    for step in derivation:
        if step.kind in (Kind.GIVEN, Kind.LOOKUP):
            title = _step_title(book, step, number[step.id])
            _given(book, step.id, step.exact, title, (step.row_labels, step.col_labels))
    for name, source in sources.items():
        if source.columns is None and name not in book.places:
            _given(book, name, derivation.matrices[name], name)
    for name, source in sources.items():
        if source.columns is not None:
            parent = book.places[source.field]
            book.places[name] = _Place(parent.sheet, parent.row, parent.col + source.columns[0])
            width = source.columns[1] - source.columns[0]
            book.shapes[name] = (len(derivation.matrices[name]), width)
    current: dict[int | None, str] = {}
    for step in derivation:
        if step.kind in (Kind.TOKENS, Kind.GIVEN, Kind.LOOKUP):
            continue
        n = number[step.id]
        family = _family(step, current.get(step.spec.head, "projections"), backward)
        current[step.spec.head] = family
        operands = list(step.operands)
        if step.spec.source is not None:  # a given matrix it takes (dO = O − T: T)
            operands.append(step.spec.source.field)
        for name in operands:
            if name not in book.places:
                matrix = derivation.matrices.get(name) or problem.given(name)
                if matrix is None:
                    raise SymattnError(f"xlsx: step {step.id} is made from {name}, not given")
                _given(book, name, matrix, name)
        if step.kind == Kind.SOFTMAX:
            _write_softmax(book, step, family, n, operands)
        else:
            _write_step(book, step, family, n, operands)
    return book.close()
