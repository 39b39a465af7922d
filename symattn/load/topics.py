"""The problem keys of docs/topics.md read in one place: positions, RoPE, temperature,
additive attention, additive masks, ``valid_lens`` and the column layout.

:func:`read_layout` runs first (a column-layout file gives its matrices with tokens as
columns; they are stored transposed, in the row layout every other check reads), then
:func:`topic_matrices` and, once the shapes are known, :func:`read_topics`, which
returns the :class:`~symattn.problem.Problem` fields.  Every failure names the file and
the key (and the row and column of a bad entry).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Protocol

from ..errors import SymattnError, where
from ..numbers import NEG_INF, Surd
from ..problem import Mask, Matrix
from .checks import read_mask
from .values import Monomial

__all__ = [
    "TOPIC_KEYS",
    "is_additive_mask",
    "read_keep_mask",
    "read_layout",
    "read_topics",
    "topic_matrices",
]

TOPIC_KEYS = (
    "positions",
    "rope",
    "rope_base",
    "temperature",
    "score",
    "W_a",
    "U_a",
    "v_a",
    "valid_lens",
    "layout",
)

#: What a column-layout file gives with tokens as columns (stored transposed).
_COLUMN_MATRICES = ("X", "W_Q", "W_K", "W_V", "Q", "K", "V", "memory", "P")
_NEG_INF_TEXT = ("-inf", "−inf", "-∞", "−∞", "-oo", "-infinity", "−infinity")

Rows = tuple[tuple[Monomial, ...], ...]


class _Reader(Protocol):
    source: str

    def value(
        self, raw: object, key: str, row: int | None = None, col: int | None = None
    ) -> Monomial: ...

    def matrix(self, data: Mapping[str, Any], key: str) -> Rows: ...


def _t(rows: Any) -> Any:
    return tuple(zip(*rows))


def read_layout(data: Mapping[str, Any], givens: dict[str, Rows], source: str) -> str:
    """``layout = "column"``: the matrices are stored transposed (row layout)."""
    raw = data.get("layout", "row")
    if raw not in ("row", "column"):
        raise SymattnError(f'{source}: layout: expected "row" or "column", found {raw!r}')
    layout = str(raw)
    if layout == "row":
        return layout
    unsupported = [
        k
        for k in (
            *("text", "W_O", "dO", "target", "rope", "score", "positions"),
            *("kv_heads", "decode", "block"),
        )
        if k in data and data[k] not in (False, "dot", "none")
    ]
    if data.get("heads", 1) != 1:
        unsupported.insert(0, "heads")
    if unsupported:
        raise SymattnError(
            f"{source}: layout: the column layout is not available with "
            f"{', '.join(unsupported)} yet; use the row layout for it"
        )
    for key in _COLUMN_MATRICES:
        if key in givens:
            givens[key] = _t(givens[key])
    return layout


def topic_matrices(data: Mapping[str, Any], reader: _Reader, givens: dict[str, Rows]) -> None:
    """The matrices of the new keys: W_a, U_a, v_a (a vector, kept as a column) and P."""
    for key in ("W_a", "U_a"):
        if key in data:
            givens[key] = reader.matrix(data, key)
    if "v_a" in data:
        raw = data["v_a"]
        if isinstance(raw, list) and raw and not any(isinstance(x, list) for x in raw):
            givens["v_a"] = tuple((reader.value(x, "v_a", k),) for k, x in enumerate(raw))
        else:
            givens["v_a"] = reader.matrix(data, "v_a")
    if isinstance(data.get("positions"), list):
        givens["P"] = reader.matrix({"positions": data["positions"]}, "positions")


def _negative(v: Any) -> bool:
    if isinstance(v, bool):
        return False
    if isinstance(v, Decimal):
        return v.is_signed() and not v.is_nan() and not v.is_zero()
    if isinstance(v, (int, float)):
        return bool(v < 0)
    return isinstance(v, str) and v.strip()[:1] in ("-", "−")


def is_additive_mask(raw: Any) -> bool:
    """A mask matrix with a negative entry (−99, "-inf") adds to the scores; a matrix of
    0/1 stays a keep-mask."""
    if not isinstance(raw, list):
        return False
    return any(isinstance(row, list) and any(_negative(v) for v in row) for row in raw)


def read_keep_mask(raw: Any, n: int, m: int, layout: str, source: str) -> tuple[Mask | None, str]:
    """The mask key: additive (read by :func:`read_topics`), or a keep-mask, written
    m × n (keys down the side) in the column layout."""
    if is_additive_mask(raw):
        return None, "additive"
    if layout == "column" and isinstance(raw, list):
        keep, label = read_mask(raw, m, n, source)
        return (None if keep is None else _t(keep)), label
    return read_mask(raw, n, m, source)


def _positive(raw: Any, key: str, reader: _Reader, source: str) -> Surd:
    mono = reader.value(raw, key)
    if not mono.is_number or mono.coef.sign() <= 0:
        raise SymattnError(f"{source}: {key}: expected a positive number, found {raw!r}")
    return mono.coef


def _additive(raw: Any, n: int, m: int, reader: _Reader, source: str) -> Matrix:
    if len(raw) != n:
        raise SymattnError(f"{source}: mask: expected {n} rows, one per query, found {len(raw)}")
    rows = []
    for i, row in enumerate(raw):
        if len(row) != m:
            raise SymattnError(f"{where(source, 'mask', i)}: expected {m} entries (one per key)")
        cells: list[Any] = []
        for j, v in enumerate(row):
            text = v.strip().lower() if isinstance(v, str) else None
            if text in _NEG_INF_TEXT or (
                isinstance(v, (float, Decimal)) and v == Decimal("-Infinity")
            ):
                cells.append(NEG_INF)
                continue
            mono = reader.value(v, "mask", i, j)
            if not mono.is_number or mono.coef.sign() > 0:
                raise SymattnError(
                    f"{where(source, 'mask', i, j)}: an additive mask holds 0, negative numbers "
                    f"or -inf; found {v!r}"
                )
            cells.append(mono.coef)
        if all(c is NEG_INF for c in cells):
            raise SymattnError(
                f"{where(source, 'mask', i)}: every key is −∞, so the softmax of query {i + 1} "
                "is undefined; leave at least one key finite"
            )
        rows.append(tuple(cells))
    return tuple(rows)


def _valid_lens(raw: Any, n: int, m: int, source: str) -> tuple[int, ...]:
    lens = [raw] * n if isinstance(raw, int) and not isinstance(raw, bool) else raw
    if not isinstance(lens, list) or len(lens) != n:
        raise SymattnError(
            f"{source}: valid_lens: expected a whole number or a list of {n} (one per query)"
        )
    for i, length in enumerate(lens):
        if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= m:
            raise SymattnError(
                f"{source}: valid_lens[{i + 1}]: expected a whole number 1 … {m} (keys that "
                f"query {i + 1} may see), found {length!r}"
            )
    return tuple(lens)


def _shape_rule(
    givens: Mapping[str, Rows], key: str, rows: int, cols: int | None, what: str, source: str
) -> int:
    matrix = givens[key]
    found = (len(matrix), len(matrix[0]))
    if found[0] != rows or (cols is not None and found[1] != cols):
        want = f"{rows} × {cols}" if cols is not None else f"{rows} rows"
        raise SymattnError(
            f"{source}: {key} has shape {found[0]} × {found[1]} but needs {want} ({what})"
        )
    return found[1]


def read_topics(
    data: Mapping[str, Any],
    reader: _Reader,
    shapes: Mapping[str, int],
    givens: Mapping[str, Rows],
    mask: tuple[Mask | None, str],
    layout: str,
) -> dict[str, Any]:
    """The Problem fields of the §10 keys (the mask, refined)."""
    source = reader.source
    n, m, d_k = shapes["n"], shapes["m"], shapes["d_k"]
    out: dict[str, Any] = {"layout": layout}
    upstream = [k for k in ("dO", "target") if k in data]
    used = [
        k
        for k in ("positions", "rope", "temperature", "score", "layout")
        if data.get(k, False) not in (False, "none", "dot", "row")
    ]
    if upstream and used:
        raise SymattnError(
            f"{source}: {upstream[0]}: the backward pass is not available with {used[0]} yet"
        )
    positions = data.get("positions", "none")
    if isinstance(positions, list):
        out["positions"] = "given"
        if "d_model" not in shapes:
            raise SymattnError(f"{source}: positions: need X (they are added to it)")
        _shape_rule(givens, "P", n, shapes["d_model"], "n × d_model, added to X", source)
    elif positions in ("none", "sinusoidal"):
        if positions == "sinusoidal" and "d_model" not in shapes:
            raise SymattnError(f"{source}: positions: need X (they are added to it)")
        out["positions"] = positions
    else:
        raise SymattnError(
            f'{source}: positions: expected "sinusoidal", "none" or an n × d_model matrix, '
            f"found {positions!r}"
        )
    rope = data.get("rope", False)
    if not isinstance(rope, bool):
        raise SymattnError(f"{source}: rope: expected true or false, found {rope!r}")
    if rope and d_k % 2:
        raise SymattnError(f"{source}: rope: d_k = {d_k} is odd; RoPE rotates pairs of columns")
    out["rope"] = rope
    if "rope_base" in data:
        if not rope:
            raise SymattnError(f"{source}: rope_base: given without rope = true")
        out["rope_base"] = _positive(data["rope_base"], "rope_base", reader, source)
    elif rope:
        out["rope_base"] = Surd.rational(10000)
    if "temperature" in data:
        out["temperature"] = _positive(data["temperature"], "temperature", reader, source)
    score = data.get("score", "dot")
    if score not in ("dot", "additive"):
        raise SymattnError(f'{source}: score: expected "dot" or "additive", found {score!r}')
    out["score"] = score
    extra = [k for k in ("W_a", "U_a", "v_a") if k in givens]
    if score == "additive":
        missing = [k for k in ("W_a", "U_a", "v_a") if k not in givens]
        if missing:
            raise SymattnError(
                f"{source}: missing {', '.join(missing)}: additive attention needs W_a, U_a "
                "(d_k × d_a) and v_a (d_a entries)"
            )
        d_a = _shape_rule(givens, "W_a", d_k, None, "d_k × d_a: q_i W_a", source)
        _shape_rule(givens, "U_a", d_k, d_a, "d_k × d_a, as W_a: k_j U_a", source)
        _shape_rule(givens, "v_a", d_a, 1, "one entry per column of W_a", source)
    elif extra:
        raise SymattnError(f'{source}: {extra[0]}: given without score = "additive"')
    keep, label = mask
    if "valid_lens" in data:
        lens = _valid_lens(data["valid_lens"], n, m, source)
        out["valid_lens"] = lens
        base = keep or tuple(tuple(True for _ in range(m)) for _ in range(n))
        keep = tuple(
            tuple(k and j < lens[i] for j, k in enumerate(row)) for i, row in enumerate(base)
        )
        for i, row in enumerate(keep):
            if not any(row):
                raise SymattnError(f"{source}: valid_lens: query {i + 1} may see no key")
        label = "valid_lens" if label == "none" else f"{label}+valid_lens"
    raw_mask = data.get("mask")
    if is_additive_mask(raw_mask):
        rows, cols = (m, n) if layout == "column" else (n, m)
        values = _additive(raw_mask, rows, cols, reader, source)
        if layout == "column":
            values = _t(values)
        if keep is not None:  # padding or valid_lens on top: −∞ there
            values = tuple(
                tuple(v if k else NEG_INF for v, k in zip(row, krow))
                for row, krow in zip(values, keep)
            )
        out["mask_add"], keep = values, None
    out["mask"], out["mask_label"] = keep, label
    return out
