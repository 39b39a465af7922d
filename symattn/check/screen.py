"""The float64 screen of the mistake models: which ones cannot explain a student's numbers.

Diagnosis evaluates every mistake model (and every pair of them) on the student's own
earlier answers; in 24-digit decimals that is a matrix product and a softmax each.  The
screen computes the same plan on float64 NumPy arrays, whole matrices at once, with a
bound on each entry's distance to the decimal value (:mod:`symattn.compute.floats`) and
an upper bound on the carried rounding (:func:`.slack.radii`, the same rules on floats).
A model is set aside only when some answered entry is farther from its float value than
the tolerance, the carried rounding and that bound together allow: the decimal check
would say the same, so the verdicts do not change.  Every other model is evaluated
exactly, as before; so is a plan with a kind of step the floats do not cover.
"""

from __future__ import annotations

import decimal
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal

import numpy as np

from ..compute.floats import Approx, Array, NoFloatRule, U, apply_float, approx_of
from ..compute.variants import DecimalMatrix
from ..derivation import Derivation
from ..numbers import decimal_context, evaluate
from ..numbers.decimals import dec_matrix
from ..problem import Matrix, Problem
from ..steps import Kind, Plan, Source, StepSpec
from .answers import Answers
from .compare import key_values, tolerance_of
from .slack import EVALUATION_ERROR

__all__ = ["FLOOR", "Screen", "within"]


#: A relative widening of every float bound, far above float64's rounding.
WIDEN = 1 + 1e-9
#: Every comparison is widened by this much, relative to the numbers compared.
FLOOR = 1e-12


