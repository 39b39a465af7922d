"""What a topic is: one unit of code for one more piece of the attention unit.

A :class:`Topic` says everything about itself in one module: the problem-file keys it
reads into a frozen config (:class:`~symattn.problem.TopicConfig`, in ``Problem.topics``),
the steps it adds to the plan at named points (after X, after Q and K, the scores, on the
scores, after attention), its kinds of step (:class:`KindRules`), its mistake models, its
names on paper, the Given section's sentences, its exercise draw, and which topics it does
not combine with; its NumPy reference is its sibling module ``<topic>_numpy.py``.  The core
loops over the registry of :mod:`symattn.topics`, naming no topic; every hook is a no-op."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ..errors import SymattnError, where
from ..formula import Line, Math, Number, Result
from ..ids import head_prefix
from ..messages import Piece
from ..numbers import Surd
from ..printing import Names
from ..problem import KeysSource, Mask, Matrix, Problem, TopicConfig
from ..record import Record
from ..steps import Kind, Ref, Source, Step, StepSpec
from ..words import Words
from .cells import CellRule
from .draw import Draw, DrawOptions, Matrices
from .mistake import Compute, Mistake, Run, on, plan_change
from .page_rule import PageRule

if TYPE_CHECKING:  # the random module loads with the exercises (start-up, issue 24)
    import random

__all__ = [
    "Builder",
    "Compute",
    "Draw",
    "DrawOptions",
    "KindRules",
    "LoadContext",
    "Matrices",
    "Mistake",
    "Run",
    "Topic",
    "Writer",
    "on",
    "plan_change",
]

# -- kinds of step ---------------------------------------------------------------------------
ExactRule = Callable[[StepSpec, list[Matrix], Problem], Matrix]
DecimalRule = Callable[[StepSpec, list[Any], Problem, Any], Any]


class Derived(Protocol):
    """What a writer may read of the derivation: its matrices and steps."""

    @property
    def problem(self) -> Problem: ...

    @property
    def precision(self) -> int: ...

    @property
    def matrices(self) -> Mapping[str, Matrix]: ...

    def step(self, step_id: str) -> Step: ...

    def has(self, step_id: str) -> bool: ...


class Writer(Protocol):
    """The walk of :mod:`symattn.render`, as a topic's way of writing a step sees it: it
    says sentences and shows formula lines (:mod:`symattn.formula`), row by row."""

    @property
    def d(self) -> Derived: ...

    @property
    def words(self) -> Words: ...

    @property
    def digits(self) -> int: ...

    @property
    def symbolic(self) -> bool: ...

    def say(self, *parts: Piece) -> None: ...

    def show(self, lines: list[Any]) -> None: ...

    def number(self, ref: Ref, value: object) -> Number: ...

    def result(self, step: Step, i: int, j: int) -> Result: ...

    def heading_row(self, step: Step, i: int) -> None: ...

    def cells(self, step: Step, i: int) -> list[tuple[int, int]]: ...

    def expanded(self, step: Step) -> list[int]: ...

    def entry_columns(self, step: Step) -> range: ...

    def more(self, step: Step) -> None: ...

    def all_rows(self, step: Step) -> None: ...

    def matrix(self, step: Step) -> None: ...

    def divisor_symbol(self, label: str) -> Math: ...


WriteRule = Callable[[Writer, Step], None]


class KindRules(Record):
    """One kind of step: how it is computed exactly and on decimals, and how it is written.

    ``closed``: its entries may be nested roots or closed forms that a display shows by
    their decimals (≈), as LayerNorm's are; ``cells``: its spreadsheet formulas.
    """

    kind: Kind
    exact: ExactRule
    decimal: DecimalRule
    write: WriteRule
    closed: bool = False
    cells: CellRule | None = None
    page: PageRule | None = None  # its decimal rule on the self-check page
    general: Callable[[StepSpec, Words], tuple[Line, ...]] | None = None  # its general lines


# -- the problem file --------------------------------------------------------------------------
class ValueReader(Protocol):
    """The problem file's reader of values (symattn's own grammar, no eval)."""

    source: str
    symbolic: bool

    def value(
        self, raw: object, key: str, row: int | None = None, col: int | None = None
    ) -> Any: ...

    def matrix(self, data: Mapping[str, Any], key: str) -> Any: ...


@dataclass
class LoadContext:
    """What the problem reader hands each topic: the file's data, its reader, the sizes
    once known, and the keep-mask so far (a topic may narrow it)."""

    data: Mapping[str, Any]
    reader: ValueReader
    layout: str
    convert: Callable[[Any], Matrix]
    shapes: dict[str, int] = field(default_factory=dict)
    mask: Mask | None = None
    mask_label: str = "none"
    kv_heads: int | None = None  # K/V heads (grouped-query attention), before the sizes
    #: The topics read so far (name → config): a topic may depend on another's keys.
    read: dict[str, TopicConfig] = field(default_factory=dict)

    @property
    def source(self) -> str:
        return self.reader.source

    @property
    def symbolic(self) -> bool:
        return self.reader.symbolic

    def has(self, key: str) -> bool:
        return key in self.data

    def error(
        self, message: str, key: str | None = None, row: int | None = None, col: int | None = None
    ) -> SymattnError:
        """One line that names the file (and the key, row and column) and the rule."""
        place = self.source if key is None else where(self.source, key, row, col)
        return SymattnError(f"{place}: {message}")

    def flag(self, key: str) -> bool:
        raw = self.data.get(key, False)
        if not isinstance(raw, bool):
            raise self.error(f"expected true or false, found {raw!r}", key)
        return raw

    def matrix(self, key: str, *, laid_out: bool = True, raw: object = None) -> Matrix:
        """The matrix of ``key`` as exact entries, in the row layout: a column-layout file
        writes it transposed (``laid_out``), as it writes X and the W's."""
        data = self.data if raw is None else {key: raw}
        rows = self.reader.matrix(data, key)
        if laid_out and self.layout == "column":
            rows = tuple(zip(*rows))
        return self.convert(rows)

    def number(self, raw: object, key: str, row: int | None = None, col: int | None = None) -> Surd:
        """A number (never a symbol) as a surd."""
        mono = self.reader.value(raw, key, row, col)
        if not mono.is_number:
            raise self.error(f"expected a number, found {raw!r}", key, row, col)
        return mono.coef  # type: ignore[no-any-return]

    def positive(self, key: str) -> Surd:
        raw = self.data[key]
        mono = self.reader.value(raw, key)
        if not mono.is_number or mono.coef.sign() <= 0:
            raise self.error(f"expected a positive number, found {raw!r}", key)
        return mono.coef  # type: ignore[no-any-return]

    def vector(self, key: str, width: int, default: int) -> Matrix:
        """A 1 × width row of numbers (a vector is written as it is in both layouts)."""
        raw = self.data.get(key)
        if raw is None:
            return (tuple(Surd.rational(default) for _ in range(width)),)
        if not isinstance(raw, list) or len(raw) != width:
            raise self.error(f"expected a list of {width} numbers (one per column)", key)
        return (tuple(self.number(v, key, None, j) for j, v in enumerate(raw)),)

    def shape_rule(self, matrix: Matrix, key: str, rows: int, cols: int | None, what: str) -> int:
        """Refuse ``matrix`` unless it is rows × cols; its number of columns."""
        found = (len(matrix), len(matrix[0]))
        if found[0] != rows or (cols is not None and found[1] != cols):
            want = f"{rows} × {cols}" if cols is not None else f"{rows} rows"
            raise self.error(f"has shape {found[0]} × {found[1]} but needs {want} ({what})", key)
        return found[1]


