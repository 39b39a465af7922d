"""Problem files: read TOML, JSON or a dict into a validated, frozen :class:`Problem`.

Every value goes through :mod:`symattn.values` (no ``eval``, no ``sympify``), every
shape is checked against the rules of SPEC §1, and every failure is a
:class:`~symattn.errors.SymattnError` whose one-line message names the file, the key
and, where it applies, the row and column.

>>> p = load({"X": [[1, 0], [0, 1]], "W_Q": [[1, 0], [0, 1]],
...           "W_K": [[1, 0], [0, 1]], "W_V": [["1/2", 0], [0, 1]]})
>>> p.n, p.d_model, p.d_k, str(p.scale)
(2, 2, 2, 'sqrt(2)')
"""

from __future__ import annotations

import difflib
import json
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from .errors import SymattnError, where
from .exact import Surd
from .notation import Notation
from .tokens import Vocabulary, tokenize
from .values import Monomial, ValueSyntaxError, parse_value, symbol_name_error

__all__ = ["DEFAULT_MAX_SIZE", "Lookup", "Matrix", "Problem", "load", "read_file"]

Matrix = tuple[tuple[Any, ...], ...]
"""A matrix: rows of entries (:class:`~symattn.exact.Surd`, or SymPy expressions)."""

#: Largest n, m, d_model, d_k or d_v derived exactly unless the caller lifts it.
DEFAULT_MAX_SIZE = 128
#: The same limit for problems with symbols, whose expressions grow much faster.
DEFAULT_MAX_SYMBOLIC_SIZE = 8
#: Problem files larger than this are refused before parsing.
MAX_FILE_BYTES = 20_000_000

KNOWN_KEYS = (
    "title",
    "description",
    "tokens",
    "X",
    "text",
    "vocab",
    "embedding",
    "W_Q",
    "W_K",
    "W_V",
    "Q",
    "K",
    "V",
    "scale",
    "mask",
    "heads",
    "memory",
    "memory_tokens",
    "notation",
    "W_O",
    "pad_token",
    "dO",
    "target",
)


@dataclass(frozen=True)
class Lookup:
    """The embedding lookup: which token became which id, and so which row of X."""

    text: str
    tokens: tuple[str, ...]
    ids: tuple[int, ...]


@dataclass(frozen=True)
class Problem:
    """A validated attention problem (SPEC §1–2), exact values throughout."""

    source: str
    X: Matrix | None
    W_Q: Matrix | None
    W_K: Matrix | None
    W_V: Matrix | None
    Q: Matrix | None
    K: Matrix | None
    V: Matrix | None
    memory: Matrix | None
    scale: Any  # Surd (or SymPy expression) divisor; None means no scaling
    scale_label: str  # "sqrt(d_k)", "none" or the value as written
    mask: tuple[tuple[bool, ...], ...] | None  # True = may attend
    mask_label: str  # "none", "causal" or "explicit"
    symbolic: bool
    title: str | None = None
    description: str | None = None
    tokens: tuple[str, ...] | None = None
    memory_tokens: tuple[str, ...] | None = None
    lookup: Lookup | None = None
    shapes: dict[str, int] = field(default_factory=dict)
    notation: dict[str, str] = field(default_factory=dict)
    heads: int = 1
    W_O: Matrix | None = None
    dO: Matrix | None = None
    target: Matrix | None = None

    @property
    def n(self) -> int:
        return self.shapes["n"]

    @property
    def m(self) -> int:
        return self.shapes["m"]

    @property
    def d_model(self) -> int | None:
        return self.shapes.get("d_model")

    @property
    def d_k(self) -> int:
        return self.shapes["d_k"]

    @property
    def d_v(self) -> int:
        return self.shapes["d_v"]


# -- reading files ------------------------------------------------------------


