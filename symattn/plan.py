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
from typing import Any

from .ids import head_prefix
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
    """The gradients, from dO (or O − T) back to X and the W's."""
    p = problem
    tokens, kv_tokens = p.tokens, p.kv_tokens
    inputs: dict[str, Source] = {}
    specs: list[StepSpec] = []
    if p.dO is not None:
        specs.append(
            StepSpec(
                id="dO",
                kind=Kind.GIVEN,
                formula="dO (given)",
                source=Source("dO"),
                row_labels=tokens,
            )
        )
    else:
        specs.append(
            StepSpec(
                id="dO",
                kind=Kind.DIFFERENCE,
                formula="dO = O − T (L = ½‖O − T‖²)",
                operands=("output",),
                source=Source("target"),
                row_labels=tokens,
            )
        )
    projected = p.X is not None and p.W_Q is not None
    kv = "memory" if p.memory is not None else "X"
    sum_terms: list[str] = []

    def product(step_id: str, formula: str, left: str, right: str, **options: Any) -> None:
        spec = StepSpec(id=step_id, kind=Kind.PRODUCT, formula=formula, operands=(left, right))
        specs.append(spec.changed(**options))

    def head(prefix: str, d_o: str) -> None:
        product(
            f"{prefix}dV",
            "dV = Aᵀ dO",
            f"{prefix}weights",
            d_o,
            transpose_left=True,
            row_labels=kv_tokens,
        )
        product(
            f"{prefix}dweights",
            "dA = dO Vᵀ",
            d_o,
            f"{prefix}V",
            transpose_right=True,
            row_labels=tokens,
        )
        scaled = p.score_divisor is not None
        specs.append(
            StepSpec(
                id=f"{prefix}dscaled_scores" if scaled else f"{prefix}dscores",
                kind=Kind.JACOBIAN,
                formula="dS'_i = (diag(a_i) − a_i a_iᵀ) dA_i",
                operands=(f"{prefix}weights", f"{prefix}dweights"),
                row_labels=tokens,
            )
        )
        if scaled:
            by_root = p.scale_label == "sqrt(d_k)"
            specs.append(
                StepSpec(
                    id=f"{prefix}dscores",
                    kind=Kind.SCALE,
                    formula="dS = dS' / √d_k" if by_root else "dS = dS' / c",
                    operands=(f"{prefix}dscaled_scores",),
                    divisor=p.score_divisor,
                    divisor_label="sqrt(d_k)" if by_root else "c",
                    row_labels=tokens,
                )
            )
        product(f"{prefix}dQ", "dQ = dS K", f"{prefix}dscores", f"{prefix}K", row_labels=tokens)
        product(
            f"{prefix}dK",
            "dK = dSᵀ Q",
            f"{prefix}dscores",
            f"{prefix}Q",
            transpose_left=True,
            row_labels=kv_tokens,
        )
        if not projected:
            return
        for weight, left in (("W_Q", "X"), ("W_K", kv), ("W_V", kv)):
            grad = f"d{weight[-1]}"
            product(
                f"{prefix}d{weight}",
                f"d{weight} = {left}ᵀ {grad}",
                left,
                f"{prefix}{grad}",
                transpose_left=True,
            )
        sum_terms.extend((f"{prefix}dQ", f"{prefix}W_Q"))
        if p.memory is None:
            sum_terms.extend((f"{prefix}dK", f"{prefix}W_K", f"{prefix}dV", f"{prefix}W_V"))

    if p.heads == 1 and p.W_O is None:
        head("", "dO")
    else:
        upstream = "dO"
        if p.W_O is not None:
            product("dW_O", "dW_O = Cᵀ dO", "concat", "dO", transpose_left=True)
            product("dconcat", "dC = dO W_Oᵀ", "dO", "W_O", transpose_right=True, row_labels=tokens)
            upstream = "dconcat"
        width = p.d_v
        for t in range(p.heads):
            prefix = head_prefix(t)
            specs.append(
                StepSpec(
                    id=f"{prefix}dO",
                    kind=Kind.COLUMNS,
                    formula=f"dO of head {t + 1} = columns {t * width + 1}…{(t + 1) * width} "
                    f"of {upstream}",
                    operands=(upstream,),
                    columns=(t * width, (t + 1) * width),
                    row_labels=tokens,
                )
            )
            head(prefix, f"{prefix}dO")
    if projected:
        formula = "dX = Σ dQ W_Qᵀ" if p.heads > 1 else "dX = dQ W_Qᵀ"
        if p.memory is None:
            formula += " + dK W_Kᵀ + dV W_Vᵀ"
        specs.append(
            StepSpec(
                id="dX",
                kind=Kind.SUM_OF_PRODUCTS,
                formula=formula,
                operands=tuple(sum_terms),
                transpose_right=True,
                row_labels=tokens,
            )
        )
    return Plan(tuple(inputs.items()), tuple(specs))
