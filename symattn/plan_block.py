"""The plan's steps of a decode step and an encoder block, which
:func:`symattn.plan.forward_plan` adds after attention (the block's pre-norm before it).

* decode: ``cache_K``, ``cache_V`` (rows 1 … n−1 of K and V; of K̂ with RoPE, as a
  decoder caches its rotated keys) and ``decode``: the last query attends to the cached
  keys and its own, never the future — the last row of the output again, as one step of
  a decoder with a K/V cache, divided by the same √d_k (and temperature) as the scores;
* block: ``X_norm`` (pre-norm: LN(X), what attention reads), ``residual``, ``norm``,
  ``ffn_hidden``, ``ffn_output``, ``block_output``; with positions the block's input is
  X̃ = X + P (the residual adds X̃ back, a pre-norm block normalises X̃).

>>> from symattn.load import load
>>> p = load({"X": [[1, 0], [0, 1]], "W_Q": [[1, 0], [0, 1]], "W_K": [[1, 0], [0, 1]],
...           "W_V": [[1, 0], [0, 1]], "decode": True})
>>> [s.id for s in decode_steps(p, "")]
['cache_K', 'cache_V', 'decode']
"""

from __future__ import annotations

from .problem import Problem
from .steps import Kind, StepSpec

__all__ = ["BLOCK_INPUTS", "block_steps", "decode_steps", "pre_norm_step"]

#: The matrices of a block that the problem gives.
BLOCK_INPUTS = ("W_1", "b_1", "W_2", "b_2")


def decode_steps(problem: Problem, prefix: str) -> list[StepSpec]:
    """The K/V cache of the first n − 1 tokens and the last token's decoding step."""
    p = problem
    n = p.n
    cached = p.tokens[: n - 1] if p.tokens else None
    head = f" of head {prefix[1:-1]}" if prefix else ""
    rot = "_rot" if p.rope else ""  # RoPE: the rotated queries and keys
    sources = {"K": f"K{rot}", "V": "V"}
    specs = [
        StepSpec(
            id=f"{prefix}cache_{name}",
            kind=Kind.ROWS,
            formula=f"{name}_cache = rows 1…{n - 1} of {sources[name]}{head}",
            operands=(f"{prefix}{sources[name]}",),
            rows=(0, n - 1),
            row_labels=cached,
        )
        for name in ("K", "V")
    ]
    root = p.scale_label == "sqrt(d_k)"
    label = "√d_k" if root else "c"
    if p.temperature is not None:
        label = f"({label} · τ)" if p.scale is not None else "τ"
    scaled = "" if p.score_divisor is None else f" / {label}"
    divisor_label = "sqrt(d_k)" if root else "c"
    if p.temperature is not None:
        divisor_label = f"{divisor_label}*tau" if p.scale is not None else "tau"
    specs.append(
        StepSpec(
            id=f"{prefix}decode",
            kind=Kind.DECODE,
            formula=f"o_n = softmax(q_n [K_cache; k_n]ᵀ{scaled}) [V_cache; v_n]",
            operands=(
                f"{prefix}Q{rot}",
                f"{prefix}cache_K",
                f"{prefix}cache_V",
                f"{prefix}K{rot}",
                f"{prefix}V",
            ),
            divisor=p.score_divisor,
            divisor_label=divisor_label,
            row_labels=p.tokens[n - 1 :] if p.tokens else None,
        )
    )
    return specs


_LETTERS = {"X": "X", "X_pos": "X̃", "residual": "R", "norm": "Z", "ffn_output": "F"}
_RESULTS = {"X_norm": "X̂", "norm": "Z", "block_output": "Y"}


def _layer_norm(step_id: str, operand: str, problem: Problem, plus: str | None = None) -> StepSpec:
    """LN over each row of ``operand`` (of ``operand + plus``)."""
    name = _LETTERS.get(operand, operand)
    if plus is not None:
        name = f"{name} + {_LETTERS.get(plus, plus)}"
    return StepSpec(
        id=step_id,
        kind=Kind.LAYERNORM,
        formula=f"{_RESULTS[step_id]} = LN({name}), row by row: γ (x − μ) / √(σ² + ε) + β",
        operands=(operand,) if plus is None else (operand, plus),
        row_labels=problem.tokens,
    )


def pre_norm_step(problem: Problem, operand: str) -> StepSpec:
    """Pre-norm: attention reads LN(X)."""
    return _layer_norm("X_norm", operand, problem)


def block_steps(problem: Problem, x: str, output: str) -> list[StepSpec]:
    """Residual, LayerNorm and the ReLU feed-forward network after attention."""
    p = problem
    tokens = p.tokens
    pre = p.norm == "pre"
    specs = [
        StepSpec(
            id="residual",
            kind=Kind.ADD,
            formula=f"R = {_LETTERS.get(x, x)} + O",
            operands=(x, output),
            row_labels=tokens,
        ),
        _layer_norm("norm", "residual", p),
        StepSpec(
            id="ffn_hidden",
            kind=Kind.AFFINE,
            formula="H = ReLU(Z W_1 + b_1)",
            operands=("norm", "W_1", "b_1"),
            activation="relu",
            row_labels=tokens,
        ),
        StepSpec(
            id="ffn_output",
            kind=Kind.AFFINE,
            formula="F = H W_2 + b_2",
            operands=("ffn_hidden", "W_2", "b_2"),
            row_labels=tokens,
        ),
    ]
    if pre:
        specs.append(
            StepSpec(
                id="block_output",
                kind=Kind.ADD,
                formula="Y = R + F",
                operands=("residual", "ffn_output"),
                row_labels=tokens,
            )
        )
    else:  # post-norm: Y = LN(Z + F), the sum written out inside the step
        specs.append(_layer_norm("block_output", "norm", p, "ffn_output"))
    return specs
