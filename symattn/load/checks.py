"""The shape rules of a problem and the problem keys that depend on shapes: heads,
the upstream gradient, scale, mask and padding.  Every failure names the file and key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, Protocol

from ..errors import SymattnError, where
from ..numbers import Surd
from ..printing import sstr
from ..problem import KeysSource, Mask
from ..topics import keys_sources
from .values import Monomial

__all__ = [
    "MAX_NAME_BYTES",
    "MAX_STUDENTS",
    "check_raw_sizes",
    "check_shapes",
    "check_upstream",
    "labels",
    "read_mask",
    "read_padding",
    "read_scale",
    "show",
    "split_heads",
]


#: Most students a roster may name (a class; one exercise folder each; as many exercises
#: as one set may have).
MAX_STUDENTS = 1_000
#: Longest student name, in bytes of UTF-8: a folder name must stay under the 255 bytes
#: most file systems allow, with room for a number and the temporary files' marks.
MAX_NAME_BYTES = 200

# The sizes each matrix's rows and columns are; "h·" marks a multiple of the head count.
_RAW_DIMS: dict[str, tuple[str, str]] = {
    "X": ("n", "d_model"),
    "W_Q": ("d_model", "h·d_k"),
    "W_K": ("d_model", "h·d_k"),
    "W_V": ("d_model", "h·d_v"),
    "Q": ("n", "h·d_k"),
    "K": ("m", "h·d_k"),
    "V": ("m", "h·d_v"),
    "W_O": ("h·d_v", "h·d_out"),
    "dO": ("n", "h·d_v"),
    "target": ("n", "h·d_v"),
}


def check_raw_sizes(
    data: Mapping[str, Any], heads: int, limit: int, source: str, keys_from: tuple[str, ...] = ()
) -> None:
    """Refuse a matrix over the size limit before a single value of it is read (``keys_from``:
    a topic's matrix that K and V come from, m × its width, checked after X).

    The exact sizes are checked again once the values are read; this bound only keeps
    a file of millions of entries from being parsed to be refused afterwards."""
    x_dims, *rest = _RAW_DIMS.items()
    more = [(key, ("m", "d_model")) for key in keys_from]
    for key, dims in (x_dims, *more, *rest):
        raw = data.get(key)
        if not isinstance(raw, list):
            continue
        sizes = (len(raw), max((len(r) for r in raw if isinstance(r, list)), default=0))
        for size, dim in zip(sizes, dims):
            multiple = dim.startswith("h·")
            needed = -(-size // heads) if multiple else size
            if needed > limit:
                name = dim.removeprefix("h·")
                per_head = f" over {heads} heads" if multiple and heads > 1 else ""
                raise SymattnError(
                    f"{source}: {key} is too large before its values are read: {name} = "
                    f"{needed}{per_head} is larger than the limit of {limit} "
                    "(n, m, d_model, d_k, d_v)",
                    lift=("max_size", needed),
                )
    embedding = data.get("embedding")
    if isinstance(embedding, Mapping):
        embedding = list(embedding.values())
    first = embedding[0] if isinstance(embedding, list) and embedding else None
    if isinstance(first, list) and len(first) > limit:
        raise SymattnError(
            f"{source}: embedding rows have {len(first)} entries, over the size limit of "
            f"{limit} (d_model)",
            lift=("max_size", len(first)),
        )


class ValueReader(Protocol):
    def value(
        self, raw: object, key: str, row: int | None = None, col: int | None = None
    ) -> Monomial: ...


def show(raw: object) -> str:
    if isinstance(raw, Decimal):
        return str(raw)
    import json  # for the rare value shown that is not a number (start-up, issue 24)

    return json.dumps(raw, default=str, ensure_ascii=False)


def _shape(matrix: Sequence[Sequence[Any]]) -> tuple[int, int]:
    return len(matrix), len(matrix[0])


def _fmt(shape: tuple[int, int]) -> str:
    return f"{shape[0]} × {shape[1]}"


def labels(data: Mapping[str, Any], key: str, count: int, source: str) -> tuple[str, ...] | None:
    raw = data.get(key)
    if raw is None:
        return None
    if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw):
        raise SymattnError(f"{source}: {key}: expected a list of strings")
    if len(raw) != count:
        raise SymattnError(
            f"{source}: {key}: {len(raw)} labels for {count} rows; give one label per row"
        )
    return tuple(raw)


def split_heads(
    shapes: dict[str, int],
    heads: int,
    givens: Mapping[str, Any],
    source: str,
    first: str,
    kv_heads: int | None = None,
) -> None:
    """Per-head widths: head t takes the t-th block of columns (of V: the block of its
    K/V group, with ``kv_heads`` groups)."""
    groups = kv_heads or heads
    for dim, key, count in (
        ("d_k", first, heads),
        ("d_v", "V" if first == "Q" else "W_V", groups),
    ):
        if shapes[dim] % count:
            raise SymattnError(
                f"{source}: {key} has {shapes[dim]} columns, which do not split into {count} "
                f"heads of equal width; give {key} a multiple of {count} columns"
            )
        shapes[dim] //= count
    shapes["heads"] = heads
    if "W_O" in givens:
        rows, cols = _shape(givens["W_O"])
        if rows != heads * shapes["d_v"]:
            raise SymattnError(
                f"{source}: W_O has shape {rows} × {cols} but the concatenated heads have "
                f"{heads * shapes['d_v']} columns (heads × d_v = {heads} × {shapes['d_v']}); "
                "concat W_O needs one row of W_O per column"
            )
        shapes["d_out"] = cols


def check_upstream(shapes: dict[str, int], givens: Mapping[str, Any], source: str) -> None:
    """``dO`` or ``target``: n × d_v, or n × d_out with W_O."""
    if "dO" in givens and "target" in givens:
        raise SymattnError(f"{source}: give dO or target for the backward pass, not both")
    width = shapes.get("d_out", shapes["d_v"] * shapes.get("heads", 1))
    for key in ("dO", "target"):
        if key in givens and _shape(givens[key]) != (shapes["n"], width):
            rows, cols = _shape(givens[key])
            raise SymattnError(
                f"{source}: {key} has shape {rows} × {cols} but the output is "
                f"{shapes['n']} × {width}; {key} needs one entry per output entry"
            )


def check_shapes(
    givens: Mapping[str, tuple[tuple[Monomial, ...], ...]],
    source: str,
    direct: bool,
    groups: tuple[int, int] = (1, 1),
    keys: KeysSource | None = None,
) -> dict[str, int]:
    """The sizes; ``groups`` = (heads, kv_heads): K has kv_heads/heads as many columns
    as Q (grouped-query attention); ``keys``: a topic's matrix that K and V are projected
    from instead of X (a memory), which may have its own width."""
    heads, kv_heads = groups

    def kv_width(d_k: int) -> int:
        if kv_heads == heads:
            return d_k
        return d_k * kv_heads // heads if d_k % heads == 0 else -1

    def mismatch(a: str, b: str, rule: str) -> SymattnError:
        return SymattnError(
            f"{source}: {a} has shape {_fmt(_shape(givens[a]))} but {b} has shape "
            f"{_fmt(_shape(givens[b]))}; {rule}"
        )

    if direct:
        (n, d_k), (m, d_k2), (m2, d_v) = (_shape(givens[k]) for k in ("Q", "K", "V"))
        if d_k2 != kv_width(d_k):
            if kv_heads != heads:
                raise mismatch("K", "Q", _GROUPED)
            raise mismatch("K", "Q", "Q Kᵀ needs Q and K to have the same number of columns (d_k)")
        if m2 != m:
            raise mismatch("V", "K", "V needs one row per key, as many rows as K")
        return {"n": n, "m": m, "d_k": d_k, "d_v": d_v}
    n, d_model = _shape(givens["X"])
    own = keys is not None and keys.given in givens
    kv = keys.given if own and keys is not None else "X"
    m, d_kv = _shape(givens[kv])  # its own width (PyTorch's kdim, vdim)
    kv_name = keys.width if own and keys is not None else "d_model"
    for w, src, width, name in (
        ("W_Q", "X", d_model, "d_model"),
        ("W_K", kv, d_kv, kv_name),
        ("W_V", kv, d_kv, kv_name),
    ):
        rows = _shape(givens[w])[0]
        if rows != width:
            raise mismatch(
                w,
                src,
                f"{src} {w} needs as many rows in {w} as columns in {src} ({name} = {width})",
            )
    d_k = _shape(givens["W_Q"])[1]
    if _shape(givens["W_K"])[1] != kv_width(d_k):
        if kv_heads != heads:
            raise mismatch("W_K", "W_Q", _GROUPED)
        raise mismatch(
            "W_K", "W_Q", "W_Q and W_K need the same number of columns (d_k), so that Q Kᵀ exists"
        )
    d_v = _shape(givens["W_V"])[1]
    shapes = {"n": n, "m": m, "d_model": d_model, "d_k": d_k, "d_v": d_v}
    if d_kv != d_model:
        shapes[kv_name] = d_kv
    return shapes


_GROUPED = "with kv_heads, K has a block of d_k columns per K/V head (kv_heads · d_k)"


def read_scale(raw: Any, d_k: int, reader: ValueReader, source: str) -> tuple[Surd | None, str]:
    if isinstance(raw, str):
        text = raw.strip()
        if text.lower() == "none":
            return None, "none"
        if text.replace(" ", "") in ("sqrt(d_k)", "√d_k"):
            return Surd.sqrt(d_k), "sqrt(d_k)"
    mono = reader.value(raw, "scale")
    if not mono.is_number:
        raise SymattnError(f"{source}: scale: expected a positive number, found {raw!r}")
    if mono.coef.sign() <= 0:
        raise SymattnError(f"{source}: scale: the divisor must be positive, found {raw!r}")
    return mono.coef, sstr(mono.coef)


def read_padding(
    pad: Any,
    mask: Mask | None,
    label: str,
    keys: tuple[str, ...] | None,
    shapes: dict[str, int],
    source: str,
) -> tuple[Mask | None, str]:
    """``pad_token``: the keys at its positions are masked, on top of any other mask."""
    if pad is None:
        return mask, label
    if not isinstance(pad, str) or not pad:
        raise SymattnError(f'{source}: pad_token: expected a token, such as "<pad>"')
    if keys is not None and len(keys) != shapes["m"]:
        keys = None  # the tokens label the queries only (Q, K, V given with m ≠ n)
    if keys is None:
        raise SymattnError(
            f"{source}: pad_token: the keys have no tokens to look for it in; give text, "
            f"tokens or {' or '.join(s.tokens for s in keys_sources())}"
        )
    padded = [key == pad for key in keys]
    if not any(padded):
        return mask, label
    n, m = shapes["n"], shapes["m"]
    base = mask or tuple(tuple(True for _ in range(m)) for _ in range(n))
    combined = tuple(tuple(a and not p for a, p in zip(row, padded)) for row in base)
    for i, row in enumerate(combined):
        if not any(row):
            raise SymattnError(
                f"{source}: pad_token: query {i + 1} may attend to no key once the padding "
                f"{pad!r} is masked, so its softmax is undefined"
            )
    return combined, "padding" if label == "none" else f"{label}+padding"


def read_mask(raw: Any, n: int, m: int, source: str) -> tuple[Mask | None, str]:
    if isinstance(raw, str):
        if raw == "none":
            return None, "none"
        if raw == "causal":
            return tuple(tuple(j <= i for j in range(m)) for i in range(n)), "causal"
        raise SymattnError(
            f'{source}: mask: expected "none", "causal" or a {n} × {m} matrix of 0/1, found {raw!r}'
        )
    if not isinstance(raw, list) or not raw:
        raise SymattnError(f'{source}: mask: expected "none", "causal" or a matrix of 0/1')
    if len(raw) != n:
        raise SymattnError(
            f"{source}: mask: expected {n} rows, one per query (the mask is n × m = {n} × {m}), "
            f"found {len(raw)}"
        )
    rows: list[tuple[bool, ...]] = []
    for i, row in enumerate(raw):
        if not isinstance(row, list) or len(row) != m:
            raise SymattnError(
                f"{where(source, 'mask', i)}: expected {m} entries of 0/1 (one per key)"
            )
        for j, v in enumerate(row):
            if isinstance(v, bool) or v not in (0, 1):
                raise SymattnError(f"{where(source, 'mask', i, j)}: expected 0 or 1, found {v!r}")
        if not any(row):
            raise SymattnError(
                f"{where(source, 'mask', i)}: every key is masked, so the softmax of query "
                f"{i + 1} is undefined (0/0); allow at least one key with a 1"
            )
        rows.append(tuple(v == 1 for v in row))
    return tuple(rows), "explicit"
