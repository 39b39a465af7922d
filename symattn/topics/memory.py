"""Cross-attention (``memory``, ``memory_tokens``): the keys and values come from a
memory of its own rows (an encoder's output), K = memory W_K and V = memory W_V, while
the queries come from X.  The memory may have its own width d_mem (PyTorch's kdim and
vdim): W_K and W_V then have d_mem rows.

The core reads the memory where it reads X (its shape decides m, the number of keys, and
d_mem) because this topic names it as the keys' source (:class:`KeysSource`); the plan
then projects K and V from it, and the backward pass gives dX only its dQ term.

>>> from symattn.load import load
>>> p = load({"X": [[1, 0]], "memory": [[1, 0, 1], [0, 1, 1]], "W_Q": [[1], [0]],
...           "W_K": [[1], [0], [1]], "W_V": [[1], [1], [0]]})
>>> p.keys_from, p.m, p.shapes.as_dict()["d_mem"]
('memory', 2, 3)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from ..printing import Names
from ..problem import KeysSource, Matrix, TopicConfig
from . import memory_numpy
from .base import LoadContext, Topic

__all__ = ["TOPIC", "MemoryConfig"]


class MemoryConfig(TopicConfig):
    memory: Matrix  # exact, in the row layout
    tokens: tuple[str, ...] | None = None  # memory_tokens

    def givens(self) -> Mapping[str, Matrix]:
        return {"memory": self.memory}

    def keys_from(self) -> str:
        return "memory"

    def key_tokens(self) -> tuple[str, ...] | None:
        return self.tokens


class Memory(Topic):
    name = "memory"
    asked = "memory"
    keys = ("memory", "memory_tokens")
    backward = True
    keys_source = KeysSource("memory", "d_mem", "memory_tokens")
    laid_out = ("memory",)
    shown = ("memory",)
    names: ClassVar[Mapping[str, Names]] = {"memory": Names("m", "m", "m", "M", "M", "M")}
    symbols: ClassVar[Mapping[str, tuple[str, str]]] = {"d_mem": (r"d_{\text{mem}}", "d_mem")}
    numpy = memory_numpy.PATH

    def read(self, ctx: LoadContext) -> MemoryConfig | None:
        if not ctx.has("memory"):
            return None  # memory_tokens alone: the core has refused them
        tokens = ctx.data.get("memory_tokens")  # the core has checked them (one per row)
        return MemoryConfig(ctx.matrix("memory"), None if tokens is None else tuple(tokens))


TOPIC = Memory()
