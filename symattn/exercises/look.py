"""A cheap first look at a drawn exercise's scores, in floats, before anything is derived.

The look follows the topics the exercise has: positions are added to X, RoPE turns the
query and key rows, additive attention scores with tanh, the temperature divides. A draw
passes when, in every head and row, the scaled scores are small (|s| ≤ the level's
bound), not all alike, and no two alike unless ties are allowed. The exact derivation
that follows decides; this only spares it hopeless draws.

>>> data = {"X": [[1, 0], [0, 1]], "W_Q": [[1], [0]], "W_K": [[1], [2]], "scale": "sqrt(d_k)"}
>>> scaled_scores(data, None, heads=1, kv_heads=1, d_k=1)[0]
[[1.0, 2.0], [0.0, 0.0]]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

__all__ = ["scaled_scores", "scores_nice", "sinusoidal"]

Rows = list[list[float]]


def _number(value: object) -> float:
    return float(Fraction(str(value)))


def _product(a: Sequence[Sequence[float]], b: Sequence[Sequence[Any]]) -> Rows:
    columns = [[_number(v) for v in col] for col in zip(*b)]
    return [[sum(x * y for x, y in zip(row, col)) for col in columns] for row in a]


def sinusoidal(n: int, width: int) -> Rows:
    """The table of "Attention Is All You Need": sin at even, cos at odd columns."""
    return [
        [
            (math.sin if j % 2 == 0 else math.cos)(pos / 10000 ** ((j - j % 2) / width))
            for j in range(width)
        ]
        for pos in range(n)
    ]


def _rotate(rows: Rows, base: float) -> Rows:
    """RoPE: pairs (2i, 2i+1) of row pos turned by pos · base^(−2i/d)."""
    d = len(rows[0]) if rows else 0
    out = []
    for pos, row in enumerate(rows):
        turned = list(row)
        for i in range(0, d - 1, 2):
            angle = pos * base ** (-i / d)
            c, s = math.cos(angle), math.sin(angle)
            turned[i], turned[i + 1] = row[i] * c - row[i + 1] * s, row[i] * s + row[i + 1] * c
        out.append(turned)
    return out


def scaled_scores(
    data: dict[str, Any], sentence: list[str] | None, *, heads: int, kv_heads: int, d_k: int
) -> list[Rows]:
    """Each head's scaled scores (queries × keys), as the problem data asks for them."""
    if sentence is not None:
        x = [[_number(v) for v in data["embedding"][data["vocab"].index(w)]] for w in sentence]
    else:
        x = [[_number(v) for v in row] for row in data["X"]]
    positions = data.get("positions")
    if positions is not None:
        table = sinusoidal(len(x), len(x[0])) if positions == "sinusoidal" else positions
        x = [[a + _number(b) for a, b in zip(row, p)] for row, p in zip(x, table)]
    q, k = _product(x, data["W_Q"]), _product(x, data["W_K"])
    divide = (math.sqrt(d_k) if "scale" in data else 1.0) * _number(data.get("temperature", 1))
    out = []
    for head in range(heads):
        group = head * kv_heads // heads  # its K/V head
        qh = [row[head * d_k : (head + 1) * d_k] for row in q]
        kh = [row[group * d_k : (group + 1) * d_k] for row in k]
        if data.get("rope"):
            base = _number(data.get("rope_base", 10000))
            qh, kh = _rotate(qh, base), _rotate(kh, base)
        if data.get("score") == "additive":
            left, right = _product(qh, data["W_a"]), _product(kh, data["U_a"])
            v_a = [_number(v) for v in data["v_a"]]
            scores = [
                [sum(math.tanh(a + b) * v for a, b, v in zip(li, rj, v_a)) for rj in right]
                for li in left
            ]
        else:
            scores = [[sum(a * b for a, b in zip(qi, kj)) for kj in kh] for qi in qh]
        out.append([[s / divide for s in row] for row in scores])
    return out


def scores_nice(
    data: dict[str, Any],
    sentence: list[str] | None,
    *,
    heads: int,
    kv_heads: int,
    d_k: int,
    bound: float,
    causal: bool,
    ties: bool,
) -> bool:
    """Every row's scaled scores small, not all alike, and distinct unless ties are allowed."""
    for head in scaled_scores(data, sentence, heads=heads, kv_heads=kv_heads, d_k=d_k):
        for i, row in enumerate(head):
            kept = row[: i + 1] if causal else row
            if any(abs(s) > bound + 1e-9 for s in kept):
                return False
            distinct = len({round(s, 9) for s in kept})
            if len(kept) > 1 and (distinct == 1 or (distinct < len(kept) and not ties)):
                return False
    return True
