"""The plan of a problem: which steps it has, in order, and what each is made from.

This is the one place where the structure of attention is written down.  The exact
engine, the decimal engine that evaluates mistake models, the backward pass, the
renderers and the checker all read a plan; a mistake model is a change to a plan
(:meth:`~symattn.steps.Plan.changed`).  The topics of the problem (:mod:`symattn.topics`)
add their steps at named points: after X, after a head's Q and K, in place of the scores,
on the scaled scores, and after attention.  The plan is always in the row layout.

>>> from symattn.load import load
>>> p = load({"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]]})
>>> forward_plan(p).ids
('Q', 'K', 'V', 'scores', 'scaled_scores', 'weights', 'output')
"""

from __future__ import annotations

from .ids import head_prefix
from .plan_backward import backward_specs
from .problem import Problem
from .steps import Kind, Plan, Source, StepSpec
from .topics import active, divisor_label, kv_group, score_divisor
from .topics.base import Builder, Head

__all__ = ["Plan", "backward_plan", "forward_plan"]


def _columns(block: int | None, width: int) -> tuple[int, int] | None:
    return None if block is None else (block * width, (block + 1) * width)


def _start(b: Builder) -> None:
    """tokens and X, then what the topics do before the projections."""
    p = b.problem
    for name in ("W_Q", "W_K", "W_V"):
        if getattr(p, name) is not None:
            b.inputs[name] = Source(name)
    if p.keys_from is not None:  # a topic's matrix that K and V come from (a memory)
        b.inputs[p.keys_from] = Source(p.keys_from)
    if p.lookup is not None:
        b.add(
            StepSpec(
                id="tokens",
                kind=Kind.TOKENS,
                row_labels=p.lookup.tokens,
            )
        )
    if p.X is not None:
        lookup = p.lookup is not None
        b.add(
            StepSpec(
                id="X",
                kind=Kind.LOOKUP if lookup else Kind.GIVEN,
                source=Source("X"),
                row_labels=p.tokens,
            )
        )
    for topic, config in active(p):
        topic.after_x(b, config)


def _projections(b: Builder, block: int | None) -> None:
    """A head's Q, K and V: given, or X W (K and V of its K/V group with grouped heads)."""
    p, prefix = b.problem, b.prefix
    group = None if block is None else kv_group(p, block)
    blocks = {"Q": block, "W_Q": block}
    names = {
        n: f"{prefix}{n}" if n in blocks else f"{head_prefix(group)}{n}"
        for n in ("Q", "K", "V", "W_Q", "W_K", "W_V")
    }
    if p.Q is not None and p.K is not None and p.V is not None:
        for name, width, labels in (
            ("Q", p.d_k, p.tokens),
            ("K", p.d_k, p.kv_tokens),
            ("V", p.d_v, p.kv_tokens),
        ):
            b.add(
                StepSpec(
                    id=f"{prefix}{name}",
                    kind=Kind.GIVEN,
                    source=Source(name, _columns(blocks.get(name, group), width)),
                    row_labels=labels,
                )
            )
        return
    kv = p.keys_from or b.attended
    for name, width in (("W_Q", p.d_k), ("W_K", p.d_k), ("W_V", p.d_v)):
        b.inputs[names[name]] = Source(name, _columns(blocks.get(name, group), width))
    for name, left, labels in (
        ("Q", b.attended, p.tokens),
        ("K", kv, p.kv_tokens),
        ("V", kv, p.kv_tokens),
    ):
        b.add(
            StepSpec(
                id=f"{prefix}{name}",
                kind=Kind.PRODUCT,
                operands=(left, names[f"W_{name}"]),
                row_labels=labels,
            )
        )


def _attend(b: Builder, block: int | None) -> str:
    """One head (or the single head): its steps, in order; returns its output's id."""
    p = b.problem
    prefix = head_prefix(block)
    b.head = Head(prefix, block, f"{prefix}Q", f"{prefix}K", f"{prefix}V", f"{prefix}output")
    b.heads.append(b.head)
    _projections(b, block)
    topics = list(active(p))
    for topic, config in topics:
        topic.after_qk(b, config)
    b.scored(f"{prefix}scores", "S")
    if not any(topic.scores(b, config) for topic, config in topics):
        b.add(
            StepSpec(
                id=b.current,
                kind=Kind.PRODUCT,
                operands=(b.head.q, b.head.k),
                transpose_right=True,
                row_labels=p.tokens,
                col_labels=p.kv_tokens,
            )
        )
    if b.divisor is not None:
        b.scored(
            b.add(
                StepSpec(
                    id=f"{prefix}scaled_scores",
                    kind=Kind.SCALE,
                    operands=(b.current,),
                    divisor=b.divisor,
                    divisor_label=b.divisor_label,
                    row_labels=p.tokens,
                    col_labels=p.kv_tokens,
                )
            ),
            "S'",
        )
    for topic, config in topics:
        topic.on_scores(b, config)
    if p.mask is not None:
        b.scored(
            b.add(
                StepSpec(
                    id=f"{prefix}masked_scores",
                    kind=Kind.MASK,
                    operands=(b.current,),
                    row_labels=p.tokens,
                    col_labels=p.kv_tokens,
                )
            ),
            "M",
        )
    weights = b.add(
        StepSpec(
            id=f"{prefix}weights",
            kind=Kind.SOFTMAX,
            operands=(b.current,),
            row_labels=p.tokens,
            col_labels=p.kv_tokens,
        )
    )
    return b.add(
        StepSpec(
            id=f"{prefix}output",
            kind=Kind.WEIGHTED_SUM,
            operands=(weights, b.head.v),
            row_labels=p.tokens,
        )
    )


def forward_plan(problem: Problem) -> Plan:
    """The forward pass: tokens, X, then Q, K, V … output per head, concat, W_O."""
    p = problem
    b = Builder(p)
    b.divisor = score_divisor(p)
    b.divisor_label, b.divisor_words = divisor_label(p)
    _start(b)
    if p.heads == 1 and p.W_O is None:
        _attend(b, None)
    else:
        outputs = tuple(_attend(b, t) for t in range(p.heads))
        b.add(
            StepSpec(
                id="concat",
                kind=Kind.CONCAT,
                operands=outputs,
                row_labels=p.tokens,
            )
        )
        if p.W_O is not None:
            b.inputs["W_O"] = Source("W_O")
            b.add(
                StepSpec(
                    id="output",
                    kind=Kind.PRODUCT,
                    operands=("concat", "W_O"),
                    row_labels=p.tokens,
                )
            )
        else:
            b.add(
                StepSpec(
                    id="output",
                    kind=Kind.COPY,
                    operands=("concat",),
                    row_labels=p.tokens,
                )
            )
    for topic, config in active(p):
        topic.after_attention(b, config)
    return Plan(tuple(b.inputs.items()), tuple(b.specs))


def backward_plan(problem: Problem) -> Plan:
    """The gradients, from dO (or O − T) back to X and the W's (:mod:`.plan_backward`)."""
    inputs, specs = backward_specs(problem)
    return Plan(tuple(inputs.items()), tuple(specs))


def result_step(problem: Problem) -> str:
    """The step a derivation's Result shows: the output, or a topic's last step."""
    for topic, config in active(problem):
        found = topic.result(problem, config)
        if found is not None:
            return found
    return "output"
