"""Steps and derivations: data that renderers read, never text.

A :class:`Step` holds one matrix of the computation (SPEC §3 order): its id, its
general formula, the exact entries and their high-precision values.  The formula
of one entry, written out (which terms are summed, what is divided by what), is a
small structure built on demand by :meth:`Derivation.entry`.
"""

from __future__ import annotations

import decimal
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Union

from .errors import SymattnError
from .exact import (
    NEG_INF,
    Combination,
    ExpRatio,
    NegInf,
    Surd,
    decimal_context,
    rational_value,
    round_half_away,
)

if TYPE_CHECKING:
    from .crosscheck import Crosscheck
    from .spec import Matrix, Problem

__all__ = [
    "STEP_TITLES",
    "Derivation",
    "DotEntry",
    "EntryFormula",
    "GivenEntry",
    "JacobianEntry",
    "LookupEntry",
    "MaskEntry",
    "Product",
    "Ref",
    "ScaleEntry",
    "SoftmaxEntry",
    "Step",
    "split_id",
]

STEP_TITLES = {
    "tokens": "Tokens and ids",
    "X": "Embedding rows",
    "Q": "Queries",
    "K": "Keys",
    "V": "Values",
    "scores": "Attention scores",
    "scaled_scores": "Scaled scores",
    "masked_scores": "Masked scores",
    "weights": "Attention weights",
    "output": "Output",
    "concat": "Concatenated heads",
    "dO": "Upstream gradient",
    "dV": "Gradient of the values",
    "dweights": "Gradient of the weights",
    "dscaled_scores": "Through the softmax",
    "dscores": "Gradient of the scores",
    "dQ": "Gradient of the queries",
    "dK": "Gradient of the keys",
    "dW_Q": "Gradient of W_Q",
    "dW_K": "Gradient of W_K",
    "dW_V": "Gradient of W_V",
    "dX": "Gradient of the embeddings",
    "dW_O": "Gradient of W_O",
    "dconcat": "Gradient of the concatenated heads",
}


def split_id(step_id: str) -> tuple[int | None, str]:
    """``"h2.scores"`` → ``(2, "scores")``; ``"scores"`` → ``(None, "scores")``."""
    if step_id.startswith("h") and "." in step_id:
        head, base = step_id.split(".", 1)
        if head[1:].isdigit():
            return int(head[1:]), base
    return None, step_id


Values = tuple[tuple[Decimal | None, ...], ...]


@dataclass(frozen=True)
class Ref:
    """One entry of a named matrix; ``row`` and ``col`` are 0-based."""

    matrix: str
    row: int
    col: int


@dataclass(frozen=True)
class Product:
    """One term ``left · right`` of a dot product."""

    left: Ref
    right: Ref
    left_value: Any
    right_value: Any


@dataclass(frozen=True)
class DotEntry:
    """``target = Σ_k left_k · right_k``, every term kept, zeros included."""

    target: Ref
    terms: tuple[Product, ...]
    value: Any


@dataclass(frozen=True)
class ScaleEntry:
    """``target = source / divisor``."""

    target: Ref
    source: Ref
    source_value: Any
    divisor: Any
    divisor_label: str
    value: Any


@dataclass(frozen=True)
class MaskEntry:
    """``target = source`` where the mask allows it, else −∞."""

    target: Ref
    source: Ref
    source_value: Any
    allowed: bool
    value: Any


@dataclass(frozen=True)
class SoftmaxEntry:
    """``target = exp(numerator) / Σ exp(row)`` over the unmasked entries of the row."""

    target: Ref
    numerator: Ref | None  # None when the entry is masked (weight exactly 0)
    row: tuple[tuple[Ref, Any], ...]
    value: Any
    exps: tuple[Decimal, ...] | None = None  # e^x of each unmasked score (numeric problems)
    total: Decimal | None = None  # their sum


@dataclass(frozen=True)
class JacobianEntry:
    """``target = a_j (g_j − Σ_k a_k g_k)``: row i of the softmax Jacobian applied to g.

    ``weights`` and ``upstream`` are the row's entries (a_k and g_k = dL/da_k); the Jacobian
    of the softmax is diag(a) − a aᵀ.
    """

    target: Ref
    weights: tuple[tuple[Ref, Any], ...]
    upstream: tuple[tuple[Ref, Any], ...]
    column: int
    value: Any


