"""Format-neutral formulas: what the walk writes and every printer reads.

A formula is a small tree of the nodes below.  :mod:`symattn.render.tex` prints it as LaTeX (for
LaTeX, Markdown and HTML), :mod:`symattn.render.unicode_math` as Unicode (for the terminal).  A
node says *what* is written — a name, an exact value, a substituted number with its
decimal, a product — and each printer decides *how*: ``x_{1,1} w^{Q}_{1,1}`` on paper
is ``x₁,₁·wq₁,₁`` in the terminal.
"""

from __future__ import annotations

from decimal import Decimal
from enum import Enum
from fractions import Fraction
from typing import Any, Union

from .record import Record

__all__ = [
    "Brackets",
    "Cases",
    "Cell",
    "Concat",
    "Dec",
    "Exp",
    "Frac",
    "Glue",
    "Join",
    "Label",
    "Line",
    "Lit",
    "Math",
    "Minus",
    "Name",
    "Norm",
    "Number",
    "Paren",
    "Product",
    "Relation",
    "Result",
    "Root",
    "Sub",
    "Sum",
    "Sup",
    "Sym",
    "Table",
    "Value",
    "Vector",
]


class Name(Record):
    """A matrix (no row), a row vector (no column) or an entry, by the notation."""

    matrix: str
    row: int | str | None = None
    col: int | str | None = None
    transposed: bool = False


class Sym(Record):
    """A fixed symbol: ``d_k``, ``d_model``, ``sqrt_dk`` (√d_k), ``c``, ``E`` (the
    embedding table), ``diag``, ``softmax``, ``J``, ``Sigma``, ``sum_k``, ``to``,
    ``mapsto``, ``mid``, ``quad`` (a space between a formula and its note), ``half`` (½),
    ``id``, ``neg_inf`` and plain numbers and letters."""

    name: str


class Lit(Record):
    """Math written the same everywhere: a number, a decimal already rounded."""

    text: str


class Label(Record):
    """Words inside a formula: a token, or a word of :mod:`symattn.words`."""

    text: str


class Value(Record):
    """An exact value (inline: fractions written with a slash, as in an exponent)."""

    value: Any
    inline: bool = False


class Number(Record):
    """A value substituted into a formula: exact when short, else its ``decimal``."""

    value: Any
    decimal: str | None = None


class Dec(Record):
    """A decimal shown as such (``4.1133``; very large or small: ``a × 10^k``)."""

    value: Decimal
    digits: int


class Cell(Record):
    """A matrix entry: its exact value and its decimal (None when symbolic or not
    asked for); the printer chooses which to show, unless ``prefer_decimal`` says."""

    value: Any
    decimal: str | None = None
    prefer_decimal: bool | None = None


class Result(Record):
    """The value of an entry after its formula: ``= exact ≈ decimal``, each part shown
    when it says something (an integer needs no decimal; a long closed form is left to
    the matrix)."""

    value: Any
    decimal: str | None
    rational: Fraction | None
    exact_decimal: bool  # the decimal is the exact value
    symbolic: bool = False


class Frac(Record):
    num: Math
    den: Math


class Exp(Record):
    """``e`` to the power of ``exponent``."""

    exponent: Math


class Root(Record):
    """The square root of ``body``: √(σ² + ε)."""

    body: Math


class Paren(Record):
    body: Math


class Brackets(Record):
    """``[ body ]``: the heads' outputs set side by side."""

    body: Math


class Norm(Record):
    """The (Euclidean, Frobenius) norm of ``body``: ‖O − T‖."""

    body: Math


class Minus(Record):
    """A term that is subtracted in a :class:`Sum`."""

    body: Math


class Glue(Enum):
    """How two factors of a product are set side by side, on paper / in the terminal."""

    JUXTAPOSE = ("juxtapose", " ", "·")  # x_{1,1} w^{Q}_{1,1}  /  x₁,₁·wq₁,₁
    DOT = ("dot", r" \cdot ", "·")  # 1 \cdot 2  /  1·2
    INNER = ("inner", r" \cdot ", " · ")  # q_1 \cdot k_2  /  q₁ · k₂
    SPACE = ("space", " ", " ")  # a_{1,1} v_1  /  a₁,₁ v₁


class Product(Record):
    """Factors side by side.  ``flips``: the factors of a matrix product (or of one term of
    an entry of it): the column layout, where every matrix is transposed, writes them the
    other way round (X W_Q becomes W_Q X)."""

    factors: tuple[Math, ...]
    glue: Glue = Glue.JUXTAPOSE
    flips: bool = False


class Sum(Record):
    """Terms added (a term printed with a leading minus is subtracted); a chain may
    break a long sum between its terms."""

    terms: tuple[Math, ...]


class Concat(Record):
    """Pieces written one after another, with nothing between them."""

    parts: tuple[Math, ...]


class Sub(Record):
    """``base`` with a subscript: E_{1,:}, J_{1}, Σ_{1}."""

    base: Math
    sub: str


class Sup(Record):
    """``base`` with a superscript: ``"T"`` (transposed: [K_cache; k₃]ᵀ) or a digit
    (‖O − T‖²)."""

    base: Math
    sup: str


class Vector(Record):
    """A row vector, elided past the display limit."""

    items: tuple[Math, ...]


class Table(Record):
    """A matrix of cells; -1 in ``rows``/``cols`` marks the elided middle (⋯).  With
    labels, the printer may set the tokens beside and above it."""

    cells: tuple[tuple[Math, ...], ...]
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    row_labels: tuple[str, ...] | None = None
    col_labels: tuple[str, ...] | None = None
    names: tuple[tuple[Math, ...], ...] | None = None  # shown instead of long symbolic cells
    labelled: bool = False  # on paper, set the tokens beside and above (scores, weights)


class Cases(Record):
    rows: tuple[tuple[Math, Math], ...]


class Relation(Record):
    """``left rel right`` inside a formula: n = 2, 我 ↦ 1, √d_k = √2 (no ``left``:
    ``≈ 4.1133`` after a line)."""

    left: Math | None
    rel: str  # "=", "≈", "→", "↦"
    right: Math


class Join(Record):
    """Items with a separator between them: ``dims`` (n = 2, d_k = 2), ``list``
    (我 ↦ 1, 爱 ↦ 2), ``bar`` (我 | 爱), ``comma`` (O1, O2)."""

    items: tuple[Math, ...]
    sep: str


Math = Union[
    Name,
    Sym,
    Lit,
    Label,
    Value,
    Number,
    Dec,
    Cell,
    Result,
    Frac,
    Exp,
    Paren,
    Brackets,
    Norm,
    Minus,
    Product,
    Sum,
    Concat,
    Sub,
    Sup,
    Vector,
    Table,
    Cases,
    Relation,
    Join,
    Root,
]


class Line(Record):
    """One displayed line: ``lhs rel₁ rhs₁ rel₂ rhs₂ …`` then ``tail``.

    ``aligned`` lines are set under one another at their first relation; a chain that
    is too long for the page breaks before a relation or between the terms of a sum.
    A line without relations is one formula (``lhs`` alone).
    """

    lhs: Math | None
    parts: tuple[tuple[str, Math], ...] = ()
    tail: Math | None = None  # a Result, or a Relation without left side
    aligned: bool = True
    breaks: bool = True  # may the line break when it is too long for the page?
    note: str | None = None  # a token set after the line: (我)
