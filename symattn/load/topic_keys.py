"""The problem keys of grouped K/V heads, a decode step and an encoder block:
``kv_heads``, ``decode``, ``block`` with ``norm``, ``eps``, ``gamma``, ``beta``, ``W_1``,
``b_1``, ``W_2``, ``b_2``.  Every failure names the file and the key.

>>> from symattn.load import load
>>> p = load({"Q": [[1, 0]], "K": [[1], [0]], "V": [[1], [2]], "heads": 2,
...           "kv_heads": 1})
>>> p.kv_groups, p.kv_group(1), p.d_k
(1, 0, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from ..errors import SymattnError, where
from ..numbers import Surd
from ..problem import Mask
from .values import Monomial

__all__ = ["TOPIC_KEYS", "read_kv_heads", "read_topics"]

#: The keys this module reads (the problem reader adds them to its known keys).
TOPIC_KEYS = (
    "kv_heads",
    "decode",
    "block",
    "norm",
    "eps",
    "gamma",
    "beta",
    "W_1",
    "b_1",
    "W_2",
    "b_2",
)
_BLOCK_ONLY = ("norm", "eps", "gamma", "beta", "W_1", "b_1", "W_2", "b_2")


class Reader(Protocol):
    symbolic: bool

    def value(
        self, raw: object, key: str, row: int | None = None, col: int | None = None
    ) -> Any: ...

    def matrix(self, data: Mapping[str, Any], key: str) -> tuple[tuple[Monomial, ...], ...]: ...


def _flag(data: Mapping[str, Any], key: str, source: str) -> bool:
    raw = data.get(key, False)
    if not isinstance(raw, bool):
        raise SymattnError(f"{source}: {key}: expected true or false, found {raw!r}")
    return raw


def read_kv_heads(data: Mapping[str, Any], heads: int, source: str) -> int | None:
    """``kv_heads = g``: 1 ≤ g ≤ heads and g divides heads (g = 1 is multi-query)."""
    raw = data.get("kv_heads")
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw <= heads:
        raise SymattnError(
            f"{source}: kv_heads: expected a whole number 1 … heads = {heads}, found {raw!r}"
        )
    if heads % raw:
        raise SymattnError(
            f"{source}: kv_heads: {raw} K/V heads do not split {heads} query heads into equal "
            f"groups; give a divisor of {heads}"
        )
    return raw


def _vector(
    data: Mapping[str, Any], key: str, width: int, reader: Reader, source: str, default: int
) -> tuple[tuple[Surd, ...], ...]:
    raw = data.get(key)
    if raw is None:
        return (tuple(Surd.rational(default) for _ in range(width)),)
    if not isinstance(raw, list) or len(raw) != width:
        raise SymattnError(f"{source}: {key}: expected a list of {width} numbers (one per column)")
    out = []
    for j, v in enumerate(raw):
        mono = reader.value(v, key, None, j)
        if not mono.is_number:
            raise SymattnError(f"{where(source, key, None, j)}: expected a number, found {v!r}")
        out.append(mono.coef)
    return (tuple(out),)


def _weights(
    data: Mapping[str, Any], key: str, rows: int, reader: Reader, source: str, rule: str
) -> tuple[tuple[Surd, ...], ...]:
    if key not in data:
        raise SymattnError(f"{source}: missing {key}: the block's feed-forward network needs it")
    matrix = reader.matrix(data, key)
    if len(matrix) != rows:
        raise SymattnError(f"{source}: {key} has {len(matrix)} rows but needs {rows} ({rule})")
    for i, row in enumerate(matrix):
        for j, mono in enumerate(row):
            if not mono.is_number:
                raise SymattnError(f"{where(source, key, i, j)}: expected a number")
    return tuple(tuple(m.coef for m in row) for row in matrix)


def read_topics(
    data: Mapping[str, Any],
    reader: Reader,
    shapes: Mapping[str, int],
    mask: tuple[Mask | None, str],
    source: str,
) -> dict[str, Any]:
    """The fields of :class:`~symattn.problem.Problem` these keys give (with the mask:
    a decode step is causal)."""
    out: dict[str, Any] = {}
    kv_heads = data.get("kv_heads")
    if kv_heads is not None and kv_heads < shapes["heads"] and ("dO" in data or "target" in data):
        raise SymattnError(
            f"{source}: kv_heads: the backward pass of grouped K/V heads is not derived; "
            "leave out dO and target"
        )
    keep, label = mask
    if _flag(data, "decode", source):
        if "memory" in data:
            raise SymattnError(
                f"{source}: decode: a decode step is self-attention; leave out memory"
            )
        if shapes["n"] < 2:
            raise SymattnError(f"{source}: decode: needs at least 2 tokens (a cache and a new one)")
        if data.get("score", "dot") != "dot":
            raise SymattnError(
                f"{source}: decode: a decode step scores by the dot product; not available "
                'with score = "additive" yet'
            )
        if "valid_lens" in data:
            raise SymattnError(
                f"{source}: decode: a decode step is causal; leave out valid_lens (its keys "
                "are the cached ones and its own)"
            )
        if label not in ("none", "causal"):
            raise SymattnError(
                f'{source}: decode: a decode step is causal; give mask = "causal" or no mask'
            )
        n = shapes["n"]
        keep, label = tuple(tuple(j <= i for j in range(n)) for i in range(n)), "causal"
        out["decode"] = True
    out["mask"], out["mask_label"] = keep, label
    if not _flag(data, "block", source):
        extra = [k for k in _BLOCK_ONLY if k in data]
        if extra:
            raise SymattnError(f"{source}: {extra[0]}: only for an encoder block; add block = true")
        return out
    if reader.symbolic:
        raise SymattnError(f"{source}: block: an encoder block is derived for numbers only")
    if ("X" not in data and "text" not in data) or "memory" in data or "Q" in data:
        raise SymattnError(
            f"{source}: block: an encoder block needs X (or text) and the W's, self-attention"
        )
    if "dO" in data or "target" in data:
        raise SymattnError(f"{source}: block: the backward pass of a block is not derived")
    d_model = shapes["d_model"]
    width = shapes.get("d_out", shapes["d_v"] * shapes["heads"])
    if width != d_model:
        raise SymattnError(
            f"{source}: block: the attention output has {width} columns but X has d_model = "
            f"{d_model}; the residual X + output needs them equal (choose W_V or W_O so)"
        )
    norm = data.get("norm", "post")
    if norm not in ("post", "pre"):
        raise SymattnError(f'{source}: norm: expected "post" or "pre", found {norm!r}')
    eps = Surd()
    if "eps" in data:
        mono = reader.value(data["eps"], "eps")
        if not mono.is_number or not mono.coef.is_rational or mono.coef.sign() < 0:
            raise SymattnError(
                f"{source}: eps: expected a rational number ≥ 0 such as 1e-5, found {data['eps']!r}"
            )
        eps = mono.coef
    w_1 = _weights(data, "W_1", d_model, reader, source, f"norm W_1: d_model = {d_model}")
    d_ff = len(w_1[0])
    w_2 = _weights(data, "W_2", d_ff, reader, source, f"hidden W_2: d_ff = {d_ff}")
    if len(w_2[0]) != d_model:
        raise SymattnError(
            f"{source}: W_2 has {len(w_2[0])} columns but the block's output needs "
            f"d_model = {d_model}"
        )
    out |= {
        "norm": norm,
        "eps": eps,
        "gamma": _vector(data, "gamma", d_model, reader, source, 1),
        "beta": _vector(data, "beta", d_model, reader, source, 0),
        "W_1": w_1,
        "b_1": _vector(data, "b_1", d_ff, reader, source, 0),
        "W_2": w_2,
        "b_2": _vector(data, "b_2", d_model, reader, source, 0),
    }
    return out
