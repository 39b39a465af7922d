"""Marking a hand calculation which entry is wrong, where it starts, and why.

An entry passes when it is within one unit of the last decimal place the student wrote
(``0.73`` accepts 0.72 … 0.74), or within ``tolerance`` when one is given; integers and
fractions are exact answers.

A step that is wrong against the key is recomputed from the student's own earlier
answers (error carried forward).  If it then matches, its method is right: when the
earlier answers were only rounded, the step passes (carried rounding is not punished);
when they were wrong, the step is marked ``carried_forward``.  A step that is still
wrong is evaluated under every mistake model of :mod:`.mistakes`, and every model that
explains the student's numbers is reported, in English and in Chinese.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..compute import derivation
from ..compute.variants import DecimalMatrix
from ..derivation import Derivation
from ..errors import SymattnError
from ..ids import split_id
from ..load import load
from ..numbers import rational_value, round_half_away
from ..plan import Plan, forward_plan
from ..printing import TERMINAL
from ..problem import Problem
from ..words import words
from .answers import Answers, answer_steps, load_answers
from .compare import (
    Overrides,
    evaluation,
    key_values,
    matches,
    overrides_before,
    step_matches,
)
from .mistakes import MISTAKES, by_id, runs
from .results import CheckResult, Diagnosis, EntryResult, StepResult

__all__ = ["Marker", "check", "entry_name"]

#: Intermediate answers with this many places or fewer count as coarsely rounded.
COARSE_PLACES = 1


def entry_name(step_id: str, i: int, j: int) -> str:
    """``a₁,₂`` for entry (i, j), 0-based, of a step (the terminal's names)."""
    return TERMINAL.entry(step_id, i, j)


class Marker:
    """Marks one student's answers against one key."""

    def __init__(self, key: Derivation, answers: Answers) -> None:
        self.key, self.answers = key, answers
        self.problem = key.problem
        self.plan = forward_plan(key.problem)
        self.en, self.zh = words("en"), words("zh")

    def run(self) -> list[StepResult]:
        results = []
        earlier_ok: dict[str, bool] = {}
        for step_id in answer_steps(self.key):
            if step_id not in self.answers.steps:
                continue
            result = self.step(step_id, earlier_ok)
            earlier_ok[step_id] = result.status in ("correct", "partial")
            results.append(result)
        return results

    def _entries(self, step_id: str, reference: DecimalMatrix | None = None) -> list[EntryResult]:
        step = self.key.step(step_id)
        out = []
        for i, row in enumerate(self.answers.steps[step_id]):
            for j, g in enumerate(row):
                if g is None:
                    continue
                digits = max(4, g.places or 0)
                expected = step.decimal_str(i, j, digits) or step.exact_str(i, j)
                if g.places is None and rational_value(step.exact[i][j]) is not None:
                    expected = step.exact_str(i, j)  # an exact answer is shown an exact key
                ok = matches(g, key_values(self.key, step_id)[i][j], self.answers)
                if not ok and reference is not None:
                    ok = matches(g, reference[i][j], self.answers)
                out.append(EntryResult((i + 1, j + 1), g.text, expected, step.exact_str(i, j), ok))
        return out

    def step(self, step_id: str, earlier_ok: dict[str, bool]) -> StepResult:
        expected = key_values(self.key, step_id)
        given = self.answers.steps[step_id]
        answered = sum(g is not None for row in given for g in row)
        total = sum(len(row) for row in given)
        if answered == 0:
            return StepResult(step_id, "missing", [])
        complete = answered == total
        if step_matches(self.answers, step_id, expected):
            return StepResult(step_id, "correct" if complete else "partial", self._entries(step_id))
        overrides = overrides_before(self.answers, self.key, step_id)
        carried = self._carried(step_id, overrides)
        if carried is not None:
            used = [s for s in overrides if s in self.answers.steps]
            if all(earlier_ok.get(s, False) for s in used):
                coarse = self._coarse(used)
                if coarse is None:  # only rounding upstream: carried rounding passes
                    result = StepResult(
                        step_id,
                        "correct" if complete else "partial",
                        self._entries(step_id, carried),
                    )
                    result.note = self.en("note.rounded", steps=", ".join(used))
                    return result
                rounding = by_id("premature_rounding")
                facts = {"step": coarse[0], "places": coarse[1]}
                en = rounding.message(self.en, step_id, self.problem, facts)
                zh = rounding.message(self.zh, step_id, self.problem, facts)
                return StepResult(
                    step_id,
                    "incorrect",
                    self._entries(step_id),
                    [Diagnosis("premature_rounding", en, zh)],
                    carried_forward=True,
                )
            wrong = [s for s in used if not earlier_ok.get(s, False)]
            result = StepResult(step_id, "incorrect", self._entries(step_id), carried_forward=True)
            result.note = self.en("note.carried", steps=", ".join(wrong))
            return result
        result = StepResult(step_id, "incorrect", self._entries(step_id))
        result.diagnosis = self._diagnose(step_id, overrides, expected)
        return result

    def _inputs(self, step_id: str, overrides: Overrides) -> list[str]:
        """The overridden steps whose rounding reaches ``step_id``, by the plan's operands."""
        found: list[str] = []
        ids = {s.id for s in self.plan.specs}
        if step_id not in ids:
            return found
        for source in self.plan.upstream(step_id):
            if source in overrides:
                found.append(source)
            else:
                found += self._inputs(source, overrides)
        return found

    def _fits(
        self,
        step_id: str,
        values: DecimalMatrix,
        overrides: dict[str, DecimalMatrix],
        plan: Plan | None = None,
    ) -> bool:
        """The student's step matches ``values``, allowing for carried rounding of their own
        inputs (the bound is only worked out when the plain comparison fails)."""
        if step_matches(self.answers, step_id, values):
            return True
        if not overrides:
            return False
        return step_matches(self.answers, step_id, values, self._slack(step_id, overrides, plan))

    def _slack(
        self,
        step_id: str,
        overrides: dict[str, DecimalMatrix],
        plan: Plan | None = None,
    ) -> DecimalMatrix | None:
        """How far rounding of the student's own inputs (half a unit of each written place)
        can move each entry of ``step_id``: a first-order bound by finite differences.

        One column of an input is moved at a time, in every row at once: a row of Q, of the
        scores or of the weights only reaches the same row of what follows, and a row of K
        one column of the scores, so the effects do not mix; for V the weights are ≥ 0, so
        the moves add up instead of cancelling."""
        plan = plan or self.plan
        base = self._evaluate(plan, overrides)
        if base is None:
            return None
        rows, cols = len(base[step_id]), len(base[step_id][0])
        slack = [[Decimal(0)] * cols for _ in range(rows)]
        for source in self._inputs(step_id, overrides):
            given = self.answers.steps.get(source, [])
            for j in range(len(given[0]) if given else 0):
                shifted = {k: [list(r) for r in v] for k, v in overrides.items()}
                moved_any = False
                for i, row in enumerate(given):
                    g = row[j]
                    if g is None or g.places is None or not g.value.is_finite():
                        continue
                    shifted[source][i][j] += Decimal(5).scaleb(-g.places - 1)
                    moved_any = True
                moved = self._evaluate(plan, shifted) if moved_any else None
                if moved is None:
                    continue
                for a in range(rows):
                    for b in range(cols):
                        x, y = moved[step_id][a][b], base[step_id][a][b]
                        if x.is_finite() and y.is_finite():
                            slack[a][b] += abs(x - y)
        return slack

    def _carried(self, step_id: str, overrides: dict[str, DecimalMatrix]) -> DecimalMatrix | None:
        """The step recomputed from the student's own earlier answers, when that matches.

        All earlier answers are tried together, then each alone (a student may have
        carried more digits than they wrote down for a later step)."""
        if not overrides:
            return None
        trials = [overrides] + (
            [{k: v} for k, v in overrides.items()] if len(overrides) > 1 else []
        )
        for trial in trials:
            values = self._evaluate(self.plan, trial)
            if values is None:
                continue
            if self._fits(step_id, values[step_id], trial):
                return values[step_id]
        return None

    def _coarse(self, used: list[str]) -> tuple[str, int] | None:
        """The first earlier step written with too few places to carry forward safely."""
        for step_id in used:
            step = self.key.step(step_id)
            for i, row in enumerate(self.answers.steps[step_id]):
                for j, g in enumerate(row):
                    if g is None or g.places is None or g.places > COARSE_PLACES:
                        continue
                    if not step.is_exact_decimal(i, j, g.places):
                        return step_id, g.places
        return None

    def _evaluate(self, plan: Plan, overrides: Overrides) -> dict[str, DecimalMatrix] | None:
        return evaluation(self.problem, plan, overrides)

    def _diagnose(
        self, step_id: str, overrides: dict[str, DecimalMatrix], expected: DecimalMatrix
    ) -> list[Diagnosis]:
        found: list[Diagnosis] = []
        for mistake in MISTAKES:
            if split_id(step_id)[1] not in mistake.shows_in or (mistake.weaker and found):
                continue  # a weaker explanation only when nothing else fits
            for plan, facts in runs(mistake, self.problem):
                explained = False
                for extra in [overrides, {}] if overrides else [{}]:
                    values = self._evaluate(plan, extra)
                    right = self._evaluate(self.plan, extra)
                    if values is None or right is None or step_id not in values:
                        continue
                    # the model explains the numbers, and the right method would not
                    if self._fits(step_id, values[step_id], extra, plan) and not (
                        self._fits(step_id, right[step_id], extra)
                    ):
                        explained = True
                        break
                if explained:
                    en = mistake.message(self.en, step_id, self.problem, facts)
                    zh = mistake.message(self.zh, step_id, self.problem, facts)
                    found.append(Diagnosis(mistake.id, en, zh))
                    break
        if not found:
            slip = self._slip(step_id, overrides, expected)
            if slip is not None:
                found.append(slip)
        return found

    def _slip(
        self, step_id: str, overrides: dict[str, DecimalMatrix], expected: DecimalMatrix
    ) -> Diagnosis | None:
        """One or two entries off, the rest right: an arithmetic slip, named."""
        reference, slack = expected, None
        if overrides:
            values = self._evaluate(self.plan, overrides)
            if values is not None:
                reference, slack = values[step_id], self._slack(step_id, overrides)
        wrong, right = [], 0
        for i, row in enumerate(self.answers.steps[step_id]):
            for j, g in enumerate(row):
                if g is None:
                    continue
                extra = slack[i][j] if slack else Decimal(0)
                if matches(g, reference[i][j], self.answers, extra):
                    right += 1
                else:
                    wrong.append((i, j, g))
        if not 1 <= len(wrong) <= 2 or right < 2:
            return None
        step = self.key.step(step_id)
        parts_en, parts_zh = [], []
        for i, j, g in wrong:
            if not reference[i][j].is_finite():
                want = "−∞"
            elif g.places is None and reference is expected:
                want = step.exact_str(i, j)
            elif g.places is None and reference[i][j] == reference[i][j].to_integral_value():
                want = str(int(reference[i][j]))
            else:
                want = round_half_away(Fraction(reference[i][j]), max(4, g.places or 0))
            name = entry_name(step_id, i, j)
            parts_en.append(self.en("diagnosis.slip_entry", name=name, given=g.text, want=want))
            parts_zh.append(self.zh("diagnosis.slip_entry", name=name, given=g.text, want=want))
        ending = "diagnosis.arithmetic_slip_" + ("one" if len(wrong) == 1 else "many")
        en = (
            self.en("diagnosis.at", step=step_id)
            + self.en("diagnosis.slip_join").join(parts_en)
            + self.en(ending)
        )
        zh = (
            self.zh("diagnosis.at", step=step_id)
            + self.zh("diagnosis.slip_join").join(parts_zh)
            + self.zh(ending)
        )
        i, j, _ = wrong[0]
        return Diagnosis("arithmetic_slip", en, zh, (i + 1, j + 1))


def _read_tolerance(raw: float | str | Decimal) -> Decimal:
    try:
        value = Decimal(str(raw))
    except ArithmeticError:
        raise SymattnError(f"expected a number, found {raw!r}", option="tolerance") from None
    if not value.is_finite() or value < 0:
        raise SymattnError(f"expected a non-negative number, found {raw}", option="tolerance")
    return value


def check(
    problem: Problem | Derivation | str | os.PathLike[str] | Mapping[str, Any],
    answers: str | os.PathLike[str] | Mapping[str, Any] | Answers,
    *,
    tolerance: float | str | Decimal | None = None,
    source: str | None = None,
) -> CheckResult:
    """Check a hand calculation against the exact key.

    ``problem`` may be an already derived key (a :class:`Derivation`), which is how a
    whole class is graded with the key computed once.
    """
    if isinstance(problem, Derivation):
        key = problem
    else:
        key = derivation(problem if isinstance(problem, Problem) else load(problem))
    loaded = answers if isinstance(answers, Answers) else load_answers(answers, key, source)
    if tolerance is not None:
        loaded = dataclasses.replace(loaded, tolerance=_read_tolerance(tolerance))
    return CheckResult(loaded.source, Marker(key, loaded).run(), key)
