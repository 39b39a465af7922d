"""Steps: the structure of the computation, as data.

The *plan* of a problem (:func:`symattn.plan.forward_plan`) is a tuple of
:class:`StepSpec`: each step's id, its :class:`Kind`, what it is computed from
(``operands``: earlier steps, or matrices the problem gives) and its general formula.
Every engine reads the same plan — the exact one, the decimal one that evaluates
mistake models, the backward pass — and so does every renderer and the checker, which
finds what a step depends on in ``operands``.

A :class:`Step` is a spec with its numbers: the exact entries and their
high-precision values; :class:`~symattn.derivation.Derivation` holds every step of
one problem.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import field, replace
from decimal import Decimal
from fractions import Fraction
from functools import cached_property
from typing import Any, ClassVar

from .errors import SymattnError, refuse_outside, where
from .ids import split_id
from .numbers import (
    Combination,
    DigitsUnavailable,
    ExpRatio,
    NegInf,
    Surd,
    in_balls,
    near_tie,
    rational_value,
    round_certified,
    round_exact,
    round_half_away,
    round_row,
    round_tie,
    to_sympy,
)
from .printing import StrPrinter
from .problem import Matrix, Ref, Source
from .record import Record

__all__ = ["Kind", "Plan", "Ref", "Source", "Step", "StepSpec", "Values", "set_formula_printer"]

_ZERO = Fraction(0)

Values = tuple[tuple[Decimal | None, ...], ...]
"""High-precision values of a step's entries (None where symbols leave no number)."""


class Kind:
    """How a step is made from its operands: one object per kind, compared by identity.

    The kinds of attention itself are the class attributes below; a topic
    (:mod:`symattn.topics`) makes its own (``ROTATE = Kind("rotate")``) and gives each its
    exact rule, decimal rule and way of being written.

    >>> Kind("product") is Kind.PRODUCT
    True
    """

    __slots__ = ("value",)
    _made: ClassVar[dict[str, Kind]] = {}
    value: str

    TOKENS: ClassVar[Kind]  # text → tokens → ids
    LOOKUP: ClassVar[Kind]  # rows of the embedding table, by id
    GIVEN: ClassVar[Kind]  # a matrix the problem gives (or a head's block of it)
    PRODUCT: ClassVar[Kind]  # operands[0] · operands[1], either transposed
    SUM_OF_PRODUCTS: ClassVar[Kind]  # Σ over pairs of operands of their products
    SCALE: ClassVar[Kind]  # operand / divisor
    MASK: ClassVar[Kind]  # −∞ where the mask forbids
    SOFTMAX: ClassVar[Kind]  # row-wise softmax
    WEIGHTED_SUM: ClassVar[Kind]  # b_i = Σ_j a_ij v_j
    CONCAT: ClassVar[Kind]  # the heads' outputs side by side
    COPY: ClassVar[Kind]  # the operand itself (the output of heads without W_O)
    DIFFERENCE: ClassVar[Kind]  # operands[0] − a given matrix (dO = O − T)
    COLUMNS: ClassVar[Kind]  # a block of the operand's columns (a head's dO)
    JACOBIAN: ClassVar[Kind]  # row i: (diag(a_i) − a_i a_iᵀ) g_i
    ADD: ClassVar[Kind]  # operands[0] + operands[1], entry by entry (−∞ stays −∞)

    def __new__(cls, value: str) -> Kind:
        found = cls._made.get(value)
        if found is None:
            found = super().__new__(cls)
            object.__setattr__(found, "value", value)
            cls._made[value] = found
        return found

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Kind is immutable")

    def __reduce__(self) -> tuple[type[Kind], tuple[str]]:
        return Kind, (self.value,)

    def __repr__(self) -> str:
        return f"Kind({self.value!r})"


for _name, _value in {
    "TOKENS": "tokens",
    "LOOKUP": "lookup",
    "GIVEN": "given",
    "PRODUCT": "product",
    "SUM_OF_PRODUCTS": "product_sum",
    "SCALE": "scale",
    "MASK": "mask",
    "SOFTMAX": "softmax",
    "WEIGHTED_SUM": "weighted_sum",
    "CONCAT": "concat",
    "COPY": "copy",
    "DIFFERENCE": "difference",
    "COLUMNS": "columns",
    "JACOBIAN": "jacobian",
    "ADD": "add",
}.items():
    type.__setattr__(Kind, _name, Kind(_value))


