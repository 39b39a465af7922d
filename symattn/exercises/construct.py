"""Nice scores by construction: a drawn problem is repaired, one entry at a time, until
every head's every row of scores is nice, instead of drawing again and again.

A blind draw of 8 tokens has every one of 8 rows of scores nice by chance only once in
millions of draws, and 4 heads multiply the odds; but the heads are independent of each
other given X, and a row's scores move a little with each entry, so fixing one head at a
time converges in a few hundred steps.  Each step changes one entry of W_Q or W_K — most
often in a head whose scores are not nice yet — or of X (of the sentence's rows of the
embedding table), within the level's range and never making a row or a column of zeros,
and keeps the change unless it makes the rows worse (:func:`badness`: how far each
row's scores are from the rules of :mod:`.nice`; now and then a worse step is kept, to
leave a dead end).  The scores are those of the NumPy path with every topic's sibling
(positions added, turns, tanh, τ, biases, masks): read once from it, and computed
again from X, W_Q and W_K in a few array operations unless a topic scores on its own.
W_V and what comes after attention are then drawn afresh until the derived key is not
degenerate (:mod:`.rules`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import numpy as np

from ..compute.numeric import forward
from ..problem import Problem
from ..topics import by_name, numpy_paths
from ..topics.base import per_head
from ..topics.draw import scores_kind
from .nice import read_scores
from .rules import WEIGHT_CEILING, WEIGHT_FLOOR

__all__ = ["Scorer", "badness", "repair"]

#: Steps of the repair before the draw is started again from a fresh draw.
STEPS = 300
#: How readily a step that makes the rows worse is kept (e^(−worse/HEAT)): a little, so
#: that the repair leaves a row it cannot finish without undoing another.
HEAT = 0.3
Array = Any


class Scorer:
    """The scores of each head of a problem with other X, W_Q and W_K."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.paths = numpy_paths(problem)
        # a topic that scores on its own: the NumPy path itself scores (slower)
        self.own = scores_kind(by_name(name) for name, _ in problem.topics) == "own"
        out = forward(problem, self.paths)
        self.prefixes = list(per_head(problem))
        self.offset = _total(path.x_offset(problem, config, out) for path, config in self.paths)
        divisor = 1.0 if problem.scale is None else float(problem.scale)
        for path, config in self.paths:
            factor = path.divisor(problem, config)
            divisor *= 1.0 if factor is None else float(factor)
        self.divisor = divisor
        self.bias = [self._bias(out, p) for p in self.prefixes]  # what the topics add
        self.keep = [np.isfinite(read_scores(out, p, self.paths)) for p in self.prefixes]
        self.groups = []
        for t in range(len(self.prefixes)):
            group = t
            for path, config in self.paths:
                g = path.kv_group(problem, config, t)
                group = group if g is None else g
            self.groups.append(group)

    def _bias(self, out: dict[str, Any], prefix: str) -> Any:
        return _total(path.score_bias(self.problem, c, prefix, out) for path, c in self.paths)

    def heads(self, x: Array, w_q: Array, w_k: Array) -> list[tuple[Array, Array, Array]]:
        """Each head's (Q, K, scores the softmax reads, −inf where masked)."""
        d_k = self.problem.d_k
        if self.own:
            problem = replace(
                self.problem,
                X=tuple(map(tuple, x.tolist())),
                W_Q=tuple(map(tuple, w_q.tolist())),
                W_K=tuple(map(tuple, w_k.tolist())),
                lookup=None,
            )
            out = forward(problem, self.paths)
            return [
                (out[f"{p}Q"][0], out[f"{p}K"][0], read_scores(out, p, self.paths))
                for p in self.prefixes
            ]
        xt = x + self.offset
        q_all, k_all = xt @ w_q, xt @ w_k
        found = []
        for t, group in enumerate(self.groups):
            q = q_all[:, t * d_k : (t + 1) * d_k]
            k = k_all[:, group * d_k : (group + 1) * d_k]
            out = {"Q": (q, q), "K": (k, k)}
            names = ("Q", "K")
            for path, config in self.paths:  # a topic may turn them
                names = path.after_qk(self.problem, config, "", *names, out)
            q_s, k_s = out[names[0]][0], out[names[1]][0]
            s = (q_s @ k_s.T) / self.divisor + self.bias[t]
            found.append((q, k, np.where(self.keep[t], s, -np.inf)))
        return found


