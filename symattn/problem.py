"""The attention problem: validated, exact, immutable and hashable.

A :class:`Problem` holds only tuples, exact numbers and small frozen dataclasses, so
it can key a cache and nothing can change it after :func:`symattn.load` built it.

>>> shapes = Shapes(n=2, m=2, d_model=3, d_k=2, d_v=2)
>>> shapes.as_dict()["d_model"]
3
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Lookup", "Mask", "Matrix", "Problem", "Shapes"]

Matrix = tuple[tuple[Any, ...], ...]
"""A matrix: rows of entries (:class:`~symattn.numbers.Surd`, or SymPy expressions)."""

Mask = tuple[tuple[bool, ...], ...]
"""A keep-mask: True where query i may attend to key j."""


@dataclass(frozen=True)
class Lookup:
    """The embedding lookup: which token became which id, and so which row of X."""

    text: str
    tokens: tuple[str, ...]
    ids: tuple[int, ...]


@dataclass(frozen=True)
class Shapes:
    """The sizes of a problem : d_k and d_v are per head."""

    n: int
    m: int
    d_k: int
    d_v: int
    d_model: int | None = None
    heads: int = 1
    d_out: int | None = None
    d_mem: int | None = None  # the memory's width, when it differs from d_model

    def as_dict(self) -> dict[str, int | None]:
        return {
            "n": self.n,
            "m": self.m,
            "d_model": self.d_model,
            "d_k": self.d_k,
            "d_v": self.d_v,
            "heads": self.heads,
            "d_out": self.d_out,
            "d_mem": self.d_mem,
        }


@dataclass(frozen=True)
class Problem:
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
    memory: Matrix | None = None
    scale: Any = None  # Surd (or SymPy expression) divisor; None means no scaling
    scale_label: str = "none"  # "sqrt(d_k)", "none" or the value as written
    mask: Mask | None = None
    mask_label: str = "none"  # "none", "causal", "explicit", "padding", "causal+padding"
    symbolic: bool = False
    title: str | None = None
    description: str | None = None
    tokens: tuple[str, ...] | None = None
    memory_tokens: tuple[str, ...] | None = None
    lookup: Lookup | None = None
    notation: tuple[tuple[str, str], ...] = ()
    W_O: Matrix | None = None
    dO: Matrix | None = None
    target: Matrix | None = None
    places: int | None = None  # decimal places an answer must have (exercises write it)
    # -- positions, RoPE, temperature, additive attention, column layout (docs/topics.md) --
    positions: str = "none"  # "none", "sinusoidal" or "given" (then P holds the matrix)
    P: Matrix | None = None  # the given n × d_model position matrix
    rope: bool = False  # rotary position embedding of q and k
    rope_base: Any = None  # its base (10000 by default), an exact number
    temperature: Any = None  # τ: the scaled scores are divided by it as well
    score: str = "dot"  # "dot" or "additive" (Bahdanau: W_a, U_a, v_a)
    W_a: Matrix | None = None  # d_k × d_a
    U_a: Matrix | None = None  # d_k × d_a
    v_a: Matrix | None = None  # d_a × 1, a column
    mask_add: Matrix | None = None  # an additive mask (numbers, −∞), n × m
    valid_lens: tuple[int, ...] | None = None  # keys each query may see (a padding mask)
    layout: str = "row"  # "row", or "column": tokens are columns (Q = W_Q X)
    # -- grouped K/V heads, a decode step, an encoder block (docs/topics.md) -------------
    kv_heads: int | None = None  # K/V groups shared by the query heads (1: multi-query)
    decode: bool = False  # the last row again, as one decoding step from a K/V cache
    norm: str | None = None  # an encoder block: "post" or "pre" (None: no block)
    eps: Any = None  # LayerNorm's ε, exact (the value under the root stays rational)
    gamma: Matrix | None = None  # 1 × d_model LayerNorm scale (default 1s)
    beta: Matrix | None = None  # 1 × d_model LayerNorm shift (default 0s)
    W_1: Matrix | None = None  # d_model × d_ff
    b_1: Matrix | None = None  # 1 × d_ff
    W_2: Matrix | None = None  # d_ff × d_model
    b_2: Matrix | None = None  # 1 × d_model
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
    def d_mem(self) -> int | None:
        """The memory's width when it has its own (cross-attention with kdim = vdim ≠ d_model)."""
        return self.shapes.d_mem

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
    def kv_groups(self) -> int:
        """The number of K/V heads: ``kv_heads``, or one per query head."""
        return self.kv_heads or self.heads

    def kv_group(self, head: int) -> int:
        """The K/V group of query head ``head`` (0-based): ⌊t·g/h⌋."""
        return head * self.kv_groups // self.heads

    @property
    def kv_tokens(self) -> tuple[str, ...] | None:
        """The labels of the keys: the memory's tokens in cross-attention; the tokens
        when they are as many as the keys (Q, K and V given with m ≠ n: none)."""
        if self.memory is not None:
            return self.memory_tokens
        return self.tokens if self.tokens is not None and len(self.tokens) == self.m else None

    @property
    def score_divisor(self) -> Any:
        """What the scores are divided by: the scale, times the temperature (or None)."""
        if self.temperature is None:
            return self.scale
        if self.scale is None:
            return self.temperature
        return self.scale * self.temperature

    @property
    def renames(self) -> Mapping[str, str]:
        """The problem's notation renames, entry id → letter."""
        return dict(self.notation)


_HASHED = tuple(name for name in Problem.__dataclass_fields__ if name not in ("_hash", "source"))