@dataclass(frozen=True)
class LookupEntry:
    """``target`` copied from row ``token_id`` of the embedding."""

    target: Ref
    token: str
    token_id: int
    value: Any


@dataclass(frozen=True)
class GivenEntry:
    """An entry given in the problem file."""

    target: Ref
    value: Any


EntryFormula = Union[
    DotEntry, ScaleEntry, MaskEntry, SoftmaxEntry, JacobianEntry, LookupEntry, GivenEntry
]


@dataclass(frozen=True)
class Step:
    """One matrix of the derivation.

    ``kind`` says how it was made: ``lookup``, ``given``, ``product`` (of
    ``operands[0]`` and ``operands[1]``, transposed when ``transpose_right``),
    ``scale``, ``mask`` or ``softmax``.
    """

    id: str
    symbol: str
    formula: str
    kind: str
    exact: Matrix
    values: Values
    operands: tuple[str, ...] = ()
    transpose_right: bool = False
    row_labels: tuple[str, ...] | None = None
    col_labels: tuple[str, ...] | None = None
    _decimals: dict[tuple[int, int, int], str | None] = field(
        default_factory=dict, compare=False, repr=False
    )
    transpose_left: bool = False

    @property
    def title(self) -> str:
        head, base = split_id(self.id)
        title = STEP_TITLES.get(base, base)
        if base == "output" and self.kind == "product" and self.operands[0] == "concat":
            title = "Output projection"
        return f"Head {head}: {title}" if head is not None else title

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.exact), len(self.exact[0])

    def exact_str(self, i: int, j: int) -> str:
        """SymPy ``str`` form of entry (i, j), 0-based."""
        return str(self.exact[i][j])

    def decimal_str(self, i: int, j: int, digits: int) -> str | None:
        """Entry (i, j) rounded half away from zero to ``digits`` places, or None."""
        memo = (i, j, digits)
        if memo not in self._decimals:
            self._decimals[memo] = self._decimal_str(i, j, digits)
        return self._decimals[memo]

    def _decimal_str(self, i: int, j: int, digits: int) -> str | None:
        entry = self.exact[i][j]
        if isinstance(entry, NegInf):
            return "-inf"
        exact = rational_value(entry)
        if exact is not None:
            return round_half_away(exact, digits)
        value = self.values[i][j]
        return None if value is None else round_half_away(value, digits)

    def float_value(self, i: int, j: int) -> float | None:
        entry = self.exact[i][j]
        if isinstance(entry, NegInf):
            return None
        exact = rational_value(entry)
        if exact is not None:
            return float(exact)
        value = self.values[i][j]
        return None if value is None else float(value)

    def is_exact_decimal(self, i: int, j: int, digits: int) -> bool:
        """True when the decimal at ``digits`` places equals the exact value."""
        exact = rational_value(self.exact[i][j])
        return exact is not None and (exact * 10**digits).denominator == 1

    def sympy_matrix(self) -> Any:
        """The exact matrix as a SymPy ``ImmutableMatrix`` (imports SymPy)."""
        import sympy

        def conv(entry: Any) -> Any:
            if isinstance(entry, (Surd, ExpRatio, Combination)):
                return entry.to_sympy()
            if isinstance(entry, NegInf):
                return -sympy.oo
            return sympy.sympify(entry)

        return sympy.ImmutableMatrix([[conv(e) for e in row] for row in self.exact])


