"""The mistake models: one object per mistake a student makes, in one registry.

Each :class:`Mistake` says where it shows (the steps a student's numbers reveal it in),
how to compute under it — a change to the plan, or to the problem as the student read
it, evaluated by :func:`symattn.compute.variants.evaluate` — and its words
(``diagnosis.<id>`` and ``mistake.<id>`` in :mod:`symattn.words`).  A new mistake is one
more object in :data:`MISTAKES` and its sentences in each language.  Mistakes of the
``scale`` family combine with the others: two mistakes at once are found too.

>>> [m.id for m in MISTAKES][:3]
['no_scaling', 'scaled_by_d_model', 'scaled_by_dk']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ..formula import Lit, Root
from ..messages import Entries, Fact, Math, Message
from ..numbers import Surd
from ..printing import sstr
from ..problem import Problem
from ..steps import Kind, Plan, StepSpec
from ..topics import mistakes as topic_mistakes
from ..topics import score_divisor
from ..topics.base import Compute, Mistake, Run, on, plan_change
from ..words import Words

__all__ = [
    "MISTAKES",
    "OTHER_VIEW",
    "Mistake",
    "Run",
    "by_id",
    "message",
    "mistake_name",
    "pairs",
    "runs",
]

SCORED = ("scaled_scores", "masked_scores", "weights", "output")
WEIGHTED = ("weights", "output")
BELOW_JACOBIAN = ("dscaled_scores", "dscores", "dQ", "dK", "dW_Q", "dW_K", "dX")


def _scale_by(divisor: Callable[[Problem], Surd | None], base: str = "scaled_scores") -> Compute:
    """The scores (or, backward, dS′) divided by another number (1: not at all)."""

    def compute(problem: Problem, plan: Plan) -> list[Run]:
        if problem.scale is None or problem.symbolic:
            return []
        new = divisor(problem)
        if new is None or new == problem.scale:
            return []
        new = score_divisor(problem, new)  # a topic's factor (the temperature) divides too
        return [(problem, plan.changed(on(base, divisor=new)), {})]

    return compute


def _summed(operand: Callable[[Problem, str], str | None]) -> Compute:
    """The output as a weighted sum of another matrix (the keys, the inputs)."""

    def compute(problem: Problem, plan: Plan) -> list[Run]:
        def change(spec: StepSpec) -> StepSpec | None:
            if spec.kind != Kind.WEIGHTED_SUM or len(spec.operands) != 2:
                return None  # (with heads, the final output is concat · W_O: no sum)
            other = operand(problem, spec.id[: -len("output")])
            return None if other is None else spec.changed(operands=(spec.operands[0], other))

        changed = plan.changed(change)
        return [] if changed == plan else [(problem, changed, {})]

    return compute


def _keys(problem: Problem, prefix: str) -> str | None:
    """The keys can stand in for the values only when they are as wide (d_k = d_v)."""
    return f"{prefix}K" if problem.d_k == problem.d_v else None


def _inputs(problem: Problem, prefix: str) -> str | None:
    ok = problem.X is not None and problem.keys_from is None and problem.d_model == problem.d_v
    return "X" if ok and problem.heads == 1 else None


def _mask_after(problem: Problem, plan: Plan) -> list[Run]:
    if problem.mask is None:
        return []
    unmasked = {s.id: s.operands[0] for s in plan.specs if s.base == "masked_scores"}

    def change(spec: StepSpec) -> StepSpec | None:
        if spec.base != "weights" or spec.operands[0] not in unmasked:
            return None
        return spec.changed(operands=(unmasked[spec.operands[0]],), mask_after=True)

    return [(problem, plan.changed(change), {})]


def _wrong_triangle(problem: Problem, plan: Plan) -> list[Run]:
    """A causal mask that keeps j ≥ i instead of j ≤ i."""
    if problem.mask_label != "causal" or problem.n != problem.m:
        return []
    upper = tuple(tuple(j >= i for j in range(problem.m)) for i in range(problem.n))
    return [(dataclasses.replace(problem, mask=upper), plan, {})]


def _rounded(problem: Problem, plan: Plan) -> list[Run]:
    """Scores rounded before the softmax, or weights before the weighted sum."""
    out: list[Run] = []
    for places in (0, 1, 2, 3):
        out.append(
            (
                problem,
                plan.changed(on("weights", round_operand=places)),
                {"places": places, "what": "scores"},
            )
        )
        out.append(
            (
                problem,
                plan.changed(on("output", round_operand=places)),
                {"places": places, "what": "weights"},
            )
        )
    return out


def _backward_transposed(problem: Problem, plan: Plan) -> list[Run]:
    """A dO for dV, or dS Q for dK: the transpose forgotten on the left."""
    if problem.n != problem.m:
        return []

    def change(spec: StepSpec) -> StepSpec | None:
        return spec.changed(transpose_left=False) if spec.base in ("dV", "dK") else None

    return [(problem, plan.changed(change), {})]


#: A column-layout step written in the row layout: found by the marking, which reads the
#: answers in the other view (no change to the plan computes it).
OTHER_VIEW = Mistake("column_layout_transposed", ("scores", *SCORED), lambda p, plan: [])


def message(
    mistake: Mistake,
    entries: Entries,
    problem: Problem,
    facts: dict[str, Any],
    variant: str | None = None,
) -> Message:
    """A mistake's message about ``entries``; ``variant`` picks the words of a layout
    ("column": the rows and columns of the column layout) where the language has them."""
    if problem.scale_label == "sqrt(d_k)":
        root = Message.of("diagnosis.root_dk", sqrt=Math(Root(Lit(str(problem.d_k)))))
    else:
        root = Message.of("diagnosis.root_c", c=sstr(problem.scale))
    values: dict[str, Fact] = {
        "entries": entries,
        "root": root,
        "d_k": problem.d_k,
        "d_model": problem.d_model or 0,
        "sqrt_d_model": Math(Root(Lit(str(problem.d_model or 0)))),
        "d_minus": (problem.d_model or 1) - 1,
    }
    if mistake.words_facts is not None:
        values |= mistake.words_facts(problem)
    key = f"diagnosis.{mistake.id}"
    if mistake.id == "premature_rounding":
        places = int(facts.get("places", 1))
        what = Message.of(f"diagnosis.rounded.{facts.get('what', 'scores')}")
        values |= {"places": places, "what": what, "plural": "" if places == 1 else "s"}
        if "step" in facts:  # a step written too coarsely, then worked from
            key, values["step"] = "diagnosis.premature_rounding_step", facts["step"]
    return Message(key, tuple(values.items()), variant)


def mistake_name(words: Words, mistake_id: str, variant: str | None = None) -> str:
    """The short name of a mistake ("softmax down the columns"), in a layout's words."""
    key = f"mistake.{mistake_id}"
    if variant is not None and words.has(f"{key}.{variant}"):
        key += f".{variant}"
    return words(key)