# -- the plan --------------------------------------------------------------------------------
@dataclass
class Head:
    """What one head's steps are called, as the plan wrote them."""

    prefix: str  # "h2." (or "" for a single head)
    index: int | None  # 0-based, or None for a single head
    q: str = "Q"
    k: str = "K"
    v: str = "V"
    output: str = "output"


@dataclass
class Builder:
    """The plan as the core writes it, handed to each topic's hooks in turn.

    ``x`` is what positions make of X (X̃ = X + P), ``attended`` what the projections
    read (X̃, or LN(X̃) before a pre-norm block); within a head, ``head`` names its steps
    so far and ``current`` / ``symbol`` the scores as they are now (S, S', M).
    """

    problem: Problem
    inputs: dict[str, Source] = field(default_factory=dict)
    specs: list[StepSpec] = field(default_factory=list)
    x: str = "X"
    attended: str = "X"
    head: Head = field(default_factory=lambda: Head("", None))
    heads: list[Head] = field(default_factory=list)
    current: str = "scores"
    symbol: str = "S"
    divisor: Any = None  # what the scores are divided by (None: not at all)
    divisor_label: str = ""  # "sqrt(d_k)", "c", with "*tau" for a temperature
    divisor_words: str = ""  # "√d_k", "(√d_k · τ)"
    output: str = "output"  # what attention gives (after concat and W_O)

    @property
    def prefix(self) -> str:
        return self.head.prefix

    def add(self, spec: StepSpec) -> str:
        self.specs.append(spec)
        return spec.id

    def given(self, name: str) -> None:
        """A matrix the problem gives that a step names (W_a, P, a mask, …)."""
        self.inputs[name] = Source(name)

    def scored(self, step_id: str, symbol: str) -> None:
        """The scores are now ``step_id`` (written ``symbol`` in formulas)."""
        self.current, self.symbol = step_id, symbol


