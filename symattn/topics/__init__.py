"""The topics of docs/topics.md: one module each, in one registry.

Each topic is a :class:`~symattn.topics.base.Topic` (its keys, config, plan hooks, kinds,
mistakes, names, words of its Given section, exercise draw); the core loops over
:data:`TOPICS` in this order, which is the order of the steps they add (positions before
RoPE, a bias before a mask, a decode step before a block).  Adding a topic is one module,
its NumPy sibling, its words and one entry here (docs/architecture.md).

>>> [t.name for t in TOPICS][:3]
['positions', 'rope', 'additive']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from ..printing import add_names
from ..problem import Problem
from ..steps import Kind, Plan
from . import (
    additive,
    alibi,
    block,
    decode,
    gqa,
    masks,
    positions,
    rope,
    temperature,
    window,
)
from .base import Builder, KindRules, LoadContext, Mistake, Run, Topic

__all__ = [
    "EXCLUDES",
    "TOPICS",
    "Builder",
    "KindRules",
    "LoadContext",
    "Mistake",
    "Topic",
    "active",
    "by_name",
    "drawn",
    "fixed",
    "kind_rules",
    "kv_group",
    "laid_out",
    "mistakes",
    "numpy_paths",
    "score_divisor",
    "symbols",
]

#: The registry, in the order of the steps the topics add.
TOPICS: tuple[Topic, ...] = tuple(
    module.TOPIC
    for module in (positions, rope, additive, temperature, gqa, alibi, masks, window, decode, block)
)

#: The pairs of topics that do not combine yet: (topic, other, the reason).  The loader
#: refuses such a problem in one line, at the first topic's key.
EXCLUDES: tuple[tuple[str, str, str], ...] = (
    ("decode", "additive", "a decode step scores by the dot product"),
    ("decode", "masks", "a decode step is causal; its keys are the cached ones and its own"),
    ("decode", "window", "a decode step sees its whole cache"),
    ("decode", "alibi", "a decode step adds no bias to its cached scores"),
    ("alibi", "additive", "ALiBi biases dot-product scores"),
)

for _topic in TOPICS:
    add_names(_topic.names)


def by_name(name: str) -> Topic:
    for topic in TOPICS:
        if topic.name == name:
            return topic
    raise KeyError(name)


def active(problem: Problem) -> Iterator[tuple[Topic, Any]]:
    """The topics this problem has, in the registry's order, with their configs."""
    configs = dict(problem.topics)
    for topic in TOPICS:
        if topic.name in configs:
            yield topic, configs[topic.name]


def keys() -> tuple[str, ...]:
    """Every problem-file key the topics read."""
    return tuple(key for topic in TOPICS for key in topic.keys)


def kind_rules() -> dict[Kind, KindRules]:
    """Every topic's kinds of step."""
    return {rules.kind: rules for topic in TOPICS for rules in topic.kinds}


def _only_with(topic: Topic, mistake: Mistake) -> Mistake:
    """``mistake`` of ``topic``: computed only for problems that have the topic."""
    compute = mistake.compute

    def guarded(problem: Problem, plan: Plan) -> list[Run]:
        return compute(problem, plan) if problem.topic(topic.name) is not None else []

    return dataclasses.replace(mistake, compute=guarded)


_MISTAKES = tuple(_only_with(topic, m) for topic in TOPICS for m in topic.mistakes)


def mistakes() -> tuple[Mistake, ...]:
    """Every topic's mistake models (each computed only for the problems with its topic)."""
    return _MISTAKES


def symbols() -> dict[str, tuple[str, str]]:
    """Every topic's symbols: name → (LaTeX, Unicode)."""
    out: dict[str, tuple[str, str]] = {}
    for topic in TOPICS:
        out.update(topic.symbols)
    return out


def laid_out() -> tuple[str, ...]:
    """The topics' problem-file matrices that the column layout writes transposed."""
    return tuple(key for topic in TOPICS for key in topic.laid_out)


def drawn() -> tuple[str, ...]:
    """The topics an exercise can be drawn with (``exercises --with``): those with a draw of
    their own."""
    return tuple(t.name for t in TOPICS if type(t).draw is not Topic.draw)


def fixed() -> tuple[str, ...]:
    """The topics' names written the same in both layouts (vectors, angles)."""
    return tuple(name for topic in TOPICS for name in topic.fixed)


def numpy_paths(problem: Problem) -> list[tuple[Any, Any]]:
    """The NumPy siblings of the problem's topics, with their configs."""
    return [(topic.numpy, config) for topic, config in active(problem) if topic.numpy is not None]


def score_divisor(problem: Problem, scale: Any = None) -> Any:
    """What the scores are divided by: the scale (``scale`` in its place when given, as a
    mistake model divides by another number), times each topic's factor (the temperature);
    None when nothing divides them."""
    value = problem.scale if scale is None else scale
    for topic, config in active(problem):
        factor = topic.divisor(problem, config)
        if factor is not None:
            value = factor[0] if value is None else value * factor[0]
    return value


def divisor_label(problem: Problem) -> tuple[str, str]:
    """The divisor's label ("sqrt(d_k)", "c", with "*tau" …) and how a formula writes it
    ("√d_k", "(√d_k · τ)", the scale as the problem wrote it)."""
    root = problem.scale_label == "sqrt(d_k)"
    label, written = ("sqrt(d_k)", "√d_k") if root else ("c", problem.scale_label)
    scaled = problem.scale is not None
    for topic, config in active(problem):
        factor = topic.divisor(problem, config)
        if factor is not None:
            _, part, symbol = factor
            label, written = (
                (f"{label}*{part}", f"({written} · {symbol})") if scaled else (part, symbol)
            )
            scaled = True
    return label, written


def kv_group(problem: Problem, head: int) -> int:
    """The K/V head of query head ``head`` (0-based): its own, unless a topic groups them."""
    for topic, config in active(problem):
        group = topic.kv_group(problem, config, head)
        if group is not None:
            return group
    return head
