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
    "evaluation",
    "key_values",
    "matches",
    "overrides_before",
    "step_matches",
]

#: Tolerance of answers given exactly (integers, fractions, sqrt): equality, up to noise.
EXACT_TOLERANCE = Decimal("1e-30")
#: Digits of the evaluations a hand calculation is compared with.
PRECISION = 24

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


def tolerance_of(given: Given, answers: Answers) -> Decimal:
    if answers.tolerance is not None:
        return answers.tolerance
    if given.places is None:
        return EXACT_TOLERANCE
    return Decimal(1).scaleb(-given.places)


def matches(given: Given, expected: Decimal, answers: Answers, slack: Decimal = Decimal(0)) -> bool:
    if given.value.is_infinite() or expected.is_infinite():
        return given.value == expected
    return abs(given.value - expected) <= tolerance_of(given, answers) + slack


def step_matches(
    answers: Answers, step_id: str, values: DecimalMatrix, slack: DecimalMatrix | None = None
) -> bool:
    """Every answered entry of the step matches ``values`` (within ``slack`` more)."""
    return all(
        g is None or matches(g, values[i][j], answers, slack[i][j] if slack else Decimal(0))
        for i, row in enumerate(answers.steps[step_id])
        for j, g in enumerate(row)
    )


def key_values(key: Derivation, step_id: str) -> DecimalMatrix:
    return [[v if v is not None else Decimal(0) for v in row] for row in key.step(step_id).values]


def overrides_before(answers: Answers, key: Derivation, before: str) -> Overrides:
    """The student's answers of the steps before ``before``, gaps filled from the key."""
    out: Overrides = {}
    order = answer_steps(key)
    for step_id in order[: order.index(before)]:
        if step_id in answers.steps and step_id != "X":
            filled = key_values(key, step_id)
            for i, row in enumerate(answers.steps[step_id]):
                for j, g in enumerate(row):
                    if g is not None:
                        filled[i][j] = g.value
            out[step_id] = filled
    return out


def evaluation(
    problem: Problem, plan: Plan, overrides: Overrides
) -> dict[str, DecimalMatrix] | None:
    """Every step under ``plan`` from the student's ``overrides`` (memoised)."""
    return _evaluation(problem, plan, frozen(overrides))
