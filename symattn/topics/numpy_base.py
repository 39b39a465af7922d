"""What a topic's independent NumPy path may do, at the points where the plan calls the
topic: the base of every ``<topic>_numpy.py``.

Like :mod:`symattn.compute.numeric`, a topic's NumPy sibling shares nothing with the
exact path: it imports NumPy and nothing of symattn but this module (a test of the
architecture checks so), and reads the problem and the topic's config as plain data.
Each value comes with the size of the terms behind it (``Pair``), for the cross-check's
relative error.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..record import Record

__all__ = ["Array", "Attention", "NumpyPath", "Out", "Pair", "floats"]

Array = NDArray[np.float64]
Pair = tuple[Array, Array]
Out = dict[str, Pair]


def floats(matrix: Any) -> Array:
    """A matrix of exact numbers in float64."""
    return np.array([[float(x) for x in row] for row in matrix], dtype=np.float64)


class Attention(Record):
    """What attention computed, for the steps after it: each head's prefix and the names
    of the queries and keys it scored, what the scores were divided by, and the output."""

    heads: tuple[tuple[str, str, str], ...]  # (prefix, queries, keys)
    divisor: float | None
    output: str = "output"
    x: str = "X"  # X, or X̃ = X + P: what the projections were made from


class NumpyPath:
    """A topic's float64 path; every hook leaves the computation as it is by default."""

    #: The step (its id without the head's prefix) that :meth:`on_scores` leaves a head's
    #: scores in for the softmax, when it adds one (the exercises' first look reads it).
    leaves: str | None = None

    def after_x(self, problem: Any, config: Any, x: str, out: Out) -> str:
        """X before the projections (X + P): the name in ``out`` of what it makes of
        ``out[x]``."""
        return x

    def x_offset(self, problem: Any, config: Any, out: Out) -> Array | None:
        """What :meth:`after_x` added to X, from ``out`` after :meth:`after_x` ran: a draw
        adds it to another X (None: X is read as it is)."""
        return None

    def keys(self, problem: Any, config: Any) -> Array | None:
        """What K and V are projected from instead of X (a memory), or None."""
        return None

    def attended(self, problem: Any, config: Any, x: str, out: Out) -> str:
        """What the projections read (LN(X) before a pre-norm block), by name."""
        return x

    def kv_group(self, problem: Any, config: Any, head: int) -> int | None:
        """The K/V head of query head ``head`` (0-based), when this topic decides it."""
        return None

    def after_qk(
        self, problem: Any, config: Any, prefix: str, q: str, k: str, out: Out
    ) -> tuple[str, str]:
        """A head's queries and keys, turned (a rotation): the names of what it makes."""
        return q, k

    def scores(
        self, problem: Any, config: Any, prefix: str, q: str, k: str, out: Out
    ) -> Pair | None:
        """A head's scores from ``out[q]`` and ``out[k]`` instead of Q Kᵀ, or None."""
        return None

    def divisor(self, problem: Any, config: Any) -> float | None:
        """A factor the scores are divided by as well."""
        return None

    def on_scores(
        self, problem: Any, config: Any, prefix: str, head: int, scores: Pair, out: Out
    ) -> Pair:
        """The scaled scores before the softmax (a bias, a mask of numbers)."""
        return scores

    def score_bias(self, problem: Any, config: Any, prefix: str, out: Out) -> Array | None:
        """What :meth:`on_scores` added to a head's scaled scores, from ``out`` after it
        ran, when it adds what the queries and keys do not change (a bias), else None."""
        return None

    def keep(self, problem: Any, config: Any, keep: Array) -> Array:
        """The keep-mask (True: query i may attend to key j), narrowed by this topic."""
        return keep

    def after_attention(self, problem: Any, config: Any, out: Out, attention: Attention) -> None:
        """Steps after attention (one more step, a block), into ``out``."""
