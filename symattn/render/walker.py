"""The walker: what every kind of step writes with (names, substituted numbers,
results, the general formula, the matrix), and the order of a whole derivation.  The
methods of each kind are in :mod:`.kinds`.

Every step is written the way a person writes it by hand: the general formula first;
then, for each expanded row, each entry's formula, the numbers substituted in the
order of the terms (zeros kept, 1/√2 not rationalised), the exact value and ≈ its
decimal; then all rows as a matrix.  The formulas are :mod:`.math` trees, the same in
every language and format; the words come from :mod:`symattn.words`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field
from typing import TYPE_CHECKING

from ..derivation import Derivation
from ..entries import Ref
from ..formula import (
    Cell,
    Join,
    Line,
    Lit,
    Math,
    Name,
    Number,
    Relation,
    Result,
    Sym,
    Table,
)
from ..ids import split_id
from ..messages import Title
from ..numbers import Combination, ExpRatio, Surd, rational_value
from ..plan import result_step
from ..record import Record
from ..steps import Kind, Step
from ..topics import CORE_KINDS, kind_rules
from ..words import MathName, Words
from .blocks import Display, Heading, Heatmap, Sentence, math_part
from .general import divisor_symbol, general_line
from .given import given_notes, given_shown, scale_sentence
from .options import RenderOptions
from .view import ROWS, View

if TYPE_CHECKING:
    from .block_type import Block

__all__ = [
    "DISPLAY_LIMIT",
    "ENTRY_LIMIT",
    "KindMethod",
    "Walker",
    "divisor_symbol",
    "elided",
    "heatmap",
    "table",
    "title_fact",
]

#: Rows and columns of a matrix shown before eliding with ⋯.
DISPLAY_LIMIT = 8
#: Entries of one row written out before the rest are left to the matrix.
ENTRY_LIMIT = 8
#: Steps whose matrices are set with the tokens beside and above them.
LABELLED = ("scores", "scaled_scores", "masked_scores", "weights")


def _closed(kind: Kind) -> bool:
    """A kind whose entries may be nested roots (SymPy), shown by their decimals: a
    topic's kinds say so; a sum (Kind.ADD) is so when what it adds is (X + P of sin and
    cos is written exactly)."""
    return kind not in CORE_KINDS and kind_rules()[kind].closed


def elided(count: int) -> tuple[int, ...]:
    """Indices shown of ``count``; -1 stands for the elided middle."""
    if count <= DISPLAY_LIMIT:
        return tuple(range(count))
    return (0, 1, 2, -1, count - 2, count - 1)


def table(
    step: Step, digits: int, labels: bool = False, symbolic: bool = False, view: View = ROWS
) -> Table:
    """A step's matrix as a table of cells (exact value and decimal), elided, as ``view``
    writes it (transposed in the column layout); for a symbolic problem, with the entries'
    names to show instead of long expressions."""
    shown_rows, shown_cols = view.shape(*step.shape)
    rows, cols = elided(shown_rows), elided(shown_cols)

    def cell(r: int, c: int) -> Cell:
        i, j = view.index(r, c)  # the row-layout entry written at (r, c)
        return Cell(step.exact[i][j], step.decimal_str(i, j, digits))

    cells = tuple(tuple(cell(r, c) if r >= 0 and c >= 0 else Lit("") for c in cols) for r in rows)
    names = None
    if symbolic:
        names = tuple(
            tuple(Name(step.id, r, c) if r >= 0 and c >= 0 else Lit("") for c in cols) for r in rows
        )
    row_labels, col_labels = step.row_labels, step.col_labels
    if view.columns:
        row_labels, col_labels = col_labels, row_labels
    return Table(cells, rows, cols, row_labels, col_labels, names, labels)


def plain_table(matrix: tuple[tuple[object, ...], ...]) -> Table:
    """A given matrix, exact entries only."""
    rows, cols = elided(len(matrix)), elided(len(matrix[0]))
    cells = tuple(
        tuple(Cell(matrix[i][j]) if i >= 0 and j >= 0 else Lit("") for j in cols) for i in rows
    )
    return Table(cells, rows, cols)


KindMethod = Callable[["Walker", Step], None]


class Walker(Record):
    """The walk of one derivation with one set of options (the language, the decimal
    places, the rows and heads written out), which every kind's method reads; it fills
    ``blocks`` as it goes."""

    d: Derivation
    options: RenderOptions
    kinds: Mapping[Kind, KindMethod]
    blocks: list[Block] = field(default_factory=list)
    view: View = ROWS

    @property
    def words(self) -> Words:
        return self.options.words

    @property
    def digits(self) -> int:
        return self.options.digits

    @property
    def rows(self) -> list[int]:
        return self.options.shown_rows

    @property
    def heads_shown(self) -> list[int] | None:
        return self.options.shown_heads

    def say(self, *parts: str | Math | MathName) -> None:
        self.blocks.append(Sentence(tuple(self.view.math(math_part(p)) for p in parts)))

    def show(self, lines: list[Line]) -> None:
        if lines:
            self.blocks.append(Display(tuple(self.view.math(line) for line in lines)))

    def divisor_symbol(self, label: str) -> Math:
        return divisor_symbol(label)

    @property
    def symbolic(self) -> bool:
        return self.d.problem.symbolic

    # -- pieces ---------------------------------------------------------------------------
    def number(self, ref: Ref, value: object) -> Number:
        """A substituted entry, with its decimal when it is a step's (for closed forms)."""
        decimal = None
        if self.d.has(ref.matrix):
            decimal = self.d.step(ref.matrix).decimal_str(ref.row, ref.col, self.digits)
        return Number(value, decimal)

    def result(self, step: Step, i: int, j: int) -> Result:
        entry = step.exact[i][j]
        return Result(
            entry,
            step.decimal_str(i, j, self.digits),
            rational_value(entry),
            step.is_exact_decimal(i, j, self.digits),
            self.symbolic,
        )

    def general(self, step: Step) -> Line:
        """The step's general formula (:mod:`.general`: the one tree JSON prints too)."""
        line = general_line(step.spec, self.words, self.columns)
        return line if line is not None else Line(Name(step.id), aligned=False)

    @property
    def columns(self) -> bool:
        """The column layout: tokens are columns, and a column is written out."""
        return self.view.columns

    def heading_row(self, step: Step, i: int) -> None:
        label = ""
        labels = step.row_labels
        if labels:
            label = self.words("derive.row_label", token=labels[i])
        self.say(
            self.words("derive.column" if self.columns else "derive.row", i=i + 1, label=label)
        )

    def cells(self, step: Step, i: int) -> list[tuple[int, int]]:
        """The entries written out for expanded row i (of the row layout: column i of the
        column layout's matrix, which the view writes so)."""
        return [(i, j) for j in self.entry_columns(step)]

    def closed(self, step: Step) -> bool:
        """Whether ``step``'s matrix holds closed forms or nested roots (shown ≈)."""
        if self.symbolic:
            return False
        nested = _closed(step.kind) or (
            step.kind == Kind.ADD
            and any(self.closed(self.d.step(o)) for o in step.operands if self.d.has(o))
        )
        return any(
            (isinstance(e, (ExpRatio, Combination)) or nested)
            and rational_value(e) is None
            and not isinstance(e, Surd)
            for r in step.exact
            for e in r
        )

    def matrix(self, step: Step) -> None:
        closed = self.closed(step)
        labelled = split_id(step.id)[1] in LABELLED
        shown = table(step, self.digits, labelled, self.symbolic, self.view)
        self.show([Line(Name(step.id), (("≈" if closed else "=", shown),), breaks=False)])

    def all_rows(self, step: Step) -> None:
        self.say(self.words("derive.rows_as_matrix"))
        self.matrix(step)

    def expanded(self, step: Step) -> list[int]:
        head = split_id(step.id)[0]
        if head is not None and self.heads_shown is not None and head not in self.heads_shown:
            return []
        return [i for i in self.rows if i < step.shape[0]]

    def entry_columns(self, step: Step) -> range:
        return range(min(step.shape[1], ENTRY_LIMIT))

    def more(self, step: Step) -> None:
        width = step.shape[1]
        if width > ENTRY_LIMIT:
            self.say(self.words("derive.more_entries", count=width - ENTRY_LIMIT))

    def general_block(self, step: Step) -> None:
        self.say(self.words("derive.general"))
        self.show([self.general(step)])

    # -- the whole derivation -------------------------------------------------------------
    def run(self) -> list[Block]:
        d, w, p = self.d, self.words, self.d.problem
        if p.description:  # what the problem is about, in its author's words
            self.blocks.append(Sentence((p.description,)))
        self.blocks.append(Heading(None, w("given")))
        dims: list[Math] = [Relation(Sym("n"), "=", Lit(str(p.n)))]
        if p.keys_from is not None or p.d_model is None:  # keys of their own (a memory)
            dims.append(Relation(Sym("m"), "=", Lit(str(p.m))))
        if p.d_model is not None:
            dims.append(Relation(Sym("d_model"), "=", Lit(str(p.d_model))))
        for width, size in p.shapes.widths:  # a topic's (the width of the keys' source)
            dims.append(Relation(Sym(width), "=", Lit(str(size))))
        dims += [
            Relation(Sym("d_k"), "=", Lit(str(p.d_k))),
            Relation(Sym("d_v"), "=", Lit(str(p.d_v))),
        ]
        if p.heads > 1:
            dims.append(Relation(Sym("h"), "=", Lit(str(p.heads))))
        self.say(Join(tuple(dims), "dims"))
        self.show(
            [
                Line(Name(name), (("=", plain_table(self.view.given(name, m))),), breaks=False)
                for name in given_shown(p)
                if (m := p.given(name)) is not None
            ]
        )
        self.blocks.append(scale_sentence(p, w))
        self.blocks.extend(given_notes(p, w, self.view))
        for number, step in enumerate(d.steps, start=1):
            self.blocks.append(Heading(number, w.heading(number, title_of(step, w))))
            self.step(step)
        self.blocks.append(Heading(None, w("result")))
        self.matrix(d.step(result_step(p)))
        check = d.crosscheck
        if check is None:
            self.say(w("derive.symbolic_check"))
        else:
            verdict = w(
                "derive.within_float64"
                if check.within_float64_error
                else "derive.passed"
                if check.passed
                else "derive.failed"
            )
            self.say(w("derive.crosscheck", verdict=verdict, error=f"{check.max_rel_error:.1e}"))
        return self.blocks

    def step(self, step: Step) -> None:
        method = self.kinds.get(step.kind)
        if method is None:  # pragma: no cover - every kind has a method
            raise TypeError(f"no way to write a step of kind {step.kind}")
        method(self, step)