class Screen:
    """The float64 values (and their bounds) of every step one student's diagnosis meets,
    each computed once: a step is named by its spec, its problem and what its operands
    are named by."""

    def __init__(self, key: Derivation, answers: Answers) -> None:
        self.key, self.answers = key, answers
        self._names: dict[object, int] = {}
        self._values: dict[int, Approx] = {}
        self._radii: dict[int, Array] = {}
        self._held: list[object] = []  # what an id() names stays alive while it is named
        self._answered: dict[str, tuple[Array, Array, Array]] = {}

    def _name(self, sig: object) -> int:
        found = self._names.get(sig)
        if found is None:
            found = self._names[sig] = len(self._names)
        return found

    def _float(self, sig: object, hold: object, make: Callable[[], Approx]) -> int:
        """The name of a matrix the screen converts once (a student's step, a given one);
        ``hold`` is kept alive while its id() is part of a name."""
        name = self._name(sig)
        if name not in self._values:
            self._held.append(hold)
            self._values[name] = make()
        return name

    def _given(self, problem: Problem, source: Source) -> int:
        """A matrix the problem gives, as floats."""
        return self._float(
            ("given", id(problem), source),
            problem,
            lambda: approx_of(_decimals(source.take(problem))),
        )

    # -- the screen ----------------------------------------------------------------------
    def may_fit(
        self,
        problem: Problem,
        upto: Plan,
        step_id: str,
        extra: Mapping[str, DecimalMatrix],
        from_key: Sequence[str],
        rounding: Mapping[str, DecimalMatrix],
    ) -> bool:
        """False when the values of ``step_id`` under ``upto`` (the student's ``extra``
        in place, the steps ``from_key`` the key's) cannot fit the student's entries."""
        if step_id not in self.answers.steps:
            return True
        found = self.reach(problem, upto, step_id, extra, rounding, from_key)
        return found is None or self._fits(step_id, *found)

    def reach(
        self,
        problem: Problem,
        upto: Plan,
        step_id: str,
        extra: Mapping[str, DecimalMatrix],
        rounding: Mapping[str, DecimalMatrix],
        from_key: Sequence[str] = (),
    ) -> tuple[Array, Array] | None:
        """The float values of ``step_id`` and, entry by entry, how far from them the
        decimal values may lie, carried rounding included (None: not known on floats)."""
        if problem.symbolic:
            return None
        try:
            with np.errstate(all="ignore"):
                approx, radius = self._evaluate(
                    problem, upto, step_id, extra, set(from_key), rounding
                )
                value = approx.value
                size = np.abs(np.where(np.isfinite(value), value, 0.0))
                reach = EVALUATION_ERROR_F * np.maximum(1.0, size) + approx.error * WIDEN
                if radius is not None:
                    reach = reach + radius * WIDEN
                return value, reach + FLOOR * (1 + size)
        except Exception:  # NoFloatRule, NotApplicable, …: the decimal evaluation decides
            return None

    def _evaluate(
        self,
        problem: Problem,
        upto: Plan,
        step_id: str,
        extra: Mapping[str, DecimalMatrix],
        from_key: set[str],
        rounding: Mapping[str, DecimalMatrix],
    ) -> tuple[Approx, Array | None]:
        names: dict[str, int] = {}
        rounded: set[int] = set()
        origin = dict(upto.inputs)
        for spec in upto.specs:
            if spec.id in extra:
                matrix = extra[spec.id]
                name = self._float(("student", id(matrix)), matrix, _converter(matrix))
                if name not in self._radii:
                    self._radii[name] = _array(rounding[spec.id])
                rounded.add(name)
            elif spec.id in from_key:
                name = self._float(("key", spec.id), None, self._key_of(spec.id))
            else:
                name = self._step(problem, spec, names, origin, rounded)
            names[spec.id] = name
            if spec.id == step_id:
                break
        name = names[step_id]
        return self._values[name], self._radii.get(name) if name in rounded else None

    def _key_of(self, step_id: str) -> Callable[[], Approx]:
        return lambda: approx_of(key_values(self.key, step_id))

    def _step(
        self,
        problem: Problem,
        spec: StepSpec,
        names: dict[str, int],
        origin: Mapping[str, Source],
        rounded: set[int],
    ) -> int:
        operands = []
        for o in spec.operands:
            if o in names:
                operands.append(names[o])
            else:  # a matrix the problem gives
                operands.append(self._given(problem, origin[o]))
        name = self._name((spec, id(problem), tuple(operands)))
        if name not in self._values:
            self._held.append(problem)
            given = None
            if spec.source is not None:
                given = self._values[self._given(problem, spec.source)]
            if spec.kind == Kind.TOKENS:
                assert problem.lookup is not None
                given = Approx.of(np.array([[float(i)] for i in problem.lookup.ids]))
            args = [self._values[o] for o in operands]
            self._values[name] = apply_float(spec, args, problem, given)
        if any(o in rounded for o in operands):
            rounded.add(name)
            if name not in self._radii:
                args = [self._values[o] for o in operands]
                rads = [
                    self._radii[o] if o in rounded else np.zeros_like(a.value)
                    for o, a in zip(operands, args)
                ]
                self._radii[name] = _radius(spec, args, rads, self._values[name], problem)
        return name

    def _fits(self, step_id: str, value: Array, reach: Array) -> bool:
        written, tolerance, answered = self._written(step_id)
        if value.shape != written.shape:
            return True
        with np.errstate(all="ignore"):
            allowed = tolerance + reach + FLOOR * np.abs(written)
            off = answered & np.isfinite(value) & (np.abs(written - value) > allowed)
        return not bool(off.any())

    def _written(self, step_id: str) -> tuple[Array, Array, Array]:
        """The student's entries of a step as floats, their tolerances, which count."""
        found = self._answered.get(step_id)
        if found is None:
            grid = self.answers.steps[step_id]
            shape = (len(grid), len(grid[0]))
            written, tolerance = np.zeros(shape), np.zeros(shape)
            answered = np.zeros(shape, dtype=bool)
            for i, row in enumerate(grid):
                for j, g in enumerate(row):
                    if g is None or not g.valid or not g.value.is_finite():
                        continue
                    written[i, j] = float(g.value)
                    tolerance[i, j] = float(tolerance_of(g, self.answers.tolerance))
                    answered[i, j] = True
            found = self._answered[step_id] = (written, tolerance, answered)
        return found


EVALUATION_ERROR_F = float(EVALUATION_ERROR) * 2


def within(
    reach: tuple[Array, Array] | None, i: int, j: int, written: Decimal, tolerance: Decimal
) -> bool:
    """Whether entry (i, j) of the decimal values may be within ``tolerance`` (and the
    carried rounding) of ``written``: False only when the floats rule it out."""
    if reach is None or not written.is_finite():
        return True
    value, far = reach
    if not np.isfinite(value[i, j]):
        return True
    w = float(written)
    allowed = float(tolerance) + float(far[i, j]) + FLOOR * abs(w)
    return not abs(w - float(value[i, j])) > allowed


def _converter(matrix: DecimalMatrix) -> Callable[[], Approx]:
    return lambda: approx_of(matrix)


def _decimals(matrix: Matrix) -> DecimalMatrix:
    with decimal.localcontext(decimal_context(24)):
        return dec_matrix(matrix)


def _array(matrix: Sequence[Sequence[Decimal]]) -> Array:
    return np.array([[float(x) for x in row] for row in matrix], dtype=np.float64)


