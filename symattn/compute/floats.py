"""Each core kind of step on float64 NumPy arrays, with a bound on how far the result may
be from the decimal evaluation (:mod:`.values`) of the same plan: the screen that lets the
checker evaluate exactly only the mistake models whose numbers can explain a student's.

An :class:`Approx` is a matrix of float64 values and, entry by entry, an upper bound on
its distance to the value the decimal rule computes (from the exact inputs: the
float conversion, every rounding on the way, and what the operands' own bounds carry).
A bound may be ``inf`` (nothing is known: a sum that nearly cancels); a kind without a
float rule here (a topic's kinds) raises :class:`NoFloatRule`, and the caller evaluates
exactly instead.  The mistake-model fields of a spec (``softmax``, ``mask_after``,
``transposed``, ``round_operand``) change what is computed as in :func:`.values.apply`.

>>> import numpy as np
>>> a = Approx.of(np.array([[0.1, 0.2]]))
>>> c = product_of([a, Approx.of(np.array([[3.0], [4.0]]))], False, False)
>>> bool(abs(c.value[0, 0] - 1.1) <= c.error[0, 0])
True
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import NotApplicable
from ..numbers import evaluate
from ..problem import Problem
from ..record import Record
from ..steps import Kind, StepSpec

__all__ = ["Approx", "Array", "NoFloatRule", "U", "apply_float", "approx_of", "product_of"]

Array = npt.NDArray[np.float64]
#: The unit roundoff of float64 (a relative rounding of one operation).
U = float(np.finfo(np.float64).eps)


class NoFloatRule(Exception):
    """A kind of step (or a case of one) that has no float rule: evaluate exactly."""


class Approx(Record):
    """Float64 values and, entry by entry, a bound on their distance to the decimal ones."""

    value: Array
    error: Array

    @staticmethod
    def of(value: Array) -> Approx:
        """A matrix converted from exact numbers or decimals: one rounding per entry."""
        finite = np.isfinite(value)
        return Approx(value, np.where(finite, U * np.abs(np.where(finite, value, 0.0)), 0.0))

    @property
    def T(self) -> Approx:
        return Approx(self.value.T, self.error.T)


def _finite_abs(a: Array) -> Array:
    return np.abs(np.where(np.isfinite(a), a, 0.0))


def _clean(value: Array, error: Array) -> Approx:
    """Non-finite values are exact (−∞ of a mask) or unknown: no bound where undefined."""
    error = np.where(np.isfinite(value), error, 0.0)
    return Approx(value, np.where(np.isnan(error), np.inf, error))


def product_of(args: Sequence[Approx], transpose_left: bool, transpose_right: bool) -> Approx:
    """Σ over pairs of operands of their products (one pair: a plain product)."""
    value: Array | None = None
    error: Array | None = None
    for left, right in zip(args[::2], args[1::2]):
        a = left.T if transpose_left else left
        b = right.T if transpose_right else right
        if not (np.isfinite(a.value).all() and np.isfinite(b.value).all()):
            raise NoFloatRule("a product of infinities")
        if a.value.shape[1] != b.value.shape[0]:
            raise NotApplicable("shapes do not fit")
        abs_a, abs_b = np.abs(a.value), np.abs(b.value)
        term = a.value @ b.value
        bound = abs_a @ b.error + a.error @ (abs_b + b.error)
        bound += (a.value.shape[1] + 2) * U * (abs_a @ abs_b)
        if value is None or error is None:
            value, error = term, bound
        else:
            value = value + term
            error = error + bound + U * np.abs(value)
    assert value is not None and error is not None
    return _clean(value, error)


def _normalise(scores: Approx, use_exp: bool) -> Approx:
    """Each row normalised over its finite entries (masked: 0), as ``softmax_rows``."""
    s, e = scores.value, scores.error
    finite = np.isfinite(s)
    if not finite.any(axis=1).all():
        raise NoFloatRule("a row with every key masked")
    kept = np.where(finite, s, 0.0)
    count = finite.sum(axis=1, keepdims=True)
    if use_exp:
        top = np.max(np.where(finite, s, -np.inf), axis=1, keepdims=True)
        shifted = np.where(finite, kept - top, 0.0)
        terms = np.where(finite, np.exp(shifted), 0.0)
        weights = terms / terms.sum(axis=1, keepdims=True)
        # every exponent may be off by E: each weight by a factor within exp(±2E)
        spread = np.max(np.where(finite, e + U * np.abs(shifted), 0.0), axis=1, keepdims=True)
        error = weights * (1 + 1e-9) * (np.expm1(2 * spread) + (count + 8) * U)
        return _clean(weights, error)
    total = kept.sum(axis=1, keepdims=True)
    moved = np.where(finite, e, 0.0).sum(axis=1, keepdims=True)
    moved += (count + 2) * U * np.abs(kept).sum(axis=1, keepdims=True)
    margin = np.abs(total) - moved
    safe = margin > 0
    weights = kept / np.where(total == 0, 1.0, total)
    error = np.where(
        safe,
        (np.where(finite, e, 0.0) + np.abs(weights) * moved) / np.where(safe, margin, 1.0)
        + 4 * U * np.abs(weights),
        np.inf,
    )
    return _clean(weights, np.where(finite, error, 0.0))


def softmax_float(spec: StepSpec, scores: Approx, problem: Problem) -> Approx:
    """The weights as ``spec`` says (see :func:`.values.softmax`)."""
    if spec.softmax == "none":
        finite = np.isfinite(scores.value)
        out = Approx(np.where(finite, scores.value, 0.0), np.where(finite, scores.error, 0.0))
    elif spec.softmax == "columns":
        out = _normalise(scores.T, use_exp=True).T
    elif spec.softmax == "global":
        shape = scores.value.shape
        flat = _normalise(
            Approx(scores.value.reshape(1, -1), scores.error.reshape(1, -1)), use_exp=True
        )
        out = Approx(flat.value.reshape(shape), flat.error.reshape(shape))
    else:
        out = _normalise(scores, use_exp=spec.softmax != "no_exp")
    if spec.mask_after and problem.mask is not None:
        keep = np.array(problem.mask, dtype=bool)
        out = Approx(np.where(keep, out.value, 0.0), np.where(keep, out.error, 0.0))
    return out


def jacobian_float(a: Approx, g: Approx, diagonal_only: bool) -> Approx:
    """Row i: a_ij (g_ij − Σ_k a_ik g_ik), or a_ij (1 − a_ij) g_ij."""
    if not (np.isfinite(a.value).all() and np.isfinite(g.value).all()):
        raise NoFloatRule("a Jacobian of infinities")
    abs_a, abs_g = np.abs(a.value), np.abs(g.value)
    if diagonal_only:
        one_minus = 1 - a.value
        value = a.value * one_minus * g.value
        factor = abs_a * np.abs(one_minus)
        error = factor * g.error + a.error * (1 + 2 * abs_a + a.error) * (abs_g + g.error)
        return _clean(value, error + 4 * U * factor * abs_g)
    inner = (a.value * g.value).sum(axis=1, keepdims=True)
    inner_error = (abs_a * g.error + a.error * (abs_g + g.error)).sum(axis=1, keepdims=True)
    inner_error += (a.value.shape[1] + 2) * U * (abs_a * abs_g).sum(axis=1, keepdims=True)
    diff = g.value - inner
    value = a.value * diff
    moved = g.error + inner_error
    error = abs_a * moved + a.error * (np.abs(diff) + moved)
    return _clean(value, error + 4 * U * abs_a * (abs_g + np.abs(inner)))


def _rounded(x: Approx, places: int) -> Approx:
    """Rounded half away from zero to ``places`` (``round_to``); where the decimal value
    may lie on the other side of a half, the bound is one unit of that place."""
    scale = 10.0**places
    scaled = np.abs(x.value) * scale
    near = np.floor(scaled) + 0.5
    value = np.sign(x.value) * np.floor(scaled + 0.5) / scale
    doubt = np.abs(scaled - near) <= (x.error + 4 * U * np.abs(x.value)) * scale * (1 + 1e-9)
    error = np.where(doubt, 1.0 / scale, 0.0) + 2 * U * np.abs(value)
    finite = np.isfinite(x.value)
    return _clean(np.where(finite, value, x.value), error)


def _float_divisor(divisor: Any) -> float:
    return float(evaluate(divisor, 20))


def apply_float(
    spec: StepSpec, operands: Sequence[Approx], problem: Problem, given: Approx | None = None
) -> Approx:
    """One step from its operands (``given``: its source matrix), as :func:`.values.apply`."""
    args = list(operands)
    if spec.round_operand is not None and args:
        args[0] = _rounded(args[0], spec.round_operand)
    kind = spec.kind
    if kind in (Kind.PRODUCT, Kind.WEIGHTED_SUM, Kind.SUM_OF_PRODUCTS):
        out = product_of(args, spec.transpose_left, spec.transpose_right)
    elif kind == Kind.SCALE:
        c = _float_divisor(spec.divisor)
        value = args[0].value / c
        out = _clean(value, args[0].error / abs(c) + 2 * U * _finite_abs(value))
    elif kind == Kind.MASK:
        assert problem.mask is not None
        keep = np.array(problem.mask, dtype=bool)
        out = Approx(np.where(keep, args[0].value, -np.inf), np.where(keep, args[0].error, 0.0))
    elif kind == Kind.SOFTMAX:
        out = softmax_float(spec, args[0], problem)
    elif kind == Kind.CONCAT:
        out = Approx(np.hstack([a.value for a in args]), np.hstack([a.error for a in args]))
    elif kind == Kind.COPY:
        out = args[0]
    elif kind in (Kind.ADD, Kind.DIFFERENCE):
        other = args[1] if kind == Kind.ADD else given
        assert other is not None
        sign = 1.0 if kind == Kind.ADD else -1.0
        if kind == Kind.DIFFERENCE and not np.isfinite(other.value).all():
            raise NoFloatRule("a difference with infinities")
        value = args[0].value + sign * other.value
        out = _clean(value, args[0].error + other.error + U * _finite_abs(value))
    elif kind == Kind.COLUMNS:
        assert spec.columns is not None
        start, stop = spec.columns
        out = Approx(args[0].value[:, start:stop], args[0].error[:, start:stop])
    elif kind == Kind.JACOBIAN:
        out = jacobian_float(args[0], args[1], spec.diagonal_only)
    elif kind in (Kind.TOKENS, Kind.LOOKUP, Kind.GIVEN) and given is not None:
        out = given
    else:
        raise NoFloatRule(f"no float rule for {kind.value}")
    if spec.transposed:
        if out.value.shape[0] != out.value.shape[1]:
            raise NotApplicable("a transposed matrix needs n = m")
        out = out.T
    return out


def approx_of(matrix: Sequence[Sequence[Decimal]]) -> Approx:
    """A matrix of decimals as float64, each entry within one rounding."""
    return Approx.of(np.array([[float(x) for x in row] for row in matrix], dtype=np.float64))
