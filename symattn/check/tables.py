"""What each mistake model gives on one problem: the numbers a student who made it would
write, step by step — for pages and quizzes that name a mistake without running ``check``
(the self-check page, the Moodle quiz).

Only the steps where a mistake shows (its ``shows_in``) and where its numbers differ from
the key are kept; with ``places``, "differ" means "differ once rounded to that many places",
which is what a student writing that many places would see.

>>> from symattn.compute import derivation
>>> from symattn.examples import example_path
>>> from symattn.load import load
>>> key = derivation(load(example_path("seed")))
>>> [t.id for t in mistake_tables(key, 4)][:2]
['no_scaling', 'scaled_by_d_model']
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..compute.variants import DecimalMatrix
from ..derivation import Derivation
from ..messages import Message
from ..numbers import round_half_away
from ..plan import Plan, backward_plan, forward_plan
from ..problem import Problem
from ..record import Record
from .answers import answer_steps
from .compare import evaluation
from .mistakes import MISTAKES, OTHER_VIEW, Mistake, message, runs
from .naming import Naming

__all__ = ["MistakeTable", "key_plan", "mistake_tables", "rounded"]


def key_plan(key: Derivation) -> Plan:
    """The plan the key was derived under (forward, and backward when it has gradients)."""
    plan = forward_plan(key.problem)
    return plan + backward_plan(key.problem) if key.has("dO") else plan


def rounded(value: Decimal, places: int | None) -> str:
    """A value as a student writing ``places`` decimals would write it (−∞ as ``-inf``)."""
    if value.is_infinite():
        return "-inf" if value < 0 else "inf"
    if places is None:
        return str(value)
    return round_half_away(Fraction(value), places)


class MistakeTable(Record):
    """One way of making one mistake, and the numbers it gives where they differ."""

    mistake: Mistake
    problem: Problem  # the problem as set (the sentence names its d_k, its scale)
    facts: tuple[tuple[str, Any], ...]
    values: dict[str, DecimalMatrix]  # step id → the whole step under the mistake
    differs: dict[str, tuple[tuple[int, int], ...]]  # step id → entries (0-based) that differ

    @property
    def id(self) -> str:
        return self.mistake.id

    def message(self, step_id: str, cells: list[tuple[int, int]] | None = None) -> Message:
        """The mistake's message about ``cells`` of ``step_id`` (default: the entries where
        it differs)."""
        naming = Naming(self.problem.layout)
        entries = naming.entries_fact(step_id, list(cells or self.differs[step_id]))
        return message(self.mistake, entries, self.problem, dict(self.facts), naming.variant)


def _runs(
    mistake: Mistake, key: Derivation, plan: Plan
) -> list[tuple[Problem, Plan | None, dict[str, Any]]]:
    """The ways of making ``mistake``; a column-layout problem answered in the other view
    (the row layout) is one way of its own (no plan: the key's values, transposed)."""
    if mistake is OTHER_VIEW:
        return [(key.problem, None, {})] if key.problem.layout == "column" else []
    return list(runs(mistake, key.problem, plan))


def _other_view(key: Derivation) -> dict[str, DecimalMatrix]:
    """What a column-layout student who wrote the row layout gives, in the row layout's
    coordinates: every square step transposed (the others do not fit the page)."""
    out: dict[str, DecimalMatrix] = {}
    for step in key.steps:
        rows, cols = step.shape
        if rows == cols and all(v is not None for row in step.values for v in row):
            out[step.id] = [[v for v in col if v is not None] for col in zip(*step.values)]
    return out


def _shape(values: DecimalMatrix) -> tuple[int, int]:
    return len(values), len(values[0]) if values else 0


def _differing(
    key: Derivation, step_id: str, values: DecimalMatrix, places: int | None
) -> tuple[tuple[int, int], ...]:
    step = key.step(step_id)
    out = []
    for i, row in enumerate(values):
        for j, value in enumerate(row):
            right = step.values[i][j]
            if right is None:
                continue
            if places is None:
                same = value == right or (
                    value.is_finite()
                    and right.is_finite()
                    and abs(value - right) < Decimal("1e-20")
                )
            else:
                same = rounded(value, places) == rounded(right, places)
            if not same:
                out.append((i, j))
    return tuple(out)


def mistake_tables(key: Derivation, places: int | None = None) -> list[MistakeTable]:
    """Every mistake model that gives this problem's answer steps different numbers, each
    way of making it once (two ways giving the same numbers are kept once)."""
    plan = key_plan(key)
    steps = answer_steps(key)
    out: list[MistakeTable] = []
    seen: set[tuple[str, str]] = set()
    for mistake in MISTAKES:
        for problem, changed, facts in _runs(mistake, key, plan):
            values = evaluation(problem, changed, {}) if changed is not None else _other_view(key)
            if values is None:
                continue
            kept: dict[str, DecimalMatrix] = {}
            differs: dict[str, tuple[tuple[int, int], ...]] = {}
            for step_id in steps:
                base = step_id.split(".", 1)[-1]
                if not mistake.shows(base, plan) or step_id not in values:
                    continue
                if _shape(values[step_id]) != key.step(step_id).shape:
                    continue  # a matrix of another shape (Σ a_ij k_j when d_k ≠ d_v): no entries
                cells = _differing(key, step_id, values[step_id], places)
                if cells:
                    kept[step_id], differs[step_id] = values[step_id], cells
            if not kept:
                continue
            fingerprint = (
                mistake.id,
                repr({s: [[rounded(v, places) for v in r] for r in m] for s, m in kept.items()}),
            )
            if fingerprint in seen:
                continue
            seen.add(fingerprint)
            facts_items = tuple(sorted(facts.items()))
            out.append(MistakeTable(mistake, key.problem, facts_items, kept, differs))
    return out
