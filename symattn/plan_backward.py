"""The backward pass's steps, which :func:`symattn.plan.backward_plan` makes a plan of:
dO (given, or O − T for L = ½‖O − T‖²), then for each head dV, dA, the Jacobian of the
softmax, dS (through the scale), dQ, dK and the W's gradients, and dX.

>>> from symattn.load import load
>>> p = load({"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]], "dO": [[1]]})
>>> [s.id for s in backward_specs(p)[1]]
['dO', 'dV', 'dweights', 'dscaled_scores', 'dscores', 'dQ', 'dK']
"""

from __future__ import annotations

from typing import Any

from .ids import head_prefix
from .problem import Problem
from .steps import Kind, Source, StepSpec
from .topics import score_divisor

__all__ = ["backward_specs"]


def backward_specs(problem: Problem) -> tuple[dict[str, Source], list[StepSpec]]:
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
                source=Source("dO"),
                row_labels=tokens,
            )
        )
    else:
        specs.append(
            StepSpec(
                id="dO",
                kind=Kind.DIFFERENCE,
                operands=("output",),
                source=Source("target"),
                row_labels=tokens,
            )
        )
    projected = p.X is not None and p.W_Q is not None
    kv = p.keys_from or "X"  # a topic's matrix that K and V come from (a memory), or X
    sum_terms: list[str] = []

    def product(step_id: str, left: str, right: str, **options: Any) -> None:
        spec = StepSpec(id=step_id, kind=Kind.PRODUCT, operands=(left, right))
        specs.append(spec.changed(**options))

    def head(prefix: str, d_o: str) -> None:
        product(
            f"{prefix}dV",
            f"{prefix}weights",
            d_o,
            transpose_left=True,
            row_labels=kv_tokens,
        )
        product(
            f"{prefix}dweights",
            d_o,
            f"{prefix}V",
            transpose_right=True,
            row_labels=tokens,
        )
        scaled = score_divisor(p) is not None
        specs.append(
            StepSpec(
                id=f"{prefix}dscaled_scores" if scaled else f"{prefix}dscores",
                kind=Kind.JACOBIAN,
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
                    operands=(f"{prefix}dscaled_scores",),
                    divisor=score_divisor(p),
                    divisor_label="sqrt(d_k)" if by_root else "c",
                    row_labels=tokens,
                )
            )
        product(f"{prefix}dQ", f"{prefix}dscores", f"{prefix}K", row_labels=tokens)
        product(
            f"{prefix}dK",
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
                left,
                f"{prefix}{grad}",
                transpose_left=True,
            )
        sum_terms.extend((f"{prefix}dQ", f"{prefix}W_Q"))
        if p.keys_from is None:  # dX has a dK and a dV term only when K and V come from X
            sum_terms.extend((f"{prefix}dK", f"{prefix}W_K", f"{prefix}dV", f"{prefix}W_V"))

    if p.heads == 1 and p.W_O is None:
        head("", "dO")
    else:
        upstream = "dO"
        if p.W_O is not None:
            product("dW_O", "concat", "dO", transpose_left=True)
            product("dconcat", "dO", "W_O", transpose_right=True, row_labels=tokens)
            upstream = "dconcat"
        width = p.d_v
        for t in range(p.heads):
            prefix = head_prefix(t)
            specs.append(
                StepSpec(
                    id=f"{prefix}dO",
                    kind=Kind.COLUMNS,
                    operands=(upstream,),
                    columns=(t * width, (t + 1) * width),
                    row_labels=tokens,
                )
            )
            head(prefix, f"{prefix}dO")
    if projected:
        specs.append(
            StepSpec(
                id="dX",
                kind=Kind.SUM_OF_PRODUCTS,
                operands=tuple(sum_terms),
                transpose_right=True,
                row_labels=tokens,
            )
        )
    return inputs, specs
