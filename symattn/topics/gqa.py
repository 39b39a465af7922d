"""Grouped-query attention (``kv_heads = g``, 1 ≤ g, g divides heads): query head t uses
K/V head ⌊t·g/heads⌋; g = 1 is multi-query attention.  Its mistake: the groups dealt out
in turn (t mod g), as ``repeat`` does where ``repeat_interleave`` is meant.

>>> from symattn.load import load
>>> p = load({"Q": [[1, 0]], "K": [[1], [0]], "V": [[1], [2]], "heads": 2,
...           "kv_heads": 1})
>>> p.topic("gqa").groups, p.d_k
(1, 1)
"""

from __future__ import annotations

import random
from typing import Any

from ..errors import SymattnError
from ..ids import head_prefix
from ..messages import Fact, Joined, Message, Voice, say_fact
from ..problem import Problem, TopicConfig
from ..steps import Plan, Source, StepSpec
from ..words import Words
from . import gqa_numpy
from .base import LoadContext, Matrices, Mistake, Run, Topic

__all__ = ["TOPIC", "GqaConfig"]


class GqaConfig(TopicConfig):
    groups: int  # K/V heads


def _in_turn(problem: Problem, plan: Plan) -> list[Run]:
    """Query head t given K/V head t mod g instead of ⌊t·g/h⌋."""
    config = problem.topic("gqa")
    groups = config.groups
    if groups in (1, problem.heads):
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


def kv_groups(heads: int, groups: int) -> Joined:
    """Which query heads share which K/V head: "heads 1 and 2 use K/V head 1; …"."""
    size = heads // groups
    parts = []
    for g in range(groups):
        members = [str(g * size + k + 1) for k in range(size)]
        names: Fact = (
            members[0]
            if size == 1
            else Message.of(
                "list.and", items=Joined(tuple(members[:-1]), "list.sep"), last=members[-1]
            )
        )
        parts.append(Message.of("derive.kv_group", heads=names, group=g + 1))
    return Joined(tuple(parts), "list.sep2")


def _assignment(problem: Problem) -> dict[str, Fact]:
    return {"assignment": kv_groups(problem.heads, problem.topic("gqa").groups)}


class Gqa(Topic):
    name = "gqa"
    asked = "kv_heads"
    keys = ("kv_heads",)
    backward = True  # refused in read when the groups are shared (kv_heads < heads)
    mistakes = (Mistake("gqa_group_wrong", ("K", "V"), _in_turn, words_facts=_assignment),)
    numpy = gqa_numpy.PATH

    def early(self, ctx: LoadContext) -> None:
        raw = ctx.data.get("kv_heads")
        if raw is None:
            return
        heads = ctx.data.get("heads", 1)
        if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw <= heads:
            found = f"expected a whole number 1 … heads = {heads}, found {raw!r}"
            raise ctx.error(found, "kv_heads")
        if heads % raw:
            raise ctx.error(
                f"{raw} K/V heads do not split {heads} query heads into equal groups; give a "
                f"divisor of {heads}",
                "kv_heads",
            )
        if raw < heads and (ctx.has("dO") or ctx.has("target")):
            raise ctx.error(
                "the backward pass of grouped K/V heads is not derived; leave out dO and target",
                "kv_heads",
            )
        ctx.kv_heads = raw

    def read(self, ctx: LoadContext) -> GqaConfig | None:
        return None if ctx.kv_heads is None else GqaConfig(ctx.kv_heads)

    def kv_group(self, problem: Problem, config: GqaConfig, head: int) -> int:
        return head * config.groups // problem.heads

    def notes(self, problem: Problem, config: GqaConfig, w: Words) -> list[tuple[Any, ...]]:
        if config.groups == 1:
            return [(w("derive.kv_one", heads=problem.heads),)]
        size = problem.heads // config.groups
        assignment = say_fact(kv_groups(problem.heads, config.groups), Voice.plain(w))
        return [
            (
                w(
                    "derive.kv_groups",
                    heads=problem.heads,
                    groups=config.groups,
                    size=size,
                    assignment=assignment,
                ),
            )
        ]

    def check_options(self, options: Any) -> None:
        if "block" in options.topics:
            raise SymattnError(
                "gqa and block do not go together (an encoder block exercise has one head)",
                option="with",
            )

    def heads(self, options: Any) -> int | None:
        return 2 if options.heads == 1 else None  # grouped-query attention needs heads

    def kv_heads(self, options: Any) -> int | None:
        """Half as many K/V heads as query heads (one for two: multi-query)."""
        return max(1, int(options.heads) // 2)

    def draws_backward(self, options: Any) -> bool:
        return False  # a drawn exercise shares its K/V heads, which is not derived backward

    def draw(
        self, rng: random.Random, options: Any, data: dict[str, Any], matrix: Matrices
    ) -> None:
        data["kv_heads"] = options.kv_heads


TOPIC = Gqa()