def read_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a TOML or JSON file into a dict, decimals as :class:`~decimal.Decimal`."""
    where_ = str(path)
    try:
        size = os.path.getsize(path)
        if size > MAX_FILE_BYTES:
            raise SymattnError(f"{where_}: file is larger than {MAX_FILE_BYTES} bytes")
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise SymattnError(f"{where_}: no such file") from None
    except IsADirectoryError:
        raise SymattnError(f"{where_}: is a directory, not a problem file") from None
    except OSError as exc:
        raise SymattnError(f"{where_}: cannot read ({exc.strerror})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SymattnError(f"{where_}: not UTF-8 text (byte {exc.start + 1})") from None
    suffix = Path(path).suffix.lower()
    if suffix == ".json" or (suffix != ".toml" and text.lstrip().startswith("{")):
        return _parse_json(text, where_)
    return _parse_toml(text, where_)


def _parse_json(text: str, source: str) -> dict[str, Any]:
    try:
        data = json.loads(text, parse_float=Decimal, parse_constant=Decimal)
    except json.JSONDecodeError as exc:
        raise SymattnError(
            f"{source}: malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
    except (ValueError, RecursionError) as exc:
        raise SymattnError(f"{source}: malformed JSON: {exc}") from None
    if not isinstance(data, dict):
        raise SymattnError(f"{source}: the top level must be an object of keys")
    return data


def _parse_toml(text: str, source: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        data: dict[str, Any] = tomllib.loads(text, parse_float=Decimal)
        return data
    except tomllib.TOMLDecodeError as exc:
        raise SymattnError(f"{source}: malformed TOML: {exc}") from None
    except RecursionError:
        raise SymattnError(f"{source}: malformed TOML: nested too deeply") from None


# -- values and matrices -------------------------------------------------------


class _Reader:
    """Parses the entries of one problem, remembering whether any symbol appeared."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.symbolic = False

    def value(self, raw: object, key: str, row: int | None = None, col: int | None = None) -> Any:
        try:
            mono = parse_value(raw)
        except ValueSyntaxError as exc:
            shown = raw if isinstance(raw, str) else _show(raw)
            reason = str(exc)
            if reason.startswith(("unexpected", "empty", "value ends", "expected a number")):
                reason += (
                    '; expected an integer, a decimal, a fraction "3/4", "sqrt(N)" or a symbol'
                )
            raise SymattnError(
                f"{where(self.source, key, row, col)}: bad value {shown!r}: {reason}"
            ) from None
        if not mono.is_number:
            self.symbolic = True
        return mono

    def matrix(self, data: Mapping[str, Any], key: str) -> tuple[tuple[Monomial, ...], ...]:
        raw = data[key]
        if isinstance(raw, Mapping):
            return self._generic(raw, key)
        if not isinstance(raw, list):
            raise SymattnError(
                f"{self.source}: {key}: expected a matrix (a list of rows), found "
                f"{type(raw).__name__}"
            )
        if not raw:
            raise SymattnError(f"{self.source}: {key}: the matrix is empty")
        rows: list[tuple[Monomial, ...]] = []
        for i, row in enumerate(raw):
            if not isinstance(row, list):
                raise SymattnError(
                    f"{where(self.source, key, i)}: expected a row (a list of numbers), "
                    f"found {json.dumps(row, default=str)}"
                )
            if not row:
                raise SymattnError(f"{where(self.source, key, i)}: the row is empty")
            if len(row) != len(raw[0]):
                raise SymattnError(
                    f"{where(self.source, key, i)}: ragged matrix: row {i + 1} has "
                    f"{len(row)} entries but row 1 has {len(raw[0])}"
                )
            rows.append(tuple(self.value(v, key, i, j) for j, v in enumerate(row)))
        return tuple(rows)

    def _generic(self, spec: Mapping[str, Any], key: str) -> tuple[tuple[Monomial, ...], ...]:
        """``{ symbol = "w", shape = [3, 2] }``: a matrix of generic symbols w_11 … w_32."""
        extra = set(spec) - {"symbol", "shape"}
        if extra or "symbol" not in spec or "shape" not in spec:
            raise SymattnError(
                f'{self.source}: {key}: a symbolic matrix is {{ symbol = "w", shape = [rows, '
                f"columns] }}; found keys {sorted(spec)}"
            )
        name, shape = spec["symbol"], spec["shape"]
        if not isinstance(name, str) or not name.isidentifier() or "__" in name:
            raise SymattnError(f'{self.source}: {key}.symbol: expected a name such as "w"')
        reason = symbol_name_error(name)
        if reason is not None:
            raise SymattnError(f"{self.source}: {key}.symbol: {reason}")
        if (
            not isinstance(shape, list)
            or len(shape) != 2
            or not all(isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in shape)
        ):
            raise SymattnError(
                f"{self.source}: {key}.shape: expected [rows, columns] of positive integers"
            )
        rows, cols = shape
        if rows * cols > 10_000:
            raise SymattnError(f"{self.source}: {key}.shape: {rows} × {cols} is too large")
        sep = "" if rows < 10 and cols < 10 else "_"
        self.symbolic = True
        return tuple(
            tuple(self.value(f"{name}_{i + 1}{sep}{j + 1}", key, i, j) for j in range(cols))
            for i in range(rows)
        )


