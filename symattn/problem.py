"""The attention problem: validated, exact, immutable and hashable.

A :class:`Problem` holds only tuples, exact numbers and small frozen dataclasses, so
it can key a cache and nothing can change it after :func:`symattn.load` built it.

>>> shapes = Shapes(n=2, m=2, d_model=3, d_k=2, d_v=2)
>>> shapes.as_dict()["d_model"]
3
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

from .errors import SymattnError
from .record import Record

__all__ = [
    "LAID_OUT",
    "KeysSource",
    "Lookup",
    "Mask",
    "Matrix",
    "Problem",
    "Ref",
    "Shapes",
    "Source",
    "TopicConfig",
]

#: The core's given matrices that the column layout writes transposed (each token a
#: column); a topic names its own in ``Topic.laid_out``.
LAID_OUT = ("X", "W_Q", "W_K", "W_V", "Q", "K", "V", "W_O", "dO", "target")

Matrix = tuple[tuple[Any, ...], ...]
"""A matrix: rows of entries (:class:`~symattn.numbers.Surd`, or SymPy expressions)."""

Mask = tuple[tuple[bool, ...], ...]
"""A keep-mask: True where query i may attend to key j."""


class TopicConfig(Record):
    """What a topic (:mod:`symattn.topics`) keeps of a problem file: each topic's config is
    a frozen dataclass of this kind, hashable like the rest of the problem."""

    def givens(self) -> Mapping[str, Matrix]:
        """The matrices of this topic that the problem gives, by name (P, W_a, …)."""
        return {}

    def keys_from(self) -> str | None:
        """The given matrix that K and V are projected from instead of X (a memory), by
        name, when this topic gives one."""
        return None

    def key_tokens(self) -> tuple[str, ...] | None:
        """The labels of the keys, when :meth:`keys_from` gives their matrix."""
        return None


class KeysSource(Record):
    """A topic's given matrix that K and V are projected from instead of X (a memory):
    its key, the name of its width (when not d_model), and the key of its rows' labels."""

    given: str
    width: str
    tokens: str


class Lookup(Record):
    """The embedding lookup: which token became which id, and so which row of X."""

    text: str
    tokens: tuple[str, ...]
    ids: tuple[int, ...]


class Shapes(Record):
    """The sizes of a problem : d_k and d_v are per head."""

    n: int
    m: int
    d_k: int
    d_v: int
    d_model: int | None = None
    heads: int = 1
    d_out: int | None = None
    #: A topic's own widths (name, size): the width of what the keys are projected from,
    #: when it differs from d_model.
    widths: tuple[tuple[str, int], ...] = ()

    def as_dict(self) -> dict[str, int | None]:
        return {
            "n": self.n,
            "m": self.m,
            "d_model": self.d_model,
            "d_k": self.d_k,
            "d_v": self.d_v,
            "heads": self.heads,
            "d_out": self.d_out,
            **dict(self.widths),
        }


class Problem(Record):
    """A validated attention problem , exact values throughout."""

    source: str
    shapes: Shapes
    X: Matrix | None = None
    W_Q: Matrix | None = None
    W_K: Matrix | None = None
    W_V: Matrix | None = None
    Q: Matrix | None = None
    K: Matrix | None = None
    V: Matrix | None = None
    scale: Any = None  # Surd (or SymPy expression) divisor; None means no scaling
    scale_label: str = "none"  # "sqrt(d_k)", "none" or the value as written
    mask: Mask | None = None
    mask_label: str = "none"  # "none", "causal", "explicit", "padding", "causal+padding"
    symbolic: bool = False
    title: str | None = None
    description: str | None = None
    tokens: tuple[str, ...] | None = None
    lookup: Lookup | None = None
    notation: tuple[tuple[str, str], ...] = ()
    W_O: Matrix | None = None
    dO: Matrix | None = None
    target: Matrix | None = None
    places: int | None = None  # decimal places an answer must have (exercises write it)
    #: How the problem is written on paper: "row" (a token per row), or "column" (tokens are
    #: columns, Q = W_Q X, as on the AI-by-hand sheets). A view, like the notation: the
    #: matrices here are always in the row layout, and only reading and writing turn them.
    layout: str = "row"
    #: The topics of docs/topics.md this problem has (by name): each topic's
    #: name and its frozen config, in the order of the registry (:mod:`symattn.topics`).
    topics: tuple[tuple[str, TopicConfig], ...] = ()
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        if not self._hash:  # the matrices are large: hash them once
            fields = tuple(getattr(self, name) for name in _HASHED)
            object.__setattr__(self, "_hash", hash(fields) or 1)
        return self._hash

    @property
    def n(self) -> int:
        return self.shapes.n

    @property
    def m(self) -> int:
        return self.shapes.m

    @property
    def d_model(self) -> int | None:
        return self.shapes.d_model

    @property
    def d_k(self) -> int:
        return self.shapes.d_k

    @property
    def d_v(self) -> int:
        return self.shapes.d_v

    @property
    def heads(self) -> int:
        return self.shapes.heads

    @property
    def kv_tokens(self) -> tuple[str, ...] | None:
        """The labels of the keys: a topic's when K and V come from its matrix (the
        memory's tokens); the tokens when they are as many as the keys (Q, K and V given
        with m ≠ n: none)."""
        for _, config in self.topics:
            if config.keys_from() is not None:
                return config.key_tokens()
        return self.tokens if self.tokens is not None and len(self.tokens) == self.m else None

    def topic(self, name: str) -> Any:
        """The config of topic ``name``, or None when the problem does not have it."""
        for topic, config in self.topics:
            if topic == name:
                return config
        return None

    def given(self, name: str) -> Matrix | None:
        """A matrix the problem gives, by name: X, W_Q, … or one of a topic's (P, W_a, …)."""
        if name in _MATRICES:
            matrix: Matrix | None = getattr(self, name)
            return matrix
        for _, config in self.topics:
            found = config.givens().get(name)
            if found is not None:
                return found
        return None

    @property
    def keys_from(self) -> str | None:
        """What K and V are projected from when it is not X: a topic's given matrix."""
        return next((k for _, c in self.topics if (k := c.keys_from()) is not None), None)

    @property
    def renames(self) -> Mapping[str, str]:
        """The problem's notation renames, entry id → letter."""
        return dict(self.notation)


_MATRICES = ("X", "W_Q", "W_K", "W_V", "Q", "K", "V", "W_O", "dO", "target")
_HASHED = tuple(name for name in Problem.__dataclass_fields__ if name not in ("_hash", "source"))


class Source(Record):
    """A matrix the problem gives: a field of :class:`~symattn.problem.Problem`, or the
    block of its columns ``start … stop − 1`` that one head takes."""

    field: str
    columns: tuple[int, int] | None = None

    def take(self, problem: Problem) -> Matrix:
        matrix = problem.given(self.field)
        if matrix is None:
            raise SymattnError(f"{problem.source}: {self.field} is not given")
        if self.columns is not None:
            start, stop = self.columns
            matrix = tuple(tuple(row[start:stop]) for row in matrix)
        return matrix


class Ref(Record):
    """One entry of a named matrix; ``row`` and ``col`` are 0-based."""

    matrix: str
    row: int
    col: int