# -- the topic ---------------------------------------------------------------------------------
class Topic:
    """One topic; subclass it, set what applies, and override the hooks it needs."""

    name: ClassVar[str] = ""  # as ``exercises --with`` and docs/topics.md name it
    #: The problem-file keys it reads.
    keys: ClassVar[tuple[str, ...]] = ()
    #: How a problem file asks for it, in an error message (its key, or 'score = …').
    asked: ClassVar[str] = ""
    #: Derived with ``--backward`` too.
    backward: ClassVar[bool] = False
    with_memory: ClassVar[bool] = True  # goes with cross-attention (a memory's keys)
    keys_source: ClassVar[KeysSource | None] = None  # K and V from its matrix, not X
    #: Its kinds of step, mistake models, names on paper and symbols (LaTeX, Unicode).
    kinds: ClassVar[tuple[KindRules, ...]] = ()
    mistakes: ClassVar[tuple[Mistake, ...]] = ()
    names: ClassVar[Mapping[str, Names]] = {}
    symbols: ClassVar[Mapping[str, tuple[str, str]]] = {}
    #: Its problem-file matrices that the column layout writes transposed; its names
    #: written the same in both layouts (vectors, angles).
    laid_out: ClassVar[tuple[str, ...]] = ()
    fixed: ClassVar[tuple[str, ...]] = ()
    #: Given matrices that the Given section shows with the W's.
    shown: ClassVar[tuple[str, ...]] = ()
    #: Drawn matrices that leave the scores as they are (drawn afresh with W_V).
    after_scores: ClassVar[tuple[str, ...]] = ()
    #: Its NumPy sibling's path (:mod:`symattn.topics.numpy_base`), for the cross-check
    #: and the exercises' first look.
    numpy: ClassVar[Any] = None

    # -- the problem file ----------------------------------------------------------------
    def early(self, ctx: LoadContext) -> None:
        """Before the sizes are worked out (grouped K/V heads change them)."""

    def read(self, ctx: LoadContext) -> TopicConfig | None:
        """Its config, or None when the file does not ask for this topic."""
        return None

    def claims_mask(self, raw: Any) -> str | None:
        """The label of the ``mask`` key's value when this topic reads it (a mask of
        numbers) instead of the core's keep-mask reader, else None."""
        return None

    def default_scale(self, data: Mapping[str, Any]) -> str | None:
        """The scale when the file gives none ("none" for scores of its own)."""
        return None

    # -- the plan ------------------------------------------------------------------------
    def after_x(self, b: Builder, config: Any) -> None:
        """Steps after X, before the projections (positions, a pre-norm)."""

    def kv_group(self, problem: Problem, config: Any, head: int) -> int | None:
        """The K/V head of query head ``head`` (0-based), when this topic decides it."""
        return None

    def after_qk(self, b: Builder, config: Any) -> None:
        """Steps after a head's Q and K (a rotation turns them)."""

    def scores(self, b: Builder, config: Any) -> bool:
        """Write the head's scores instead of q_i · k_j; True when it did."""
        return False

    def divisor(self, problem: Problem, config: Any) -> tuple[Any, str, str] | None:
        """A factor the scores are divided by as well (value, label, symbol in words)."""
        return None

    def on_scores(self, b: Builder, config: Any) -> None:
        """Steps on the scaled scores, before the softmax (a bias, a mask of numbers)."""

    def after_attention(self, b: Builder, config: Any) -> None:
        """Steps after attention (one more step, a block)."""

    def result(self, problem: Problem, config: Any) -> str | None:
        """The step the derivation's Result shows, when not the output."""
        return None

    # -- how it is written ---------------------------------------------------------------
    def notes(self, problem: Problem, config: Any, words: Words) -> Sequence[tuple[Piece, ...]]:
        """The Given section's sentences about this topic (after the scale)."""
        return []

    def scale_note(self, problem: Problem, config: Any) -> str | None:
        """The words key of the scale's sentence when the scores are not scaled."""
        return None

    # -- exercises -----------------------------------------------------------------------
    def check_options(self, options: Any) -> None:
        """Refuse exercise options this topic cannot be drawn with (SymattnError)."""

    def d_k(self, options: Any, d_k: int) -> int:
        """The exercise's d_k as this topic needs it (pairs: even)."""
        return d_k

    def d_v(self, options: Any, d_model: int, d_v: int) -> int:
        """The exercise's d_v as this topic needs it (a block: d_model)."""
        return d_v

    def heads(self, options: Any) -> int | None:
        """The exercise's query heads, when this topic needs others than asked."""
        return None

    def kv_heads(self, options: Any) -> int | None:
        """The exercise's K/V heads, when this topic decides them."""
        return None

    def draws_backward(self, options: Any) -> bool:  # may the exercise ask for gradients?
        return self.backward

    def draw(
        self, rng: random.Random, options: Any, data: dict[str, Any], matrix: Matrices
    ) -> None:
        """Add this topic's keys to a drawn problem."""


def per_head(problem: Problem) -> Sequence[str]:
    """The prefixes of the heads ("" for one head without W_O)."""
    if problem.heads == 1 and problem.W_O is None:
        return ("",)
    return tuple(head_prefix(t) for t in range(problem.heads))
