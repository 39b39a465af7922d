"""More of the attention unit in an exercise (``exercises --with …``): what each topic
adds to a drawn problem.

Each topic is one function in :data:`TOPICS` that adds its keys to the problem data;
the exercise is then drawn, checked and derived like any other, its sheet gives what the
key's own Given section gives, and its steps are the key's steps.

* ``gqa``: grouped-query attention — half as many K/V heads as query heads (one K/V
  head for two query heads: multi-query), two query heads unless more are asked for;
* ``block``: an encoder block after the attention — residual, LayerNorm (post-norm, ε = 0)
  and a ReLU feed-forward network of width d_model + 1, with small integer weights;
* ``positions``: X + P before the projections — at levels 1 and 2 P is given, the
  sinusoidal table rounded to one decimal place (row 0 is exactly 0, 1, 0, 1, …); at
  level 3 P is the sinusoidal table itself, to be worked out (sin and cos exact);
* ``rope``: rotary position embedding of the queries and keys (base 10000; d_k even);
* ``temperature``: the scaled scores divided by τ = 2 (at level 3, τ = 2 or 1/2);
* ``additive``: additive (Bahdanau) scores s_ij = tanh(q_i W_a + k_j U_a) · v_a with
  d_a = 2, W_a and U_a in −1 … 1, v_a in {−1, 1, 2}, not scaled.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from .look import sinusoidal

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


def _short(value: float) -> str:
    """One decimal place, as a course's table prints it: 0.8415 → "0.8", 1.0 → "1"."""
    text = f"{round(value, 1):.1f}".removesuffix(".0")
    return "0" if text == "-0" else text


def _positions(rng: random.Random, options: Any, data: dict[str, Any], matrix: _Matrix) -> None:
    n, d_model, _, _ = options.shape
    if options.level < 3:
        data["positions"] = [[_short(v) for v in row] for row in sinusoidal(n, d_model)]
    else:
        data["positions"] = "sinusoidal"


def _rope(rng: random.Random, options: Any, data: dict[str, Any], matrix: _Matrix) -> None:
    data["rope"] = True


def _temperature(rng: random.Random, options: Any, data: dict[str, Any], matrix: _Matrix) -> None:
    data["temperature"] = "2" if options.level < 3 else rng.choice(("2", "1/2"))


#: The width of the additive attention's hidden layer.
D_A = 2


def _additive(rng: random.Random, options: Any, data: dict[str, Any], matrix: _Matrix) -> None:
    d_k = options.shape[2]
    data.pop("scale", None)  # additive scores are not scaled
    data |= {
        "score": "additive",
        "W_a": matrix(d_k, D_A, 1, sparse=True),
        "U_a": matrix(d_k, D_A, 1, sparse=True),
        "v_a": [rng.choice((-1, 1, 2)) for _ in range(D_A)],
    }


#: Topic → what it adds to a drawn problem, in the order ``--with`` lists them.
TOPICS: dict[str, Draw] = {
    "positions": _positions,
    "rope": _rope,
    "temperature": _temperature,
    "gqa": _gqa,
    "block": _block,
    "additive": _additive,
}