def title_fact(step: Step) -> Title:
    """The step's title as a message's fact: its id, and the wording it takes (embeddings
    given rather than looked up; an output that is the heads' projection)."""
    if step.id == "X" and step.kind == Kind.GIVEN:
        return Title("X", "X_given")
    if step.id == "output" and step.kind == Kind.PRODUCT and step.operands[:1] == ("concat",):
        return Title("output", "projection")
    return Title(step.id)


def title_of(step: Step, words: Words) -> str:
    """The step's title in ``words``' language."""
    fact = title_fact(step)
    return words.title(fact.step, fact.variant)


def heatmap(step: Step, digits: int, caption: str, view: View = ROWS) -> Heatmap:
    """A step's matrix as shaded cells, as ``view`` writes it (transposed in the column
    layout), elided."""
    shown_rows, shown_cols = view.shape(*step.shape)
    rows, cols = elided(shown_rows), elided(shown_cols)
    row_labels, col_labels = step.row_labels, step.col_labels
    if view.columns:
        row_labels, col_labels = col_labels, row_labels
    values, labels = [], []
    for r in rows:
        if r < 0:
            continue
        cells = [view.index(r, c) if c >= 0 else None for c in cols]
        values.append(
            tuple(0.0 if ij is None else float(step.float_value(*ij) or 0.0) for ij in cells)
        )
        labels.append(
            tuple(
                "⋯" if ij is None else (step.decimal_str(*ij, min(digits, 2)) or "") for ij in cells
            )
        )
    row_names = tuple((row_labels[r] if row_labels else str(r + 1)) for r in rows if r >= 0)
    col_names = tuple("⋯" if c < 0 else (col_labels[c] if col_labels else str(c + 1)) for c in cols)
    return Heatmap(caption, row_names, col_names, tuple(values), tuple(labels))
