"""More of the attention unit in an exercise (``exercises --with …``): what each topic
adds to a drawn problem.

Each topic is one function in :data:`TOPICS` that adds its keys to the problem data;
the exercise is then drawn, checked and derived like any other, its sheet gives what the
key's own Given section gives, and its steps are the key's steps.

* ``gqa``: grouped-query attention — half as many K/V heads as query heads (one K/V
  head for two query heads: multi-query), two query heads unless more are asked for;
* ``block``: an encoder block after the attention — residual, LayerNorm (post-norm, ε = 0)
  and a ReLU feed-forward network of width d_model + 1, with small integer weights.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

__all__ = ["TOPICS"]


class _Matrix(Protocol):
    def __call__(self, rows: int, cols: int, largest: int, sparse: bool = False) -> Any: ...


Draw = Callable[[random.Random, Any, dict[str, Any], _Matrix], None]


def _gqa(rng: random.Random, options: Any, data: dict[str, Any], matrix: _Matrix) -> None:
    data["kv_heads"] = options.kv_heads


def _block(rng: random.Random, options: Any, data: dict[str, Any], matrix: _Matrix) -> None:
    _, d_model, _, _ = options.shape
    d_ff = d_model + 1
    data |= {
        "block": True,
        "norm": "post",
        "W_1": matrix(d_model, d_ff, 1, sparse=True),
        "b_1": [rng.choice((0, 0, 1)) for _ in range(d_ff)],
        "W_2": matrix(d_ff, d_model, 1, sparse=True),
    }


#: Topic → what it adds to a drawn problem.
TOPICS: dict[str, Draw] = {"gqa": _gqa, "block": _block}