class StepSpec(Record, kw_only=True):
    """One step of the plan: what it is, what it is made from, how it is written."""

    id: str
    kind: Kind
    formula: str = ""  # in words, for a kind with no tree (render/general.py): none of ours
    operands: tuple[str, ...] = ()
    source: Source | None = None  # GIVEN, LOOKUP, DIFFERENCE: the given matrix
    transpose_left: bool = False
    transpose_right: bool = False
    divisor: Any = None  # SCALE: the exact divisor
    divisor_label: str = ""  # SCALE: "sqrt(d_k)" or how the problem wrote it
    columns: tuple[int, int] | None = None  # COLUMNS: the block
    row_labels: tuple[str, ...] | None = None
    col_labels: tuple[str, ...] | None = None
    # What a mistake model changes (see symattn.check.mistakes): the exact engine
    # computes only the defaults.
    softmax: str = "rows"  # rows | columns | global | no_exp | none
    mask_after: bool = False  # softmax over every key, then zero the masked weights
    transposed: bool = False  # the result is transposed
    round_operand: int | None = None  # operands[0] rounded to this many places first
    diagonal_only: bool = False  # JACOBIAN: a_ij (1 − a_ij) g_ij only
    shown: bool = True  # False for a helper step a mistake model inserts
    #: What a topic's kind of step needs besides its operands (the base of a topic's angles,
    #: a topic's slopes, …): a frozen dataclass of that topic's own.
    params: Any = None

    @property
    def head(self) -> int | None:
        """The step's head (1-based), or None for a single head."""
        return split_id(self.id)[0]

    @property
    def base(self) -> str:
        """The id without its head: ``h2.scores`` → ``scores``."""
        return split_id(self.id)[1]

    def changed(self, **changes: Any) -> StepSpec:
        return replace(self, **changes)


class Plan(Record):
    """Steps in order, and the matrices they name that the problem gives.

    The plan of a problem is written by :func:`symattn.plan.forward_plan`; a mistake
    model is a change to it (:meth:`changed`).
    """

    inputs: tuple[tuple[str, Source], ...]
    specs: tuple[StepSpec, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.specs if s.shown)

    @property
    def sources(self) -> Mapping[str, Source]:
        return dict(self.inputs)

    def spec(self, step_id: str) -> StepSpec:
        return next(s for s in self.specs if s.id == step_id)

    def changed(self, change: Callable[[StepSpec], StepSpec | None]) -> Plan:
        """The plan with each spec replaced by ``change(spec)`` (None keeps it)."""
        return Plan(self.inputs, tuple(change(s) or s for s in self.specs))

    def upstream(self, step_id: str) -> tuple[str, ...]:
        """The steps that ``step_id`` is made from, directly (never given matrices)."""
        ids = {s.id for s in self.specs}
        return tuple(o for o in self.spec(step_id).operands if o in ids)

    def downstream(self, step_id: str) -> tuple[str, ...]:
        """The steps made from ``step_id``, directly or through other steps, in order."""
        reached = {step_id}
        out = []
        for spec in self.specs:
            if any(o in reached for o in spec.operands):
                reached.add(spec.id)
                out.append(spec.id)
        return tuple(out)

    def __add__(self, other: Plan) -> Plan:
        return Plan(self.inputs + other.inputs, self.specs + other.specs)


#: The printer of :attr:`Step.formula`, installed by :mod:`symattn.render` (a layer above).
_FORMULA: list[Callable[[StepSpec], str]] = []


def set_formula_printer(printer: Callable[[StepSpec], str]) -> None:
    """Install the printer of :attr:`Step.formula` (a spec's general formula, in Unicode)."""
    _FORMULA[:] = [printer]


