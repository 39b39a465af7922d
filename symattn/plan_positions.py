"""The steps of docs/topics.md that :func:`symattn.plan.forward_plan` adds: positions, RoPE,
additive attention, the additive mask, the temperature in the scale, and the whole plan
of the column layout (tokens are columns: Q = W_Q X, S = Kᵀ Q, softmax down each
column, O = V A).

Each function returns specs (and names the given matrices it needs in ``inputs``);
:mod:`symattn.plan` puts them where they belong.

>>> from symattn.load import load
>>> p = load({"X": [[1, 0], [0, 1]], "W_Q": [[1, 0], [0, 1]], "W_K": [[1, 0], [0, 1]],
...           "W_V": [[1, 0], [0, 1]], "positions": "sinusoidal"})
>>> [s.id for s in position_specs(p, {})]
['P', 'X_pos']
"""

from __future__ import annotations

from .numbers import Surd
from .problem import Problem
from .steps import Kind, Source, StepSpec

__all__ = [
    "additive_mask_spec",
    "additive_specs",
    "column_plan",
    "position_specs",
    "rope_specs",
    "scale_spec",
]


def position_specs(p: Problem, inputs: dict[str, Source]) -> list[StepSpec]:
    """P (sinusoidal or given) and X_pos = X + P, before the projections."""
    if p.positions == "given":
        first = StepSpec(
            id="P",
            kind=Kind.GIVEN,
            formula="P (given)",
            source=Source("P"),
            row_labels=p.tokens,
        )
    else:
        first = StepSpec(
            id="P",
            kind=Kind.POSITIONS,
            formula="P_{pos,2i} = sin(pos / 10000^{2i/d_model}), P_{pos,2i+1} = cos(pos / "
            "10000^{2i/d_model})",
            angle_base=_base(),
            row_labels=p.tokens,
        )
    return [
        first,
        StepSpec(
            id="X_pos",
            kind=Kind.ADD,
            formula="X̃ = X + P",
            operands=("X", "P"),
            row_labels=p.tokens,
        ),
    ]


def _base() -> Surd:
    return Surd.rational(10000)


def rope_specs(p: Problem, prefix: str, head: str) -> list[StepSpec]:
    """Q_rot and K_rot: each pair (2i, 2i+1) of row pos turned by pos · base^(−2i/d_k)."""
    out = []
    for name, labels in (("Q", p.tokens), ("K", p.kv_tokens)):
        out.append(
            StepSpec(
                id=f"{prefix}{name}_rot",
                kind=Kind.ROTATE,
                formula=f"{name}̂{head}: pairs (2i, 2i+1) of row pos turned by θ = pos · "
                "base^(−2i/d_k)",
                operands=(f"{prefix}{name}",),
                angle_base=p.rope_base,
                row_labels=labels,
            )
        )
    return out


def additive_specs(p: Problem, prefix: str, q: str, k: str) -> list[StepSpec]:
    """Bahdanau: h_ij = q_i W_a + k_j U_a (one row per pair), s_ij = tanh(h_ij) · v_a."""
    kv = p.kv_tokens
    pairs = None
    if p.tokens is not None and kv is not None:
        pairs = tuple(f"{a}→{b}" for a in p.tokens for b in kv)
    else:
        pairs = tuple(f"{i + 1},{j + 1}" for i in range(p.n) for j in range(p.m))
    return [
        StepSpec(
            id=f"{prefix}additive_hidden",
            kind=Kind.ADDITIVE_HIDDEN,
            formula="h_ij = q_i W_a + k_j U_a",
            operands=(q, k, "W_a", "U_a"),
            row_labels=pairs,
        ),
        StepSpec(
            id=f"{prefix}scores",
            kind=Kind.TANH_SCORE,
            formula="s_ij = tanh(h_ij) · v_a",
            operands=(f"{prefix}additive_hidden", "v_a"),
            row_labels=p.tokens,
            col_labels=kv,
        ),
    ]