# -- carried rounding on floats: slack.py's rules, each an upper bound -------------------------
def _upper(a: Approx) -> Array:
    """|a| + its bound (0 where not finite, as slack.py's ``_abs``)."""
    finite = np.isfinite(a.value)
    return np.where(finite, np.abs(np.where(finite, a.value, 0.0)) + a.error, 0.0)


def _radius(
    spec: StepSpec, args: list[Approx], rads: list[Array], own: Approx, problem: Problem
) -> Array:
    kind = spec.kind
    if kind in (Kind.PRODUCT, Kind.WEIGHTED_SUM, Kind.SUM_OF_PRODUCTS):
        total: Array | None = None
        for k in range(0, len(args), 2):
            left, right = _upper(args[k]), _upper(args[k + 1])
            r_left, r_right = rads[k], rads[k + 1]
            if spec.transpose_left:
                left, r_left = left.T, r_left.T
            if spec.transpose_right:
                right, r_right = right.T, r_right.T
            term = left @ r_right + r_left @ right + r_left @ r_right
            total = term if total is None else total + term
        assert total is not None
        out = total
    elif kind == Kind.SCALE:
        c = abs(float(evaluate(spec.divisor, 20))) if spec.divisor is not None else 1.0
        out = rads[0] / c * (1 + 4 * U)
    elif kind == Kind.MASK:
        assert problem.mask is not None
        out = np.where(np.array(problem.mask, dtype=bool), rads[0], 0.0)
    elif kind == Kind.SOFTMAX:
        return _softmax_radius(spec, args[0], own, rads[0], problem)
    elif kind == Kind.CONCAT:
        out = np.hstack(rads)
    elif kind == Kind.ADD:
        out = rads[0] + rads[1]
    elif kind in (Kind.COPY, Kind.DIFFERENCE):
        out = rads[0]
    elif kind == Kind.COLUMNS:
        assert spec.columns is not None
        out = rads[0][:, spec.columns[0] : spec.columns[1]]
    elif kind == Kind.JACOBIAN:
        out = _jacobian_radius(args[0], args[1], rads[0], rads[1])
    elif kind in (Kind.TOKENS, Kind.LOOKUP, Kind.GIVEN):
        out = np.zeros_like(own.value)
    else:
        raise NoFloatRule(f"no float rule for the carried rounding of {kind.value}")
    return out.T if spec.transposed else out


def _softmax_radius(
    spec: StepSpec, scores: Approx, weights: Approx, radius: Array, problem: Problem
) -> Array:
    """slack.py's ``_softmax``, on upper bounds of the weights."""
    if spec.softmax == "none":
        return radius
    upper = _upper(weights.T if spec.transposed else weights)
    finite = np.isfinite(scores.value)
    r = np.where(finite, radius, 0.0)
    w = np.where(finite, upper, 0.0)
    if spec.softmax == "columns":
        axis: int | None = 0
    elif spec.softmax == "global":
        axis = None
    else:
        axis = 1

    def group_sum(x: Array) -> Array:
        if axis is None:
            return np.full_like(x, np.sum(x))
        return np.asarray(np.sum(x, axis=axis, keepdims=True), dtype=np.float64)

    if spec.softmax != "no_exp":
        out = np.where(finite, w * (r + group_sum(w * r)), 0.0)
    else:
        kept = np.where(finite, scores.value, 0.0)
        moved = group_sum(np.where(finite, scores.error, 0.0))
        moved = moved + 4 * U * group_sum(np.abs(kept))
        low = np.abs(group_sum(kept)) - moved
        total = np.where(low > 0, low, np.nan)
        out = np.where(finite, (r + w * group_sum(r)) / total, 0.0)
        out = np.where(np.isnan(out), np.inf, out)
    if spec.mask_after and problem.mask is not None:
        out = np.where(np.array(problem.mask, dtype=bool), out, 0.0)
    return out * (1 + 1e-9)


def _jacobian_radius(a: Approx, g: Approx, r_a: Array, r_g: Array) -> Array:
    """slack.py's ``_jacobian``, on upper bounds of |a|, |g| and |g − Σ a g|."""
    abs_a, abs_g = _upper(a), _upper(g)
    inner = (a.value * g.value).sum(axis=1, keepdims=True)
    inner_error = (abs_a * abs_g - np.abs(a.value) * np.abs(g.value)).sum(axis=1, keepdims=True)
    inner_error += (a.value.shape[1] + 2) * U * (abs_a * abs_g).sum(axis=1, keepdims=True)
    gap = np.abs(g.value - inner) + g.error + inner_error
    spread = (r_a * abs_g + abs_a * r_g).sum(axis=1, keepdims=True)
    out: Array = (r_a * gap + abs_a * (r_g + spread)) * (1 + 1e-9)
    return out