class Step(Record):
    """One matrix of the derivation: its spec, exact entries and high-precision values."""

    spec: StepSpec
    exact: Matrix
    values: Values
    _decimals: dict[tuple[int, int, int], str | None] = field(
        default_factory=dict, compare=False, repr=False
    )
    #: The exact matrix that ``values`` are the evaluation of (set by the engine when
    #: it evaluated these very entries; a step made with other entries has to be
    #: evaluated again by the cross-check).
    evaluated_from: Matrix | None = field(default=None, compare=False, repr=False)
    #: The problem file, named by an error about an entry (set by its Derivation).
    source: str = field(default="", compare=False, repr=False)

    @property
    def values_evaluate_exact(self) -> bool:
        """Are ``values`` the evaluations of exactly these ``exact`` entries?"""
        return self.evaluated_from is self.exact

    # -- the spec, read through -------------------------------------------------------
    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def kind(self) -> Kind:
        return self.spec.kind

    @property
    def formula(self) -> str:
        """The general formula in Unicode, in the row layout, as JSON writes it."""
        return _FORMULA[0](self.spec) if _FORMULA else self.spec.formula

    @property
    def operands(self) -> tuple[str, ...]:
        return self.spec.operands

    row_labels = property(lambda self: self.spec.row_labels)
    col_labels = property(lambda self: self.spec.col_labels)

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.exact), len(self.exact[0])

    def __repr__(self) -> str:
        rows, cols = self.shape
        source = f" of {os.path.basename(self.source) or self.source}" if self.source else ""
        return f"<Step {self.id} ({self.kind.value}, {rows} × {cols}){source}: {self.formula}>"

    # -- entries ----------------------------------------------------------------------
    def exact_str(self, i: int, j: int) -> str:
        """SymPy ``str`` form of entry (i, j), 0-based."""
        refuse_outside(self.id, self.shape, "exact_str", i, j)
        return self._printer(self.exact[i][j])

    def entry(self, i: int, j: int) -> str:
        """SymPy ``str`` form of entry (i, j), 1-based as in every file: row i, column j."""
        refuse_outside(self.id, self.shape, "entry", i, j)
        return self._printer(self.exact[i - 1][j - 1])

    @cached_property
    def _printer(self) -> StrPrinter:
        """One printer for every entry: a softmax row's exponentials and denominator
        are printed once for the whole row, not once per entry (the same strings)."""
        return StrPrinter()

    def decimal_str(self, i: int, j: int, digits: int) -> str | None:
        """Entry (i, j) rounded half away from zero to ``digits`` places, or None."""
        memo = (i, j, digits)
        if memo not in self._decimals:
            refuse_outside(self.id, self.shape, "decimal_str", i, j)
            self._decimals[memo] = self._decimal_str(i, j, digits)
        return self._decimals[memo]

    def _decimal_str(self, i: int, j: int, digits: int) -> str | None:
        try:
            return self._rounded(i, j, digits)
        except DigitsUnavailable as exc:  # name the entry; an exact tie is still rounded
            tie = round_tie(to_sympy(self.exact[i][j]), digits)
            if tie is not None:
                return tie
            place = where(self.source or "the problem", f"step {self.id}", i, j)
            raise SymattnError(f"{place}: at --digits {digits}, {exc.message}") from None

    def _rounded(self, i: int, j: int, digits: int) -> str | None:
        entry = self.exact[i][j]
        terms = entry.terms if type(entry) is Surd else None
        if terms is not None and (not terms or (len(terms) == 1 and terms[0][0] == 1)):
            # a rational, exactly (the common case, first)
            return round_half_away(terms[0][1] if terms else _ZERO, digits)
        if isinstance(entry, NegInf):
            return "-inf"
        exact = rational_value(entry)
        if exact is not None:
            return round_half_away(exact, digits)
        value = self.values[i][j]
        if value is None:
            return None
        numeric = isinstance(entry, (ExpRatio, Combination)) and value.is_finite()
        if numeric or (isinstance(entry, Surd) and entry.is_monomial):
            # the value is right to ~45 digits: enough, unless it sits at a tie
            if not near_tie(value, digits):
                return round_half_away(value, digits)
            if not in_balls(entry):  # a softmax of sin, cos or tanh scores
                return round_exact(to_sympy(entry), digits)
            return round_certified(entry, digits)
        if isinstance(entry, Surd):  # a sum of surds: its sign at the tie is exact
            return round_certified(entry, digits)
        if isinstance(entry, (ExpRatio, Combination)) or not value.is_finite():
            return round_half_away(value, digits)
        # a SymPy number (sin and cos of rotated queries, a gradient): it may be a tie
        return round_exact(to_sympy(entry), digits, value)

    def float_value(self, i: int, j: int) -> float | None:
        refuse_outside(self.id, self.shape, "float_value", i, j)
        entry = self.exact[i][j]
        if type(entry) is Surd and len(entry.terms) == 1 and entry.terms[0][0] == 1:
            q = entry.terms[0][1]
            try:
                return q.numerator / q.denominator
            except OverflowError:
                return None
        if isinstance(entry, NegInf):
            return None
        exact = rational_value(entry)
        value = self.values[i][j]
        try:
            number = float(exact) if exact is not None else None if value is None else float(value)
        except OverflowError:
            return None
        # beyond a double (10^400): no float, as for a value with symbols
        return number if number is None or math.isfinite(number) else None

    def decimal_row(self, i: int, digits: int) -> list[str | None]:
        """``[decimal_str(i, j, digits) for j …]`` without the memo (a whole document's
        rows are written once): rationals rounded directly, the rest as decimal_str."""
        refuse_outside(self.id, self.shape, "decimal_row", i)
        rationals: list[Fraction | None] = []
        for entry in self.exact[i]:
            terms = entry.terms if type(entry) is Surd else None
            if terms is not None and (not terms or (len(terms) == 1 and terms[0][0] == 1)):
                rationals.append(terms[0][1] if terms else _ZERO)
            else:
                rationals.append(None)
        out = round_row(rationals, digits)
        for j, q in enumerate(rationals):
            if q is None:
                out[j] = self._decimal_str(i, j, digits)
        return out

    def float_row(self, i: int) -> list[float | None]:
        """``[float_value(i, j) for j …]``, rationals divided directly."""
        refuse_outside(self.id, self.shape, "float_row", i)
        out: list[float | None] = []
        for j, entry in enumerate(self.exact[i]):
            terms = entry.terms if type(entry) is Surd else None
            if terms is not None and len(terms) == 1 and terms[0][0] == 1:
                q = terms[0][1]
                try:
                    out.append(q.numerator / q.denominator)
                except OverflowError:
                    out.append(None)
            else:
                out.append(self.float_value(i, j))
        return out

    def is_exact_decimal(self, i: int, j: int, digits: int) -> bool:
        """True when the decimal at ``digits`` places equals the exact value."""
        refuse_outside(self.id, self.shape, "is_exact_decimal", i, j)
        exact = rational_value(self.exact[i][j])
        return exact is not None and (exact * 10**digits).denominator == 1

    def sympy_matrix(self) -> Any:
        """The exact matrix as a SymPy ``ImmutableMatrix`` (imports SymPy)."""
        import sympy

        return sympy.ImmutableMatrix([[to_sympy(e) for e in row] for row in self.exact])