def scale_spec(p: Problem, prefix: str, current: str, layout: str = "row") -> StepSpec:
    """S' = S / c, with the temperature: S' = S / (c τ)."""
    root = p.scale_label == "sqrt(d_k)"
    label, words = ("sqrt(d_k)", "√d_k") if root else ("c", p.scale_label)
    if p.temperature is not None:
        label, words = (f"{label}*tau", f"({words} · τ)") if p.scale is not None else ("tau", "τ")
    rows, cols = (p.kv_tokens, p.tokens) if layout == "column" else (p.tokens, p.kv_tokens)
    return StepSpec(
        id=f"{prefix}scaled_scores",
        kind=Kind.SCALE,
        formula=f"S' = S / {words}",
        operands=(current,),
        divisor=p.score_divisor,
        divisor_label=label,
        row_labels=rows,
        col_labels=cols,
    )


def additive_mask_spec(
    p: Problem, prefix: str, current: str, symbol: str, inputs: dict[str, Source], layout: str
) -> StepSpec:
    """M = S' + mask, the mask's numbers (−99, −∞) added entry by entry."""
    inputs["mask"] = Source("mask_add", transposed=layout == "column")
    rows, cols = (p.kv_tokens, p.tokens) if layout == "column" else (p.tokens, p.kv_tokens)
    return StepSpec(
        id=f"{prefix}masked_scores",
        kind=Kind.ADD,
        formula=f"M = {symbol} + mask",
        operands=(current, "mask"),
        row_labels=rows,
        col_labels=cols,
    )


def column_plan(p: Problem) -> tuple[dict[str, Source], list[StepSpec]]:
    """The column layout, as the AI-by-hand sheets write it: tokens are columns."""
    tokens, kv_tokens = p.tokens, p.kv_tokens
    inputs: dict[str, Source] = {}
    specs: list[StepSpec] = []
    column = "column"
    if p.X is not None:
        specs.append(
            StepSpec(
                id="X",
                kind=Kind.GIVEN,
                formula="X (given; column i is token i)",
                source=Source("X", transposed=True),
                col_labels=tokens,
            )
        )
    if p.Q is not None and p.K is not None and p.V is not None:
        for name, labels in (("Q", tokens), ("K", kv_tokens), ("V", kv_tokens)):
            specs.append(
                StepSpec(
                    id=name,
                    kind=Kind.GIVEN,
                    formula=f"{name} (given; column i is token i)",
                    source=Source(name, transposed=True),
                    col_labels=labels,
                )
            )
    else:
        kv = "memory" if p.memory is not None else "X"
        for name in ("W_Q", "W_K", "W_V", "memory"):
            if getattr(p, name) is not None:
                inputs[name] = Source(name, transposed=True)
        for name, right, labels in (("Q", "X", tokens), ("K", kv, kv_tokens), ("V", kv, kv_tokens)):
            specs.append(
                StepSpec(
                    id=name,
                    kind=Kind.PRODUCT,
                    formula=f"{name} = W_{name} {right}",
                    operands=(f"W_{name}", right),
                    col_labels=labels,
                )
            )
    current, symbol = "scores", "S"
    specs.append(
        StepSpec(
            id="scores",
            kind=Kind.PRODUCT,
            formula="S = Kᵀ Q",
            operands=("K", "Q"),
            transpose_left=True,
            row_labels=kv_tokens,
            col_labels=tokens,
        )
    )
    if p.score_divisor is not None:
        specs.append(scale_spec(p, "", current, column))
        current, symbol = "scaled_scores", "S'"
    if p.mask_add is not None:
        specs.append(additive_mask_spec(p, "", current, symbol, inputs, column))
        current, symbol = "masked_scores", "M"
    elif p.mask is not None:
        specs.append(
            StepSpec(
                id="masked_scores",
                kind=Kind.MASK,
                formula=f"M = {symbol} + mask (−∞ where masked)",
                operands=(current,),
                layout=column,
                row_labels=kv_tokens,
                col_labels=tokens,
            )
        )
        current, symbol = "masked_scores", "M"
    specs.append(
        StepSpec(
            id="weights",
            kind=Kind.SOFTMAX,
            formula=f"A = softmax({symbol}) (column by column)",
            operands=(current,),
            layout=column,
            row_labels=kv_tokens,
            col_labels=tokens,
        )
    )
    specs.append(
        StepSpec(
            id="output",
            kind=Kind.WEIGHTED_SUM,
            formula="O = V A",
            operands=("V", "weights"),
            layout=column,
            col_labels=tokens,
        )
    )
    return inputs, specs
