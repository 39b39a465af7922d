"""Diagnosis evaluates a mistake model only up to the step it is checked on, and takes the
steps the model leaves unchanged from the key (``symattn.check.diagnose.REUSE``): a test
that every verdict, entry status and diagnosis is what evaluating every step gives, on
answers written from every mistake model of every bundled example at 2 … 5 places, with
and without one more slip."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

import symattn
from symattn.check import check, key_for
from symattn.check import diagnose as diagnose_module
from symattn.check.answers import answer_steps
from symattn.check.mistakes import MISTAKES, runs
from symattn.compute.variants import evaluate
from symattn.examples import example_names, example_path
from symattn.numbers import round_half_away
from symattn.plan import forward_plan

SMALL = ("seed", "causal", "multihead")


def _written(values: list[list[Decimal]], places: int) -> list[list[str]]:
    return [
        ["-inf" if not v.is_finite() else round_half_away(v, places) for v in row] for row in values
    ]


def _cases(
    names: tuple[str, ...], all_places: tuple[int, ...]
) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for name in names:
        problem = symattn.load(example_path(name))
        if problem.symbolic:
            continue
        plan = forward_plan(problem)
        key = evaluate(problem, plan)
        steps = [s for s in answer_steps(symattn.derive(problem)) if s not in ("tokens", "X")]
        for mistake in MISTAKES:
            for run_problem, run_plan, _ in runs(mistake, problem, plan):
                try:
                    wrong = evaluate(run_problem, run_plan)
                except Exception:  # a model that does not apply to this problem
                    continue
                for places in all_places:
                    answers = {s: _written(wrong.get(s, key[s]), places) for s in steps if s in key}
                    yield name, f"{mistake.id}@{places}", answers
                    # and with one more slip: the last step's first entry off by 0.3
                    slipped = {s: [list(r) for r in v] for s, v in answers.items()}
                    last = slipped[steps[-1]]
                    if last[0][0] != "-inf":
                        last[0][0] = round_half_away(Decimal(last[0][0]) + Decimal("0.3"), places)
                        yield name, f"{mistake.id}@{places}+slip", slipped
                break


def _marks(result: symattn.check.CheckResult) -> list[Any]:
    return [
        (
            s.id,
            s.status,
            [e.status for e in s.entries],
            [d.id for d in s.diagnosis],
            s.carried_forward,
        )
        for s in result.steps
    ]


def _compare(names: tuple[str, ...], places: tuple[int, ...]) -> int:
    compared = 0
    for name, label, answers in _cases(names, places):
        key = key_for(str(example_path(name)))
        fast = _marks(check(key, answers))
        diagnose_module.REUSE = False
        try:
            slow = _marks(check(key, answers))
        finally:
            diagnose_module.REUSE = True
        assert fast == slow, (name, label)
        compared += 1
    return compared


def test_the_same_diagnoses_as_evaluating_every_step() -> None:
    assert _compare(("seed",), (4,)) > 10


@pytest.mark.slow
def test_the_same_diagnoses_on_every_example_and_places() -> None:
    names = tuple(n for n in example_names() if n not in SMALL)
    count = _compare(names, (2, 3, 4, 5)) + _compare(SMALL, (2, 3, 5))
    print(f"{count} answers files marked both ways: the same marks")
    assert count > 2000
