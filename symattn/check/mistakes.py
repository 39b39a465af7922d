"""The mistake models: one object per mistake a student makes, in one registry.

Each :class:`Mistake` says where it shows (the steps a student's numbers reveal it
in), how to compute under it (a change to the plan, evaluated by
:func:`symattn.compute.variants.evaluate`), and its words (``diagnosis.<id>`` in
:mod:`symattn.words`).  A new mistake is one more object in :data:`MISTAKES` and its
sentence in each language.

>>> [m.id for m in MISTAKES][:3]
['no_scaling', 'scaled_by_d_model', 'scaled_by_dk']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..numbers import Surd
from ..plan import Plan, forward_plan
from ..printing import sstr
from ..problem import Problem
from ..steps import StepSpec
from ..words import Words

__all__ = ["MISTAKES", "Mistake", "Run", "by_id", "runs"]

#: One way to compute a mistake: the changed plan, and facts its sentence names.
Run = tuple[Plan, dict[str, Any]]

SCORED = ("scaled_scores", "masked_scores", "weights", "output")


def _on(base: str, **changes: Any) -> Callable[[StepSpec], StepSpec | None]:
    """Change every spec of step ``base`` (in every head)."""
    return lambda s: s.changed(**changes) if s.base == base else None


def _plan_change(base: str, **changes: Any) -> Callable[[Problem, Plan], list[Run]]:
    return lambda problem, plan: [(plan.changed(_on(base, **changes)), {})]


def _scale_by(divisor: Callable[[Problem], Surd | None]) -> Callable[[Problem, Plan], list[Run]]:
    """The scores divided by another number (or by none: 1)."""

    def runs(problem: Problem, plan: Plan) -> list[Run]:
        if problem.scale is None or problem.symbolic:
            return []
        new = divisor(problem)
        if new is None or new == problem.scale:
            return []
        return [(plan.changed(_on("scaled_scores", divisor=new)), {})]

    return runs


def _keys_summed(problem: Problem, plan: Plan) -> list[Run]:
    def change(spec: StepSpec) -> StepSpec | None:
        if spec.base != "output" or len(spec.operands) != 2:
            return None
        prefix = spec.id[: -len("output")]
        return spec.changed(operands=(spec.operands[0], f"{prefix}K"))

    return [(plan.changed(change), {})]


def _mask_after(problem: Problem, plan: Plan) -> list[Run]:
    if problem.mask is None:
        return []
    unmasked = {s.id: s.operands[0] for s in plan.specs if s.base == "masked_scores"}

    def change(spec: StepSpec) -> StepSpec | None:
        if spec.base != "weights" or spec.operands[0] not in unmasked:
            return None
        return spec.changed(operands=(unmasked[spec.operands[0]],), mask_after=True)

    return [(plan.changed(change), {})]


def _rounded(problem: Problem, plan: Plan) -> list[Run]:
    """Scores rounded before the softmax, or weights before the weighted sum."""
    out: list[Run] = []
    for places in (0, 1, 2):
        out.append(
            (
                plan.changed(_on("weights", round_operand=places)),
                {"places": places, "what": "scores"},
            )
        )
        out.append(
            (
                plan.changed(_on("output", round_operand=places)),
                {"places": places, "what": "weights"},
            )
        )
    return out


@dataclass(frozen=True)
class Mistake:
    """A mistake model: where it shows, how to compute it, and (in words/) what it says."""

    id: str
    shows_in: tuple[str, ...]
    compute: Callable[[Problem, Plan], list[Run]]
    weaker: bool = False  # only reported when no other model explains the numbers

    def message(self, words: Words, step_id: str, problem: Problem, facts: dict[str, Any]) -> str:
        """This mistake's sentence in ``words``' language, for ``step_id``."""
        if problem.scale_label == "sqrt(d_k)":
            root = words("diagnosis.root_dk", d_k=problem.d_k)
        else:
            root = words("diagnosis.root_c", c=sstr(problem.scale))
        values: dict[str, Any] = {"root": root, "d_k": problem.d_k, "d_model": problem.d_model}
        if self.id == "premature_rounding":
            places = facts.get("places", 1)
            what = facts.get("step") or words(f"diagnosis.rounded.{facts.get('what', 'scores')}")
            values |= {"places": places, "what": what, "plural": "" if places == 1 else "s"}
        return words("diagnosis.at", step=step_id) + words(f"diagnosis.{self.id}", **values)


MISTAKES: tuple[Mistake, ...] = (
    Mistake("no_scaling", SCORED, _scale_by(lambda p: Surd.rational(1))),
    Mistake(
        "scaled_by_d_model",
        SCORED,
        _scale_by(lambda p: Surd.sqrt(p.d_model) if p.d_model not in (None, p.d_k) else None),
    ),
    Mistake(
        "scaled_by_dk", SCORED, _scale_by(lambda p: Surd.rational(p.d_k) if p.d_k != 1 else None)
    ),
    Mistake("no_softmax", ("weights", "output"), _plan_change("weights", softmax="none")),
    Mistake(
        "softmax_wrong_axis", ("weights", "output"), _plan_change("weights", softmax="columns")
    ),
    Mistake(
        "exp_missing_in_softmax", ("weights", "output"), _plan_change("weights", softmax="no_exp")
    ),
    Mistake("scores_transposed", ("scores", *SCORED), _plan_change("scores", transposed=True)),
    Mistake("weights_transposed", ("weights", "output"), _plan_change("weights", transposed=True)),
    Mistake("weighted_sum_of_keys", ("output",), _keys_summed),
    Mistake("mask_after_softmax", ("weights", "output"), _mask_after),
    Mistake("premature_rounding", ("weights", "output"), _rounded, weaker=True),
)


def by_id(mistake_id: str) -> Mistake:
    return next(m for m in MISTAKES if m.id == mistake_id)


@lru_cache(maxsize=256)
def runs(mistake: Mistake, problem: Problem) -> tuple[Run, ...]:
    """The plans a mistake stands for on this problem (none where it cannot apply)."""
    return tuple(mistake.compute(problem, forward_plan(problem)))
