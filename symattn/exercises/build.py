"""Scores built to be nice: X, W_Q and W_K made from a chosen pattern of scores.

Every head's scores are made of one row of whole numbers t (the keys' values), one per
key, each distinct and none 0, close together (n consecutive numbers, or n + 1 with 0
left out), times ±1 per query and head, divided by √d_k (and τ):

    S_ij = a_i · t_j / √d_k,  a_i = x_i · u = ±1,  t_j = x_j · b,

which is what X W_Q (X W_K)ᵀ is when W_K = b βᵀ (b, β of ±1) and W_Q β = u = ±e_p (the
column p of X holds ±1): each row of a head's W_Q is a nonzero vector of −1, 0, 1 whose
product with β is the entry of u, so d_k ≥ 2 (with d_k = 1, W_Q would have rows of
zeros, and u of ±1 only makes every t odd).  X is
made row by row from the rows of small integers (all of them, or a large sample) whose
products with b and with every head's u are what the pattern asks.  With consecutive
values a row's smallest weight is as large as distinct scores on that grid allow
(:mod:`.sizes` refuses the sizes where even they are not nice).  Topics that add
to X, turn or bias the scores start from the built draw and are repaired from there
(:mod:`.construct`).
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import numpy as np

__all__ = ["build", "key_values", "one_wide", "reach"]

#: Rows of small integers sampled to make X from, when there are more than this.
POOL = 40_000


def one_wide(d_model: int, d_k: int) -> int:
    """W_Q β's one entry: 1, or 2 when W_Q is one row of d_k entries, none 0, and d_k is
    even (then W_Q β is even)."""
    return 2 if d_model == 1 and d_k % 2 == 0 else 1


def reach(d_model: int, top: int) -> int:
    """The largest |t| a built draw reaches: ±1 in the query column, ± top elsewhere."""
    return (d_model - 1) * top + 1


def _row_ok(v: list[float], bound: float, floor: bool) -> bool:
    if v and max(abs(s) for s in v) > bound + 1e-9:
        return False
    if len(v) < 2:
        return True
    top = max(v)
    e = [math.exp(s - top) for s in v]
    w = [x / sum(e) for x in e]
    return max(w) <= 0.9 and (not floor or min(w) >= 0.02)


def key_values(
    n: int, step: float, bound: float, *, floor: bool, keep: list[list[bool]]
) -> list[tuple[list[int], bool]]:
    """Every set of keys' values t (in the order of the keys) this pattern can use, and
    whether the queries may be −1 as well as 1: rows ±t·step (or t·step only) over each
    query's kept keys (``keep``) whose weights are nice."""
    found: list[tuple[list[int], bool]] = []
    for start in range(-2 * n, n + 1):
        span = list(range(start, start + n))
        if 0 in span:
            span = [v for v in range(start, start + n + 1) if v != 0]
        for order in (span, _zigzag(span)):  # in turn (a sliding mask), or middle out
            for sign in (1, -1):
                rows = [[sign * order[j] * step for j in range(n) if keep[i][j]] for i in range(n)]
                if all(_row_ok(row, bound, floor) for row in rows):
                    both = all(_row_ok([-s for s in row], bound, floor) for row in rows)
                    pattern = ([sign * v for v in order], both)
                    if pattern not in found:
                        found.append(pattern)
    return found


def _zigzag(values: list[int]) -> list[int]:
    """From the middle outwards, so that every prefix of the keys is close together."""
    middle = len(values) // 2
    order = [values[middle]]
    for d in range(1, len(values)):
        for j in (middle - d, middle + d):
            if 0 <= j < len(values) and values[j] not in order:
                order.append(values[j])
    return order


def _pool(rng: random.Random, d: int, top: int) -> np.ndarray:
    values = range(-top, top + 1)
    if (2 * top + 1) ** d <= POOL:
        rows = np.array(list(itertools.product(values, repeat=d)), dtype=float)
    else:
        rows = np.array([[rng.choice(values) for _ in range(d)] for _ in range(POOL)], dtype=float)
    return rows[np.any(rows != 0, axis=1)]


def _ternary(rng: random.Random, beta: list[int], target: int) -> list[int] | None:
    """A nonzero vector of −1, 0, 1 whose product with β is ``target``."""
    for _ in range(50):
        y = [rng.choice((-1, 0, 1)) for _ in beta]
        if any(y) and sum(a * b for a, b in zip(y, beta)) == target:
            return y
    return None


def build(
    rng: random.Random,
    data: dict[str, Any],
    shape: tuple[int, int, int],
    heads: int,
    groups: list[int],
    top: int,
    values: list[int],
    both: bool,
    rows: list[int] | None = None,
) -> bool:
    """Write X (or the embedding ``rows``), W_Q and W_K into ``data`` so that each head's
    scores are ±``values`` (+``values`` only unless ``both``); False when this draw finds
    no rows to make them of."""
    _, d, d_k = shape
    kv = max(groups) + 1
    b = [rng.choice((-1, 1)) for _ in range(d)]
    betas = [[rng.choice((-1, 1)) for _ in range(d_k)] for _ in range(kv)]
    query = rng.randrange(d)  # the column of X that holds each token's ±1
    us = [[0] * d for _ in range(heads)]
    signs = [rng.choice((-1, 1)) if both else 1 for _ in range(kv)]  # one for each group
    for t, u in enumerate(us):  # the heads of one K/V group: opposite signs, or all alike
        u[query] = signs[groups[t]] * (-1) ** groups[:t].count(groups[t])
        if not both and groups[:t].count(groups[t]):
            return False
    pool = _pool(rng, d, top)
    keys = pool @ np.array(b, dtype=float)
    queries = pool[:, query] == 1 if not both else np.abs(pool[:, query]) == 1
    x = []
    for t in values:
        candidates = np.flatnonzero(queries & (keys == t))
        if not len(candidates):
            return False
        x.append([int(v) for v in pool[candidates[rng.randrange(len(candidates))]]])
    if not all(any(col) for col in zip(*x)):
        return False
    w_q = [[0] * (heads * d_k) for _ in range(d)]
    for t, u in enumerate(us):
        beta = betas[groups[t]]
        for _ in range(100):  # this head's rows, until none of its columns is all zeros
            block = [_ternary(rng, beta, u[r] * one_wide(d, d_k)) for r in range(d)]
            if all(y is not None for y in block) and all(any(c) for c in zip(*block)):
                break
        else:
            return False
        for r, y in enumerate(block):
            w_q[r][t * d_k : (t + 1) * d_k] = y  # type: ignore[assignment]
    w_k = [[b[r] * beta[c] for beta in betas for c in range(d_k)] for r in range(d)]
    if rows is None:
        data["X"] = x
    else:
        for row, values_row in zip(rows, x):
            data["embedding"][row] = values_row
        if len({tuple(r) for r in data["embedding"]}) != len(data["embedding"]):
            return False
    data["W_Q"], data["W_K"] = w_q, w_k
    return True
