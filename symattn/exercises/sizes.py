"""Sizes that cannot have nice numbers, refused before anything is drawn.

Without a topic that moves the scores off their grid (positions added, turns, biases, a
score of its own), a row's scores are whole numbers divided by √d_k (and τ): n distinct ones are
at least a step of 1/√d_k apart, so their weights spread out as n grows, and from some n
the smallest falls below 0.02 (or, with few keys, the largest rises above 0.9).  With
d_k ≥ 2 the draw builds them (:mod:`.build`): n distinct whole numbers, none 0, within
±((d_model − 1)·top + 1), the reach of X's small integers; a size where no such row is
nice is refused here, with the most tokens this d_model, d_k and level can take.  With
d_k = 1 (asked for: by default d_k ≥ 2 but for two tokens) nothing is built, and
more than 2 tokens are refused: that is the draw's limit, not one of mathematics.
With d_model = 1 the draw makes at most 2 tokens (a limit of the draw too), every
score is c·x_i·x_j ÷ √d_k and the few such rows are tried one by one; and every column
of V is X times one entry of W_V, so h·d_v columns, all different, need h·d_v ≤ 2·top.
At level 1 only the largest weight and the scores' bound count (there is no smallest
weight); with ties allowed nothing is refused.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from typing import Any

from ..topics.draw import divisors, keeps, scores_kind
from .build import key_values, one_wide, reach

__all__ = ["size_refusal"]


def _row_nice(row: list[float], bound: float, floor: bool) -> bool:
    if row and max(map(abs, row)) > bound + 1e-9:
        return False
    if len(row) < 2:
        return True
    if len({round(v, 9) for v in row}) < len(row):
        return False
    e = [math.exp(v - max(row)) for v in row]
    return max(e) / sum(e) <= 0.9 and (not floor or min(e) / sum(e) >= 0.02)


def _one_wide(
    n: int, d_k: int, options: Any, bound: float, top: int, step: float, keep: list[list[bool]]
) -> bool:
    """d_model = 1: S_ij = c·x_i·x_j·step, c = w_Q·w_K (both rows of ±1, so c ≠ 0 has the
    parity of d_k) and the x_j distinct, nonzero, within ±top: tried one by one."""
    values = [v for v in range(-top, top + 1) if v]
    cs = [c for c in range(1, d_k + 1) if (c - d_k) % 2 == 0]
    for xs in itertools.permutations(values, n):
        for c in cs:
            rows = [
                [c * xi * xs[j] * step for j in range(n) if keep[i][j]] for i, xi in enumerate(xs)
            ]
            if all(_row_nice(r, bound, options.level >= 2) for r in rows):
                return True
    return False


def _fits(
    n: int, d_model: int, d_k: int, options: Any, bound: float, top: int, share: bool = True
) -> bool:
    topics = options.drawn
    masks = keeps(topics, options, n, options.mask == "causal")
    for divisor in divisors(topics, options):
        step = 1 / (math.sqrt(d_k) * divisor)
        for keep in masks:
            if d_model == 1:
                if n <= 2 * top and _one_wide(n, d_k, options, bound, top, step, keep):
                    return True
            elif d_k >= 2:
                patterns = key_values(
                    n, step * one_wide(d_model, d_k), bound, floor=options.level >= 2, keep=keep
                )
                shared = share and options.kv_heads < options.heads
                if any(
                    max(map(abs, v)) <= reach(d_model, top) and (both or not shared)
                    for v, both in patterns
                ):
                    return True
            else:  # d_k = 1, 2 tokens: any consecutive whole numbers, centred
                row = [(v - (n - 1) // 2) * step for v in range(n)]
                if _row_nice(row, bound, options.level >= 2):
                    return True
    return False


def size_refusal(options: Any, levels: Mapping[int, tuple[int, ...]]) -> tuple[str, str] | None:
    """The option to blame and why this size cannot have nice numbers (one line), or
    None."""
    if options.allow_ties:
        return None
    if scores_kind(options.drawn) != "grid":
        return None
    n, d_model, d_k, _ = options.shape
    if d_k == 1 and n > 2 and d_model > 1:
        return "d-k", (
            f"{n} tokens with d_k = 1: the draw builds the scores of more than 2 tokens "
            "from d_k ≥ 2 (with d_k = 1 every score is q_i·k_j, and nice rows are too rare "
            "to search for); ask --d-k 2 or more, or 2 tokens"
        )
    if options.heads > 2 * options.kv_heads:
        return "heads", (
            f"{options.heads} query heads sharing {options.kv_heads} K/V head(s): the heads "
            "of a group get the same scores but for their sign, so at most 2 heads share "
            "one; ask --heads 2 or 4"
        )
    if d_model == 1 and n > 2:
        return "d-model", (
            f"{n} tokens with d_model = 1: every token is one number, and the draw builds the "
            "scores of more than 2 tokens from a column of ±1 and others; ask --d-model 2 "
            "or more, or 2 tokens"
        )
    top, bound = levels[options.level][0], levels[options.level][4]
    d_v = options.shape[3]
    if d_model == 1 and options.kv_heads * d_v > 2 * top:
        return "heads", (
            f"{options.kv_heads} head(s) of d_v = {d_v} with d_model = 1: each column of V "
            f"is X times one entry of W_V, and {options.kv_heads * d_v} columns need as many "
            f"different entries, at most {2 * top} at level {options.level}; ask fewer "
            "--heads, --d-v 1 or a wider --d-model"
        )
    if _fits(n, d_model, d_k, options, bound, top):
        return None
    if options.kv_heads < options.heads and _fits(n, d_model, d_k, options, bound, top, False):
        # the topic that shares them, by its name (``--with``)
        sharing = ", ".join(t.name for t in options.drawn if t.kv_heads(options) is not None)
        return "heads", (
            f"{n} tokens with query heads sharing a K/V head, d_model = {d_model}, d_k = "
            f"{d_k} at level {options.level}: the heads of a group get the same scores but "
            "for their sign, and here only one sign keeps every weight nice; ask fewer "
            f"tokens or one K/V head per query head (without {sharing})"
        )
    most = max((m for m in range(2, n) if _fits(m, d_model, d_k, options, bound, top)), default=0)
    fewer = f"at most {most} tokens here, or" if most else "try"
    weights = "below 0.02 or above 0.9" if options.level >= 2 else "above 0.9"
    return "tokens", (
        f"{n} tokens cannot have nice weights with d_model = {d_model}, d_k = {d_k} at "
        f"level {options.level}: {n} distinct scores a step of 1/√{d_k} apart leave a weight "
        f"{weights} (or a score above ±{bound}); {fewer} a wider --d-k or --d-model, or "
        "--allow-ties"
    )
