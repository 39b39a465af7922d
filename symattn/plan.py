"""The plan of a problem: which steps it has, in order, and what each is made from.

This is the one place where the structure of attention is written down.  The exact
engine, the decimal engine that evaluates mistake models, the backward pass, the
renderers and the checker all read a plan; a mistake model is a change to a plan
(:meth:`Plan.changed`).

>>> from symattn.load import load
>>> p = load({"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]]})
>>> forward_plan(p).ids
('Q', 'K', 'V', 'scores', 'scaled_scores', 'weights', 'output')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .ids import head_prefix
from .plan_backward import backward_specs
from .plan_block import BLOCK_INPUTS, block_steps, decode_steps, pre_norm_step
from .plan_positions import (
    additive_mask_spec,
    additive_specs,
    column_plan,
    position_specs,
    rope_specs,
    scale_spec,
)
from .problem import Problem
from .steps import Kind, Source, StepSpec

__all__ = ["Plan", "backward_plan", "forward_plan"]


@dataclass(frozen=True)
class Plan:
    """Steps in order, and the matrices they name that the problem gives."""

    inputs: tuple[tuple[str, Source], ...]
    specs: tuple[StepSpec, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.specs if s.shown)

    @property
    def sources(self) -> Mapping[str, Source]:
        return dict(self.inputs)

    def spec(self, step_id: str) -> StepSpec:
        return next(s for s in self.specs if s.id == step_id)

    def changed(self, change: Callable[[StepSpec], StepSpec | None]) -> Plan:
        """The plan with each spec replaced by ``change(spec)`` (None keeps it)."""
        return Plan(self.inputs, tuple(change(s) or s for s in self.specs))

    def upstream(self, step_id: str) -> tuple[str, ...]:
        """The steps that ``step_id`` is made from, directly (never given matrices)."""
        ids = {s.id for s in self.specs}
        return tuple(o for o in self.spec(step_id).operands if o in ids)

    def __add__(self, other: Plan) -> Plan:
        return Plan(self.inputs + other.inputs, self.specs + other.specs)


def _columns(block: int | None, width: int) -> tuple[int, int] | None:
    return None if block is None else (block * width, (block + 1) * width)


def forward_plan(problem: Problem) -> Plan:
    """The forward pass: tokens, X, then Q, K, V … output per head, concat, W_O."""
    p = problem
    if p.layout == "column":
        column_inputs, column_specs = column_plan(p)
        return Plan(tuple(column_inputs.items()), tuple(column_specs))
    tokens, kv_tokens = p.tokens, p.kv_tokens
    inputs: dict[str, Source] = {}
    specs: list[StepSpec] = []
    for name in ("W_Q", "W_K", "W_V", "memory"):
        if getattr(p, name) is not None:
            inputs[name] = Source(name)
    if p.lookup is not None:
        specs.append(
            StepSpec(
                id="tokens",
                kind=Kind.TOKENS,
                formula="text → tokens → ids",
                row_labels=p.lookup.tokens,
            )
        )
    if p.X is not None:
        lookup = p.lookup is not None
        specs.append(
            StepSpec(
                id="X",
                kind=Kind.LOOKUP if lookup else Kind.GIVEN,
                formula="x_i = E[id_i]" if lookup else "X (given)",
                source=Source("X"),
                row_labels=tokens,
            )
        )
    x_in = "X"
    if p.positions != "none":
        specs.extend(position_specs(p, inputs))
        x_in = "X_pos"
    for name in ("W_a", "U_a", "v_a"):
        if getattr(p, name) is not None:
            inputs[name] = Source(name)

    attended = x_in  # what the projections read: X (X̃), or LN of it in a pre-norm block
    if p.norm == "pre":
        specs.append(pre_norm_step(p, attended))
        attended = "X_norm"

    def attend(block: int | None) -> str:
        """One head (or the single head); returns the id of its output."""
        prefix = head_prefix(block)
        head = f" of head {block + 1}" if block is not None else ""
        # grouped-query attention: K and V are the block of the head's K/V group
        group = None if block is None else p.kv_group(block)
        blocks = {"Q": block, "W_Q": block}
        names = {
            n: f"{prefix}{n}" if n in blocks else f"{head_prefix(group)}{n}"
            for n in ("Q", "K", "V", "W_Q", "W_K", "W_V")
        }
        shared = f" (K/V head {group + 1})" if group is not None and p.kv_heads else ""
        if p.Q is not None and p.K is not None and p.V is not None:
            for name, width, labels in (
                ("Q", p.d_k, tokens),
                ("K", p.d_k, kv_tokens),
                ("V", p.d_v, kv_tokens),
            ):
                specs.append(
                    StepSpec(
                        id=f"{prefix}{name}",
                        kind=Kind.GIVEN,
                        formula=f"{name}{head} (given)",
                        source=Source(name, _columns(blocks.get(name, group), width)),
                        row_labels=labels,
                    )
                )
        else:
            kv = "memory" if p.memory is not None else attended
            for name, width in (("W_Q", p.d_k), ("W_K", p.d_k), ("W_V", p.d_v)):
                inputs[names[name]] = Source(name, _columns(blocks.get(name, group), width))
            for name, left, labels in (
                ("Q", attended, tokens),
                ("K", kv, kv_tokens),
                ("V", kv, kv_tokens),
            ):
                specs.append(
                    StepSpec(
                        id=f"{prefix}{name}",
                        kind=Kind.PRODUCT,
                        formula=f"{name} = {left} W_{name}{head}{shared if name != 'Q' else ''}",
                        operands=(left, names[f"W_{name}"]),
                        row_labels=labels,
                    )
                )
        current, symbol = f"{prefix}scores", "S"
        q, k = f"{prefix}Q", f"{prefix}K"
        if p.rope:
            specs.extend(rope_specs(p, prefix, head))
            q, k = f"{prefix}Q_rot", f"{prefix}K_rot"
        if p.score == "additive":
            specs.extend(additive_specs(p, prefix, q, k))
        else:
            specs.append(
                StepSpec(
                    id=current,
                    kind=Kind.PRODUCT,
                    formula="S = Q Kᵀ",
                    operands=(q, k),
                    transpose_right=True,
                    row_labels=tokens,
                    col_labels=kv_tokens,
                )
            )
        if p.score_divisor is not None:
            specs.append(scale_spec(p, prefix, current))
            current, symbol = f"{prefix}scaled_scores", "S'"
        if p.mask_add is not None:
            specs.append(additive_mask_spec(p, prefix, current, symbol, inputs, "row"))
            current, symbol = f"{prefix}masked_scores", "M"
        elif p.mask is not None:
            specs.append(
                StepSpec(
                    id=f"{prefix}masked_scores",
                    kind=Kind.MASK,
                    formula=f"M = {symbol} + mask (−∞ where masked)",
                    operands=(current,),
                    row_labels=tokens,
                    col_labels=kv_tokens,
                )
            )
            current, symbol = f"{prefix}masked_scores", "M"
        specs.append(
            StepSpec(
                id=f"{prefix}weights",
                kind=Kind.SOFTMAX,
                formula=f"A = softmax({symbol}) (row by row)",
                operands=(current,),
                row_labels=tokens,
                col_labels=kv_tokens,
            )
        )
        specs.append(
            StepSpec(
                id=f"{prefix}output",
                kind=Kind.WEIGHTED_SUM,
                formula="O = A V",
                operands=(f"{prefix}weights", f"{prefix}V"),
                row_labels=tokens,
            )
        )
        return f"{prefix}output"

    if p.heads == 1 and p.W_O is None:
        attend(None)
    else:
        outputs = tuple(attend(t) for t in range(p.heads))
        parts = ", ".join(f"O{t + 1}" for t in range(p.heads))
        specs.append(
            StepSpec(
                id="concat",
                kind=Kind.CONCAT,
                formula=f"C = concat({parts})",
                operands=outputs,
                row_labels=tokens,
            )
        )
        if p.W_O is not None:
            inputs["W_O"] = Source("W_O")
            specs.append(
                StepSpec(
                    id="output",
                    kind=Kind.PRODUCT,
                    formula="O = C W_O",
                    operands=("concat", "W_O"),
                    row_labels=tokens,
                )
            )
        else:
            specs.append(
                StepSpec(
                    id="output",
                    kind=Kind.COPY,
                    formula="O = C",
                    operands=("concat",),
                    row_labels=tokens,
                )
            )
    if p.decode:
        for t in range(p.heads) if p.heads > 1 or p.W_O is not None else (None,):
            specs.extend(decode_steps(p, head_prefix(t)))
    if p.norm is not None:
        inputs.update((name, Source(name)) for name in BLOCK_INPUTS)
        specs.extend(block_steps(p, x_in, "output"))
    return Plan(tuple(inputs.items()), tuple(specs))


def backward_plan(problem: Problem) -> Plan:
    """The gradients, from dO (or O − T) back to X and the W's (:mod:`.plan_backward`)."""
    inputs, specs = backward_specs(problem)
    return Plan(tuple(inputs.items()), tuple(specs))