@dataclass
class Derivation:
    """The whole derivation of one problem: its steps, in SPEC §3 order."""

    problem: Problem
    steps: tuple[Step, ...]
    matrices: dict[str, Matrix]
    precision: int
    crosscheck: Crosscheck | None = None
    _by_id: dict[str, Step] = field(default_factory=dict, repr=False)
    #: Work that only depends on this derivation, kept for its next use (the checker
    #: evaluates the same mistake models for every student of a class).
    cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_id = {s.id: s for s in self.steps}

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def step(self, step_id: str) -> Step:
        try:
            return self._by_id[step_id]
        except KeyError:
            known = ", ".join(self._by_id)
            raise SymattnError(f"no step {step_id!r} in this derivation; steps: {known}") from None

    def render(self, fmt: str = "text", **options: Any) -> str:
        """This derivation in one format; see :func:`symattn.render.render`."""
        from .render import render

        return render(self, fmt, **options)

    def _repr_markdown_(self) -> str:
        """Jupyter shows a derivation as Markdown with math."""
        return self.render("markdown")

    def _repr_latex_(self) -> str:
        """Front ends that prefer LaTeX get the displayed formulas, one per block."""
        from .render.markdown import render_math

        return render_math(self)

    @property
    def step_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.steps)

    def _exponentials(self, src: str, i: int) -> tuple[tuple[Decimal, ...] | None, Decimal | None]:
        """e^x of each unmasked score of row i, and their sum (None when symbolic)."""
        values = [v for v in self.step(src).values[i] if v is None or v.is_finite()]
        if any(v is None for v in values):
            return None, None
        with decimal.localcontext(decimal_context(self.precision)):
            exps = tuple(v.exp() for v in values if v is not None)
            return exps, sum(exps, Decimal(0))

    def entry(self, step_id: str, i: int, j: int) -> EntryFormula:
        """The written-out formula of entry (i, j) (0-based) of a step."""
        step = self.step(step_id)
        rows, cols = step.shape
        if not (0 <= i < rows and 0 <= j < cols):
            raise SymattnError(f"{step_id} has shape {rows} × {cols}; no entry ({i + 1}, {j + 1})")
        target = Ref(step.id, i, j)
        value = step.exact[i][j]
        if step.kind in ("product", "product_sum"):
            terms = []
            pairs = zip(step.operands[::2], step.operands[1::2])
            for left_name, right_name in pairs:  # one pair, or several for a sum of products
                left, right = self.matrices[left_name], self.matrices[right_name]
                width = len(left) if step.transpose_left else len(left[0])
                for k in range(width):
                    l_ref = Ref(left_name, k, i) if step.transpose_left else Ref(left_name, i, k)
                    r_ref = Ref(right_name, j, k) if step.transpose_right else Ref(right_name, k, j)
                    terms.append(
                        Product(
                            l_ref, r_ref, left[l_ref.row][l_ref.col], right[r_ref.row][r_ref.col]
                        )
                    )
            return DotEntry(target, tuple(terms), value)
        if step.kind == "jacobian":
            weights_id, upstream_id = step.operands
            a_row = self.matrices[weights_id][i]
            g_row = self.matrices[upstream_id][i]
            return JacobianEntry(
                target,
                tuple((Ref(weights_id, i, k), a) for k, a in enumerate(a_row)),
                tuple((Ref(upstream_id, i, k), g) for k, g in enumerate(g_row)),
                j,
                value,
            )
        if step.kind == "scale":
            (src,) = step.operands
            return ScaleEntry(
                target,
                Ref(src, i, j),
                self.matrices[src][i][j],
                self.problem.scale,
                "sqrt(d_k)" if self.problem.scale_label == "sqrt(d_k)" else "c",
                value,
            )
        if step.kind == "mask":
            (src,) = step.operands
            allowed = not isinstance(value, NegInf)
            return MaskEntry(target, Ref(src, i, j), self.matrices[src][i][j], allowed, value)
        if step.kind == "softmax":
            (src,) = step.operands
            source = self.matrices[src][i]
            row = tuple((Ref(src, i, k), x) for k, x in enumerate(source) if x is not NEG_INF)
            numerator = None if source[j] is NEG_INF else Ref(src, i, j)
            exps, total = self._exponentials(src, i)
            return SoftmaxEntry(target, numerator, row, value, exps, total)
        if step.kind == "lookup":
            lookup = self.problem.lookup
            assert lookup is not None
            return LookupEntry(target, lookup.tokens[i], lookup.ids[i], value)
        return GivenEntry(target, value)
