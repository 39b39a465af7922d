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
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..ids import head_prefix
from ..numbers import Surd
from ..plan import Plan, forward_plan
from ..printing import sstr
from ..problem import Problem
from ..steps import Kind, Source, StepSpec
from ..words import Words

__all__ = ["MISTAKES", "Mistake", "Run", "by_id", "pairs", "runs"]

#: One way to compute a mistake: the problem as the student read it, the changed plan,
#: and facts its sentence names.
Run = tuple[Problem, Plan, dict[str, Any]]
Compute = Callable[[Problem, Plan], list[Run]]

SCORED = ("scaled_scores", "masked_scores", "weights", "output")
WEIGHTED = ("weights", "output")
BLOCK = ("X_norm", "norm", "ffn_hidden", "ffn_output", "block_output")
BELOW_JACOBIAN = ("dscaled_scores", "dscores", "dQ", "dK", "dW_Q", "dW_K", "dX")


def _on(base: str, **changes: Any) -> Callable[[StepSpec], StepSpec | None]:
    """Change every spec of step ``base`` (in every head)."""
    return lambda s: s.changed(**changes) if s.base == base else None


def _plan_change(base: str, **changes: Any) -> Compute:
    return lambda problem, plan: [(problem, plan.changed(_on(base, **changes)), {})]