MISTAKES: tuple[Mistake, ...] = (
    Mistake("no_scaling", SCORED, _scale_by(lambda p: Surd.rational(1)), "scale"),
    Mistake(
        "scaled_by_d_model",
        SCORED,
        _scale_by(lambda p: Surd.sqrt(p.d_model) if p.d_model not in (None, p.d_k) else None),
        "scale",
    ),
    Mistake(
        "scaled_by_dk",
        SCORED,
        _scale_by(lambda p: Surd.rational(p.d_k) if p.d_k != 1 else None),
        "scale",
    ),
    Mistake(
        "scale_multiplied",
        SCORED,
        _scale_by(lambda p: Surd.rational(1) / p.scale if p.scale else None),
        "scale",
    ),
    Mistake("no_softmax", WEIGHTED, plan_change("weights", softmax="none")),
    Mistake("softmax_wrong_axis", WEIGHTED, plan_change("weights", softmax="columns")),
    Mistake("softmax_global", WEIGHTED, plan_change("weights", softmax="global")),
    Mistake("exp_missing_in_softmax", WEIGHTED, plan_change("weights", softmax="no_exp")),
    Mistake("scores_transposed", ("scores", *SCORED), plan_change("scores", transposed=True)),
    Mistake("weights_transposed", WEIGHTED, plan_change("weights", transposed=True)),
    Mistake("weighted_sum_of_keys", ("output",), _summed(_keys)),
    Mistake("weighted_sum_of_inputs", ("output",), _summed(_inputs)),
    Mistake("mask_after_softmax", WEIGHTED, _mask_after),
    Mistake("mask_wrong_triangle", ("masked_scores", *WEIGHTED), _wrong_triangle),
    Mistake(
        "jacobian_diagonal_only",
        BELOW_JACOBIAN,
        lambda problem, plan: [
            (
                problem,
                plan.changed(
                    on("dscaled_scores", diagonal_only=True)
                    if problem.scale is not None
                    else on("dscores", diagonal_only=True)
                ),
                {},
            )
        ],
    ),
    Mistake(
        "backward_no_scaling",
        BELOW_JACOBIAN[1:],
        _scale_by(lambda p: Surd.rational(1), base="dscores"),
        "scale",
    ),
    Mistake("backward_transposed", ("dV", "dK", "dW_V", "dW_K", "dX"), _backward_transposed),
    Mistake("premature_rounding", WEIGHTED, _rounded, "rounding", weaker=True),
    OTHER_VIEW,
    *topic_mistakes(),
)


def by_id(mistake_id: str) -> Mistake:
    return next(m for m in MISTAKES if m.id == mistake_id)


@lru_cache(maxsize=512)
def runs(mistake: Mistake, problem: Problem, plan: Plan) -> tuple[Run, ...]:
    """The ways a mistake can be computed on this problem (none where it cannot apply)."""
    return tuple(mistake.compute(problem, plan))


@lru_cache(maxsize=256)
def pairs(first: Mistake, second: Mistake, problem: Problem, plan: Plan) -> tuple[Run, ...]:
    """Two mistakes at once: ``second`` made on top of ``first``."""
    out: list[Run] = []
    for p1, plan1, facts1 in runs(first, problem, plan):
        for p2, plan2, facts2 in second.compute(p1, plan1):
            out.append((p2, plan2, facts1 | facts2))
    return tuple(out)
