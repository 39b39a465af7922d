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
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from functools import cached_property
from typing import Any

from .errors import SymattnError
from .ids import split_id
from .numbers import (
    Combination,
    ExpRatio,
    NegInf,
    Surd,
    SympyEvaluator,
    in_balls,
    near_tie,
    rational_value,
    round_certified,
    round_half_away,
    round_row,
    to_sympy,
)
from .printing import StrPrinter
from .problem import Matrix, Problem

__all__ = ["Kind", "Source", "Step", "StepSpec", "Values"]

_ZERO = Fraction(0)

Values = tuple[tuple[Decimal | None, ...], ...]
"""High-precision values of a step's entries (None where symbols leave no number)."""


class Kind(Enum):
    """How a step is made from its operands."""

    TOKENS = "tokens"  # text → tokens → ids
    LOOKUP = "lookup"  # rows of the embedding table, by id
    GIVEN = "given"  # a matrix the problem gives (or a head's block of it)
    PRODUCT = "product"  # operands[0] · operands[1], either transposed
    SUM_OF_PRODUCTS = "product_sum"  # Σ over pairs of operands of their products
    SCALE = "scale"  # operand / divisor
    MASK = "mask"  # −∞ where the mask forbids
    SOFTMAX = "softmax"  # row-wise softmax
    WEIGHTED_SUM = "weighted_sum"  # b_i = Σ_j a_ij v_j
    CONCAT = "concat"  # the heads' outputs side by side
    COPY = "copy"  # the operand itself (the output of heads without W_O)
    DIFFERENCE = "difference"  # operands[0] − a given matrix (dO = O − T)
    COLUMNS = "columns"  # a block of the operand's columns (a head's dO)
    JACOBIAN = "jacobian"  # row i: (diag(a_i) − a_i a_iᵀ) g_i
    ADD = "add"  # operands[0] + operands[1], entry by entry (X + P, a residual; −∞ stays −∞)
    POSITIONS = "positions"  # the sinusoidal table P (sin at even, cos at odd columns)
    ROTATE = "rotate"  # RoPE: pairs (2i, 2i+1) of row pos turned by pos·base^(−2i/d)
    ADDITIVE_HIDDEN = "additive_hidden"  # h_ij = q_i W_a + k_j U_a, row (i, j)
    TANH_SCORE = "tanh_score"  # s_ij = tanh(h_ij) · v_a
    ROWS = "rows"  # a block of the operand's rows (a K/V cache)
    DECODE = "decode"  # the last query over the cached keys and its own: one output row
    LAYERNORM = "layernorm"  # γ (x − μ) / √(σ² + ε) + β over each row (of the operands' sum)
    AFFINE = "affine"  # operands[0] · operands[1] + operands[2] (a bias row), then activation


@dataclass(frozen=True)
class Source:
    """A matrix the problem gives: a field of :class:`~symattn.problem.Problem`, or the
    block of its columns ``start … stop − 1`` that one head takes."""

    field: str
    columns: tuple[int, int] | None = None
    transposed: bool = False  # the column layout: the matrix as the problem file wrote it

    def take(self, problem: Problem) -> Matrix:
        matrix: Matrix | None = getattr(problem, self.field)
        if matrix is None:
            raise SymattnError(f"{problem.source}: {self.field} is not given")
        if self.columns is not None:
            start, stop = self.columns
            matrix = tuple(tuple(row[start:stop]) for row in matrix)
        return tuple(zip(*matrix)) if self.transposed else matrix


@dataclass(frozen=True, kw_only=True)
class StepSpec:
    """One step of the plan: what it is, what it is made from, how it is written."""

    id: str
    kind: Kind
    formula: str  # the general formula in Unicode, as in JSON: "Q = X W_Q"
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
    layout: str = "row"  # "column": MASK, SOFTMAX, WEIGHTED_SUM work down the columns
    angle_base: Any = None  # POSITIONS, ROTATE: the base of the angles (10000)
    pe_swapped: bool = False  # POSITIONS: cos at even columns, sin at odd ones
    rope_pairs: str = "interleaved"  # ROTATE: pairs (2i, 2i+1); "half": (i, i + d/2)
    add_after: bool = False  # PRODUCT: operands[2] added to the product (P after W_Q)
    rows: tuple[int, int] | None = None  # ROWS: the block
    activation: str = ""  # AFFINE: "relu", or none
    unbiased: bool = False  # LAYERNORM: the variance over d − 1 (a mistake model)

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


@dataclass(frozen=True)
class Step:
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
        return self.spec.formula

    @property
    def operands(self) -> tuple[str, ...]:
        return self.spec.operands

    @property
    def row_labels(self) -> tuple[str, ...] | None:
        return self.spec.row_labels

    @property
    def col_labels(self) -> tuple[str, ...] | None:
        return self.spec.col_labels

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.exact), len(self.exact[0])

    # -- entries ----------------------------------------------------------------------
    def exact_str(self, i: int, j: int) -> str:
        """SymPy ``str`` form of entry (i, j), 0-based."""
        return self._printer(self.exact[i][j])

    @cached_property
    def _printer(self) -> StrPrinter:
        """One printer for every entry: a softmax row's exponentials and denominator
        are printed once for the whole row, not once per entry (the same strings)."""
        return StrPrinter()

    def decimal_str(self, i: int, j: int, digits: int) -> str | None:
        """Entry (i, j) rounded half away from zero to ``digits`` places, or None."""
        memo = (i, j, digits)
        if memo not in self._decimals:
            self._decimals[memo] = self._decimal_str(i, j, digits)
        return self._decimals[memo]

    def _decimal_str(self, i: int, j: int, digits: int) -> str | None:
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
                return round_half_away(SympyEvaluator(digits + 30)(to_sympy(entry)), digits)
            return round_certified(entry, digits)
        if isinstance(entry, Surd):  # a sum of surds: its sign at the tie is exact
            return round_certified(entry, digits)
        return round_half_away(value, digits)

    def float_value(self, i: int, j: int) -> float | None:
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
        exact = rational_value(self.exact[i][j])
        return exact is not None and (exact * 10**digits).denominator == 1

    def sympy_matrix(self) -> Any:
        """The exact matrix as a SymPy ``ImmutableMatrix`` (imports SymPy)."""
        import sympy

        return sympy.ImmutableMatrix([[to_sympy(e) for e in row] for row in self.exact])