def _show(raw: object) -> str:
    if isinstance(raw, Decimal):
        return str(raw)
    return json.dumps(raw, default=str, ensure_ascii=False)


def _shape(matrix: Sequence[Sequence[Any]]) -> tuple[int, int]:
    return len(matrix), len(matrix[0])


def _fmt(shape: tuple[int, int]) -> str:
    return f"{shape[0]} × {shape[1]}"


def _labels(data: Mapping[str, Any], key: str, count: int, source: str) -> tuple[str, ...] | None:
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


def load(
    problem: str | os.PathLike[str] | Mapping[str, Any],
    *,
    max_size: int | None = None,
    source: str | None = None,
) -> Problem:
    """Read and validate a problem from a file path or a dict (SPEC §2)."""
    if isinstance(problem, Mapping):
        data: Mapping[str, Any] = problem
        name = source or "<problem>"
    else:
        name = source or str(problem)
        data = read_file(problem)
    return _build(data, name, max_size)


def _build(data: Mapping[str, Any], source: str, max_size: int | None) -> Problem:
    unknown = [k for k in data if k not in KNOWN_KEYS]
    if unknown:
        key = unknown[0]
        lowered = {k.lower(): k for k in KNOWN_KEYS}
        close = difflib.get_close_matches(str(key).lower(), list(lowered), n=1, cutoff=0.6)
        hint = f" (did you mean {lowered[close[0]]!r}?)" if close else ""
        raise SymattnError(
            f"{source}: unknown key {key!r}{hint}; known keys: {', '.join(KNOWN_KEYS)}"
        )
    heads = data.get("heads", 1)
    if isinstance(heads, bool) or not isinstance(heads, int) or not 1 <= heads <= 16:
        raise SymattnError(f"{source}: heads: expected a whole number 1 … 16, found {heads!r}")
    reader = _Reader(source)
    givens: dict[str, tuple[tuple[Monomial, ...], ...]] = {}
    for key in ("X", "W_Q", "W_K", "W_V", "Q", "K", "V", "memory", "W_O", "dO", "target"):
        if key in data:
            givens[key] = reader.matrix(data, key)

    lookup: Lookup | None = None
    if "text" in data or "vocab" in data or "embedding" in data:
        if "X" in givens:
            raise SymattnError(f"{source}: give either X or text + vocab + embedding, not both")
        missing = [k for k in ("text", "vocab", "embedding") if k not in data]
        if missing:
            raise SymattnError(
                f"{source}: missing {', '.join(missing)}: the embedding lookup needs text, "
                "vocab and embedding"
            )
        vocab = Vocabulary.from_data(data["vocab"], data["embedding"], source)
        text = data["text"]
        if not isinstance(text, str):
            raise SymattnError(f"{source}: text: expected a string")
        words, ids = tokenize(text, vocab, source)
        rows = []
        for token_id in ids:
            raw_row = vocab.row(token_id)
            rows.append(
                tuple(
                    reader.value(v, f"embedding[{token_id}]", None, j)
                    for j, v in enumerate(raw_row)
                )
            )
        givens["X"] = tuple(rows)
        lookup = Lookup(text, tuple(words), tuple(ids))

    direct: list[str] = [k for k in ("Q", "K", "V") if k in givens]
    projected: list[str] = [k for k in ("X", "W_Q", "W_K", "W_V") if k in givens]
    if direct and projected and set(projected) != {"X"}:
        raise SymattnError(
            f"{source}: give either X with W_Q, W_K and W_V, or Q, K and V directly, not both "
            f"(found {', '.join(projected + direct)})"
        )
    if direct:
        for key in ("Q", "K", "V"):
            if key not in givens:
                raise SymattnError(
                    f"{source}: missing {key}: when Q, K, V are given directly all three are needed"
                )
        if "memory" in givens:
            raise SymattnError(f"{source}: memory needs X and the W's, not Q, K, V directly")
    else:
        for key in ("X", "W_Q", "W_K", "W_V"):
            if key not in givens:
                raise SymattnError(
                    f"{source}: missing {key}: give X (or text + vocab + embedding) with W_Q, "
                    "W_K and W_V, or Q, K and V directly"
                )

    shapes = _check_shapes(givens, source, bool(direct))
    _split_heads(shapes, heads, givens, source, "Q" if direct else "W_Q")
    _check_upstream(shapes, givens, source)
    limit = max_size or (DEFAULT_MAX_SYMBOLIC_SIZE if reader.symbolic else DEFAULT_MAX_SIZE)
    for dim in ("n", "m", "d_model", "d_k", "d_v"):
        if dim in shapes and shapes[dim] > limit:
            kind = "symbolic" if reader.symbolic else "exact"
            raise SymattnError(
                f"{source}: {dim} = {shapes[dim]} is larger than the {kind}-derivation limit of "
                f"{limit} (n, m, d_model, d_k, d_v); pass --max-size {shapes[dim]} (or "
                f"max_size={shapes[dim]}) to lift it"
            )

    def convert(rows: tuple[tuple[Monomial, ...], ...]) -> Matrix:
        if reader.symbolic:
            return tuple(tuple(v.to_sympy() for v in row) for row in rows)
        return tuple(tuple(v.coef for v in row) for row in rows)

    matrices = {k: convert(v) for k, v in givens.items()}
    scale, scale_label = _scale(data.get("scale", "sqrt(d_k)"), shapes["d_k"], reader, source)
    if reader.symbolic and scale is not None:
        scale = scale.to_sympy()
    mask, mask_label = _mask(data.get("mask", "none"), shapes["n"], shapes["m"], source)

    title = data.get("title")
    description = data.get("description")
    for key, value in (("title", title), ("description", description)):
        if value is not None and not isinstance(value, str):
            raise SymattnError(f"{source}: {key}: expected a string")
    tokens = lookup.tokens if lookup else _labels(data, "tokens", shapes["n"], source)
    if lookup and "tokens" in data:
        raise SymattnError(f"{source}: tokens: not needed with text; the tokens come from it")
    memory_tokens = _labels(data, "memory_tokens", shapes["m"], source)
    mask, mask_label = _padding(
        data.get("pad_token"),
        mask,
        mask_label,
        memory_tokens if "memory" in givens else tokens,
        shapes,
        source,
    )
    notation = data.get("notation", {})
    if not isinstance(notation, Mapping):
        raise SymattnError(f'{source}: notation: expected a table such as {{ weights = "a" }}')
    try:
        Notation.build("matrix", notation)
    except SymattnError as exc:
        raise SymattnError(f"{source}: {exc}") from None
    if memory_tokens and "memory" not in givens:
        raise SymattnError(f"{source}: memory_tokens: given without memory")

    return Problem(
        source=source,
        X=matrices.get("X"),
        W_Q=matrices.get("W_Q"),
        W_K=matrices.get("W_K"),
        W_V=matrices.get("W_V"),
        Q=matrices.get("Q"),
        K=matrices.get("K"),
        V=matrices.get("V"),
        memory=matrices.get("memory"),
        scale=scale,
        scale_label=scale_label,
        mask=mask,
        mask_label=mask_label,
        symbolic=reader.symbolic,
        title=title,
        description=description,
        tokens=tokens,
        memory_tokens=memory_tokens,
        lookup=lookup,
        shapes=shapes,
        notation=dict(notation),
        heads=heads,
        W_O=matrices.get("W_O"),
        dO=matrices.get("dO"),
        target=matrices.get("target"),
    )


