"""The spreadsheet formulas of the kinds of attention itself (``--format xlsx``), and
exact numbers as spreadsheet expressions; a topic's kinds bring their own rules."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..errors import SymattnError
from ..numbers import Surd, to_sympy
from ..steps import Kind, StepSpec
from ..topics.cells import CellRefs, CellRule

__all__ = ["CELL_RULES", "MINUS_INFINITY", "constant"]

#: How a masked score (−∞) is shown: text, which the softmax's ISNUMBER reads as masked.
MINUS_INFINITY = "−∞"


def constant(value: Any) -> str:
    """An exact number as one spreadsheet operand: ``(3/2)``, ``SQRT(2)``, ``EXP(1)``."""
    if isinstance(value, (int, Fraction)):
        return _fraction(Fraction(value))
    if isinstance(value, Surd):  # Σ c·√r, one operand (bracketed unless it is an atom)
        terms = [
            _fraction(c) if r == 1 else (f"SQRT({r})" if c == 1 else f"{_fraction(c)}*SQRT({r})")
            for r, c in value.terms
        ]
        if not terms:
            return "0"
        atom = len(terms) == 1 and "*" not in terms[0]
        return terms[0] if atom else "(" + "+".join(terms) + ")"
    return _sympy(to_sympy(value))


def _fraction(q: Fraction) -> str:
    text = str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"
    return f"({text})" if q < 0 or q.denominator != 1 else text


_FUNCTIONS = {"exp": "EXP", "sin": "SIN", "cos": "COS", "tanh": "TANH", "log": "LN"}


def _sympy(e: Any) -> str:
    """A SymPy number (sums, products, powers, roots, exp, sin, cos, tanh) as a formula."""
    import sympy

    if e.is_Rational:
        return _fraction(Fraction(int(e.p), int(e.q)))
    if e is sympy.pi:
        return "PI()"
    if e is sympy.E:
        return "EXP(1)"
    if e.is_Add:
        return "(" + "+".join(_sympy(a) for a in e.args) + ")"
    if e.is_Mul:
        return "(" + "*".join(_sympy(a) for a in e.args) + ")"
    if e.is_Pow:
        base, power = e.args
        if power == sympy.Rational(1, 2):
            return f"SQRT({_sympy(base)})"
        return f"POWER({_sympy(base)},{_sympy(power)})"
    name = getattr(e.func, "__name__", "")
    if name in _FUNCTIONS and len(e.args) == 1:
        return f"{_FUNCTIONS[name]}({_sympy(e.args[0])})"
    raise SymattnError(f"xlsx: cannot write {e} as a spreadsheet formula")


def _product(spec: StepSpec, refs: CellRefs, i: int, j: int) -> str | None:
    """c_ij = Σ_k a_ik b_kj, either operand transposed: the sum written out."""
    return _sum_of_products(spec, refs, i, j, (0, 1))


def _sum_of_products(spec: StepSpec, refs: CellRefs, i: int, j: int, pairs: tuple[int, ...]) -> str:
    terms = []
    for a, b in zip(pairs[::2], pairs[1::2]):
        inner = refs.height(a) if spec.transpose_left else refs.width(a)
        for k in range(inner):
            left = refs.cell(a, k, i) if spec.transpose_left else refs.cell(a, i, k)
            right = refs.cell(b, j, k) if spec.transpose_right else refs.cell(b, k, j)
            terms.append(f"{left}*{right}")
    return "+".join(terms)


def _products(spec: StepSpec, refs: CellRefs, i: int, j: int) -> str | None:
    return _sum_of_products(spec, refs, i, j, tuple(range(len(spec.operands))))


def _scale(spec: StepSpec, refs: CellRefs, i: int, j: int) -> str | None:
    return f"{refs.cell(0, i, j)}/{constant(spec.divisor)}"


def _weighted_sum(spec: StepSpec, refs: CellRefs, i: int, j: int) -> str | None:
    return "+".join(f"{refs.cell(0, i, k)}*{refs.cell(1, k, j)}" for k in range(refs.width(0)))


def _add(spec: StepSpec, refs: CellRefs, i: int, j: int) -> str | None:
    a, b = refs.cell(0, i, j), refs.cell(1, i, j)
    return f'IF(AND(ISNUMBER({a}),ISNUMBER({b})),{a}+{b},"{MINUS_INFINITY}")'


def _difference(spec: StepSpec, refs: CellRefs, i: int, j: int) -> str | None:
    return f"{refs.cell(0, i, j)}-{refs.cell(1, i, j)}"


def _copy(spec: StepSpec, refs: CellRefs, i: int, j: int) -> str | None:
    return refs.cell(0, i, j)


def _columns(spec: StepSpec, refs: CellRefs, i: int, j: int) -> str | None:
    assert spec.columns is not None
    return refs.cell(0, i, spec.columns[0] + j)


def _concat(spec: StepSpec, refs: CellRefs, i: int, j: int) -> str | None:
    for k in range(len(spec.operands)):
        if j < refs.width(k):
            return refs.cell(k, i, j)
        j -= refs.width(k)
    raise AssertionError("a column past the heads")


def _jacobian(spec: StepSpec, refs: CellRefs, i: int, j: int) -> str | None:
    """(diag(a_i) − a_i a_iᵀ) g_i, entry j: a_ij (g_ij − Σ_k a_ik g_ik)."""
    a, g = refs.cell(0, i, j), refs.cell(1, i, j)
    return f"{a}*({g}-SUMPRODUCT({refs.row(0, i)},{refs.row(1, i)}))"


#: The cell rules of the kinds of attention itself (a topic gives its own in its
#: KindRules); the softmax and the mask are written by :func:`_write_softmax` and
#: :func:`_write_step` (a masked entry is text).
CELL_RULES: dict[Kind, CellRule] = {
    Kind.PRODUCT: _product,
    Kind.SUM_OF_PRODUCTS: _products,
    Kind.SCALE: _scale,
    Kind.WEIGHTED_SUM: _weighted_sum,
    Kind.ADD: _add,
    Kind.DIFFERENCE: _difference,
    Kind.COPY: _copy,
    Kind.MASK: _copy,
    Kind.COLUMNS: _columns,
    Kind.CONCAT: _concat,
    Kind.JACOBIAN: _jacobian,
}