def _scale_by(divisor: Callable[[Problem], Surd | None], base: str = "scaled_scores") -> Compute:
    """The scores (or, backward, dS′) divided by another number (1: not at all)."""

    def compute(problem: Problem, plan: Plan) -> list[Run]:
        if problem.scale is None or problem.symbolic:
            return []
        new = divisor(problem)
        if new is None or new == problem.scale:
            return []
        if problem.temperature is not None:  # the temperature divides all the same
            new = new * problem.temperature
        return [(problem, plan.changed(_on(base, divisor=new)), {})]

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
    ok = problem.X is not None and problem.memory is None and problem.d_model == problem.d_v
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
                plan.changed(_on("weights", round_operand=places)),
                {"places": places, "what": "scores"},
            )
        )
        out.append(
            (
                problem,
                plan.changed(_on("output", round_operand=places)),
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


#: Steps after attention that a mistake in it carries to: heads, a decode step, a block.
LATER = ("concat", "cache_K", "cache_V", "decode", "residual", *BLOCK)
#: Steps that positions feed (and RoPE, additive attention, when the problem has them).
POSITIONED = ("Q", "K", "V", "Q_rot", "K_rot", "additive_hidden", "scores", *SCORED, *LATER)


def _pe_swapped(problem: Problem, plan: Plan) -> list[Run]:
    """cos at the even columns of P and sin at the odd ones."""
    if problem.positions != "sinusoidal":
        return []
    return [(problem, plan.changed(_on("P", pe_swapped=True)), {})]


def _pe_after_projection(problem: Problem, plan: Plan) -> list[Run]:
    """Q = X W_Q + P (and K, V alike): the positions added after the projection."""
    if problem.positions == "none":
        return []

    widths = {"Q": problem.d_k, "K": problem.d_k, "V": problem.d_v}

    def change(spec: StepSpec) -> StepSpec | None:
        if spec.kind != Kind.PRODUCT or spec.operands[:1] != ("X_pos",):
            return None
        if problem.d_model is None or widths.get(spec.base) != problem.d_model * problem.heads:
            return None  # P (n × d_model) cannot be added to an n × d_k projection
        return spec.changed(operands=("X", spec.operands[1], "P"), add_after=True)

    changed = plan.changed(change)
    return [] if changed == plan else [(problem, changed, {})]


def _rope_pairs(problem: Problem, plan: Plan) -> list[Run]:
    """Columns i and i + d/2 turned together (rotate-half) instead of (2i, 2i+1)."""
    if not problem.rope or problem.d_k < 4:
        return []
    changed = plan.changed(
        lambda s: s.changed(rope_pairs="half") if s.kind == Kind.ROTATE else None
    )
    return [(problem, changed, {})]


def _row_layout(problem: Problem, plan: Plan) -> list[Run]:
    """A column-layout problem worked in the row layout (every matrix transposed)."""
    if problem.layout != "column":
        return []
    row = dataclasses.replace(problem, layout="row")
    return [(row, forward_plan(row), {})]


def _unbiased(problem: Problem, plan: Plan) -> list[Run]:
    """LayerNorm with the variance over d − 1 (the sample variance), not over d."""
    if problem.norm is None:
        return []
    return [
        (
            problem,
            plan.changed(lambda s: s.changed(unbiased=True) if s.kind == Kind.LAYERNORM else None),
            {},
        )
    ]


def _groups_in_turn(problem: Problem, plan: Plan) -> list[Run]:
    """Query head t given K/V head t mod g instead of ⌊t·g/h⌋ (the groups dealt out in
    turn, as ``repeat`` does where ``repeat_interleave`` is meant)."""
    groups = problem.kv_groups
    if problem.kv_heads is None or groups in (1, problem.heads):
        return []

    def change(spec: StepSpec) -> StepSpec | None:
        if spec.head is None or spec.base not in ("K", "V"):
            return None
        wrong = (spec.head - 1) % groups
        if spec.source is not None and spec.source.columns is not None:  # Q, K, V given
            start, stop = spec.source.columns
            width = stop - start
            return spec.changed(
                source=Source(spec.source.field, (wrong * width, (wrong + 1) * width))
            )
        return spec.changed(operands=(spec.operands[0], f"{head_prefix(wrong)}W_{spec.base}"))

    return [(problem, plan.changed(change), {})]


def _future(problem: Problem, plan: Plan) -> list[Run]:
    """The causal mask of a decoder left out: every query sees every key."""
    if not problem.decode:
        return []
    everything = tuple(tuple(True for _ in range(problem.m)) for _ in range(problem.n))
    return [(dataclasses.replace(problem, mask=everything), plan, {})]


@dataclass(frozen=True)
class Mistake:
    """A mistake model: where it shows, how to compute it, and (in words/) what it says."""

    id: str
    shows_in: tuple[str, ...]
    compute: Compute
    family: str = "method"  # "scale" mistakes combine with "method" and "rounding" ones
    weaker: bool = False  # only reported when no other model explains the numbers

    def message(self, words: Words, entries: str, problem: Problem, facts: dict[str, Any]) -> str:
        """This mistake's sentence in ``words``' language, naming ``entries``."""
        if problem.scale_label == "sqrt(d_k)":
            root = words("diagnosis.root_dk", d_k=problem.d_k)
        else:
            root = words("diagnosis.root_c", c=sstr(problem.scale))
        values: dict[str, Any] = {
            "entries": entries,
            "root": root,
            "d_k": problem.d_k,
            "d_model": problem.d_model,
            "d_minus": (problem.d_model or 1) - 1,
            "assignment": words.kv_groups(problem.heads, problem.kv_groups),
        }
        key = f"diagnosis.{self.id}"
        if problem.layout == "column" and words.has(f"{key}.column"):
            key += ".column"  # the rows and columns of the column layout
        if self.id == "premature_rounding":
            places = facts.get("places", 1)
            what = words(f"diagnosis.rounded.{facts.get('what', 'scores')}")
            values |= {"places": places, "what": what, "plural": "" if places == 1 else "s"}
            if "step" in facts:  # a step written too coarsely, then worked from
                key, values["step"] = "diagnosis.premature_rounding_step", facts["step"]
        return words(key, **values)


def mistake_name(words: Words, mistake_id: str, problem: Problem) -> str:
    """The short name of a mistake ("softmax down the columns"), as the layout has it."""
    key = f"mistake.{mistake_id}"
    if problem.layout == "column" and words.has(f"{key}.column"):
        key += ".column"
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
    Mistake("no_softmax", WEIGHTED, _plan_change("weights", softmax="none")),
    Mistake("softmax_wrong_axis", WEIGHTED, _plan_change("weights", softmax="columns")),
    Mistake("softmax_global", WEIGHTED, _plan_change("weights", softmax="global")),
    Mistake("exp_missing_in_softmax", WEIGHTED, _plan_change("weights", softmax="no_exp")),
    Mistake("scores_transposed", ("scores", *SCORED), _plan_change("scores", transposed=True)),
    Mistake("weights_transposed", WEIGHTED, _plan_change("weights", transposed=True)),
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
                    _on("dscaled_scores", diagonal_only=True)
                    if problem.scale is not None
                    else _on("dscores", diagonal_only=True)
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
    Mistake("pe_sin_cos_swapped", ("P", "X_pos", *POSITIONED), _pe_swapped),
    Mistake("pe_added_after_projection", POSITIONED, _pe_after_projection),
    Mistake("rope_pairs_wrong", ("Q_rot", "K_rot", "scores", *SCORED, *LATER), _rope_pairs),
    Mistake("column_layout_transposed", ("scores", *SCORED), _row_layout),
    Mistake("layernorm_unbiased_variance", BLOCK, _unbiased),
    Mistake("gqa_group_wrong", ("K", "V", "K_rot", "scores", *SCORED, *LATER), _groups_in_turn),
    Mistake("decode_uses_future", ("masked_scores", *WEIGHTED, "concat"), _future),
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