def _split_heads(
    shapes: dict[str, int], heads: int, givens: Mapping[str, Any], source: str, first: str
) -> None:
    """Per-head widths: head t takes the t-th block of columns (SPEC §1)."""
    for dim, key in (("d_k", first), ("d_v", "V" if first == "Q" else "W_V")):
        if shapes[dim] % heads:
            raise SymattnError(
                f"{source}: {key} has {shapes[dim]} columns, which do not split into {heads} "
                f"heads of equal width; give {key} a multiple of {heads} columns"
            )
        shapes[dim] //= heads
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


def _check_upstream(shapes: dict[str, int], givens: Mapping[str, Any], source: str) -> None:
    """``dO`` or ``target`` (SPEC §5): n × d_v, or n × d_out with W_O."""
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


def _check_shapes(
    givens: Mapping[str, tuple[tuple[Monomial, ...], ...]], source: str, direct: bool
) -> dict[str, int]:
    def mismatch(a: str, b: str, rule: str) -> SymattnError:
        return SymattnError(
            f"{source}: {a} has shape {_fmt(_shape(givens[a]))} but {b} has shape "
            f"{_fmt(_shape(givens[b]))}; {rule}"
        )

    if direct:
        (n, d_k), (m, d_k2), (m2, d_v) = (_shape(givens[k]) for k in ("Q", "K", "V"))
        if d_k2 != d_k:
            raise mismatch("K", "Q", "Q Kᵀ needs Q and K to have the same number of columns (d_k)")
        if m2 != m:
            raise mismatch("V", "K", "V needs one row per key, as many rows as K")
        return {"n": n, "m": m, "d_k": d_k, "d_v": d_v}
    n, d_model = _shape(givens["X"])
    kv = "memory" if "memory" in givens else "X"
    m, d_mem = _shape(givens[kv])
    if d_mem != d_model:
        raise mismatch("memory", "X", "memory rows need d_model entries, as many as X has columns")
    for w, src in (("W_Q", "X"), ("W_K", kv), ("W_V", kv)):
        rows = _shape(givens[w])[0]
        if rows != d_model:
            raise mismatch(
                w,
                src,
                f"{src} {w} needs as many rows in {w} as columns in {src} (d_model = {d_model})",
            )
    d_k = _shape(givens["W_Q"])[1]
    if _shape(givens["W_K"])[1] != d_k:
        raise mismatch(
            "W_K", "W_Q", "W_Q and W_K need the same number of columns (d_k), so that Q Kᵀ exists"
        )
    d_v = _shape(givens["W_V"])[1]
    return {"n": n, "m": m, "d_model": d_model, "d_k": d_k, "d_v": d_v}


def _scale(raw: Any, d_k: int, reader: _Reader, source: str) -> tuple[Surd | None, str]:
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
    return mono.coef, str(mono.coef)


def _padding(
    pad: Any,
    mask: tuple[tuple[bool, ...], ...] | None,
    label: str,
    keys: tuple[str, ...] | None,
    shapes: dict[str, int],
    source: str,
) -> tuple[tuple[tuple[bool, ...], ...] | None, str]:
    """``pad_token``: the keys at its positions are masked, on top of any other mask."""
    if pad is None:
        return mask, label
    if not isinstance(pad, str) or not pad:
        raise SymattnError(f'{source}: pad_token: expected a token, such as "<pad>"')
    if keys is None:
        raise SymattnError(
            f"{source}: pad_token: the keys have no tokens to look for it in; give text, "
            "tokens or memory_tokens"
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


def _mask(raw: Any, n: int, m: int, source: str) -> tuple[tuple[tuple[bool, ...], ...] | None, str]:
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
