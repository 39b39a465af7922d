"""Comparing a student's entries with values: tolerances, and the values a step is
compared with (the key, or the key recomputed from the student's own answers)."""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache

from ..compute.variants import DecimalMatrix, NotApplicable, evaluate
from ..derivation import Derivation
from ..plan import Plan
from ..problem import Problem
from .answers import Answers, Given, answer_steps

__all__ = [
    "EXACT_TOLERANCE",
    "Overrides",
    "close",
    "evaluation",
    "key_values",
    "needed",
    "overrides_before",
    "rounding_radius",
    "tolerance_of",
]

#: Tolerance of answers given exactly (integers, fractions, sqrt): equality, up to noise.
EXACT_TOLERANCE = Decimal("1e-30")
#: Digits of the evaluations a hand calculation is compared with.
PRECISION = 24
ZERO = Decimal(0)

Overrides = dict[str, DecimalMatrix]
Frozen = tuple[tuple[str, tuple[tuple[Decimal, ...], ...]], ...]


def frozen(overrides: Overrides) -> Frozen:
    return tuple((k, tuple(tuple(row) for row in v)) for k, v in sorted(overrides.items()))


@lru_cache(maxsize=4096)
def _evaluation(problem: Problem, plan: Plan, overrides: Frozen) -> dict[str, DecimalMatrix] | None:
    """Every step under ``plan`` from the student's ``overrides`` (shared by a whole class:
    the same problem evaluated under the same mistake for many students)."""
    given = {k: [list(row) for row in v] for k, v in overrides}
    try:
        return evaluate(problem, plan, given, precision=PRECISION)
    except (NotApplicable, ArithmeticError):
        return None


def tolerance_of(given: Given, tolerance: Decimal | None) -> Decimal:
    """One unit of the last place written (exact answers: equality), or ``tolerance``."""
    if tolerance is not None:
        return tolerance
    assert given.reading is not None
    return given.reading.radius or EXACT_TOLERANCE


def close(
    given: Given, expected: Decimal, tolerance: Decimal | None, slack: Decimal = ZERO
) -> bool:
    if given.value.is_infinite() or expected.is_infinite():
        return given.value == expected
    return abs(given.value - expected) <= tolerance_of(given, tolerance) + slack


def key_values(key: Derivation, step_id: str) -> DecimalMatrix:
    return [[v if v is not None else ZERO for v in row] for row in key.step(step_id).values]


def rounding_radius(given: Given, key_value: Decimal) -> Decimal:
    """How far the student's own unrounded value may be from what they wrote: half a unit
    of the last place — unless nothing was rounded (an exact answer, or the key itself)."""
    if given.reading is None or given.exact or not given.value.is_finite():
        return ZERO
    if key_value.is_finite() and abs(given.value - key_value) <= EXACT_TOLERANCE:
        return ZERO
    return given.reading.radius / 2


def overrides_before(
    answers: Answers, key: Derivation, before: str, only: set[str] | None = None
) -> tuple[Overrides, Overrides]:
    """The student's answers of the steps before ``before`` (those in ``only``), gaps
    filled from the key, and the rounding radius of each entry."""
    values: Overrides = {}
    radii: Overrides = {}
    order = answer_steps(key)
    for step_id in order[: order.index(before)]:
        if (
            step_id not in answers.steps
            or step_id in ("tokens", "X")
            or (only is not None and step_id not in only)
        ):
            continue
        filled = key_values(key, step_id)
        radius = [[ZERO] * len(row) for row in filled]
        for i, row in enumerate(answers.steps[step_id]):
            for j, g in enumerate(row):
                if g is not None and g.valid:
                    radius[i][j] = rounding_radius(g, filled[i][j])
                    filled[i][j] = g.value
        values[step_id] = filled
        radii[step_id] = radius
    return values, radii


def evaluation(
    problem: Problem, plan: Plan, overrides: Overrides
) -> dict[str, DecimalMatrix] | None:
    """Every step under ``plan`` from the student's ``overrides`` (memoised)."""
    return _evaluation(problem, plan, frozen(overrides))


@lru_cache(maxsize=1024)
def needed(plan: Plan, step_id: str) -> Plan:
    """The steps of ``plan`` that ``step_id`` is made from, and itself: all a step's values
    need (the later steps are never evaluated for it)."""
    wanted = {step_id}
    for spec in reversed(plan.specs):
        if spec.id in wanted:
            wanted.update(spec.operands)
    return Plan(plan.inputs, tuple(s for s in plan.specs if s.id in wanted))