def _total(parts: Iterable[Array | None]) -> Any:
    """The sum of what the topics add (0.0 when none adds anything)."""
    total: Any = None
    for part in parts:
        if part is not None:
            total = part if total is None else total + part
    return 0.0 if total is None else total


def _row_badness(s: Array, bound: float, ties: bool, floor: bool) -> float:
    kept = s[np.isfinite(s)]
    if len(kept) < 2:
        return 0.0
    bad = float(np.sum(np.maximum(np.abs(kept) - bound, 0)))
    distinct = len({round(float(v), 9) for v in kept})
    if distinct == 1:
        bad += 2.0
    elif not ties:
        bad += len(kept) - distinct
    e = np.exp(kept - kept.max())
    w = e / e.sum()
    bad += 10 * max(float(w.max()) - WEIGHT_CEILING, 0.0)
    if floor:
        bad += 10 * float(np.sum(np.maximum(WEIGHT_FLOOR - w, 0)))
    return bad


def badness(
    heads: list[tuple[Array, Array, Array]], bound: float, *, ties: bool, floor: bool
) -> list[float]:
    """How far each head's scores are from nice: 0 when every row is."""
    found = []
    for q, k, scores in heads:
        total = float(np.sum(~np.any(q != 0, axis=0)) + np.sum(~np.any(k != 0, axis=0)))
        total += sum(_row_badness(row, bound, ties, floor) for row in scores)
        found.append(total)
    return found


def _no_zero_line(m: Array) -> bool:
    return bool(np.all(np.any(m != 0, axis=1)) and np.all(np.any(m != 0, axis=0)))


def repair(
    rng: random.Random,
    problem: Problem,
    data: dict[str, Any],
    rows: list[int] | None,
    top: int,
    bound: float,
    *,
    ties: bool,
    floor: bool,
) -> bool:
    """Change X (or the embedding rows ``rows``), W_Q and W_K of ``data`` in place until
    the scores are nice (True), or give up after :data:`STEPS` steps (False)."""
    given = "embedding" if "embedding" in data else "X"
    scorer = Scorer(problem)
    table = np.array(data[given], dtype=float)
    sentence = rows if rows is not None else list(range(len(table)))
    w = {"W_Q": np.array(data["W_Q"], dtype=float), "W_K": np.array(data["W_K"], dtype=float)}
    d_k = problem.d_k

    def score() -> list[float]:
        heads = scorer.heads(table[sentence], w["W_Q"], w["W_K"])
        return badness(heads, bound, ties=ties, floor=floor)

    costs = score()
    for _ in range(STEPS):
        cost = sum(costs)
        if cost == 0:
            break
        bad = [t for t, c in enumerate(costs) if c > 0]
        pick = rng.random()
        if pick < 0.3:
            name, m = given, table
            i, j = rng.choice(sentence), rng.randrange(table.shape[1])
            largest = top
        else:
            t = rng.choice(bad)
            name = "W_Q" if pick < 0.65 else "W_K"
            m = w[name]
            column = t if name == "W_Q" else scorer.groups[t]
            i, j = rng.randrange(m.shape[0]), column * d_k + rng.randrange(d_k)
            largest = 1
        old = m[i, j]
        m[i, j] = rng.choice([v for v in range(-largest, largest + 1) if v != old])
        ok = _no_zero_line(m)
        if ok and name == "embedding":
            ok = len({tuple(r) for r in m.tolist()}) == len(m)
        new = score() if ok else None
        if new is not None and (
            sum(new) <= cost or rng.random() < math.exp((cost - sum(new)) / HEAT)
        ):
            costs = new
        else:
            m[i, j] = old
    if sum(costs) != 0:
        return False
    data[given] = [[int(v) for v in r] for r in table.tolist()]
    for name in ("W_Q", "W_K"):
        data[name] = [[int(v) for v in r] for r in w[name].tolist()]
    return True
