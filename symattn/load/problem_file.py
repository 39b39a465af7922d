"""Problem files: TOML, JSON or a dict into a validated, frozen :class:`Problem`.

Every value goes through :mod:`symattn.load.values` (no ``eval``, no ``sympify``), every
shape is checked against the rules of docs/problem-format.md, and every failure is a
:class:`~symattn.errors.SymattnError` whose one-line message names the file, the key
and, where it applies, the row and column.

>>> p = load({"X": [[1, 0], [0, 1]], "W_Q": [[1, 0], [0, 1]],
...           "W_K": [[1, 0], [0, 1]], "W_V": [["1/2", 0], [0, 1]]})
>>> p.n, p.d_model, p.d_k, p.scale.terms
(2, 2, 2, ((2, Fraction(1, 1)),))
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from ..errors import SymattnError, where
from ..numbers import to_sympy
from ..printing import Notation
from ..problem import Lookup, Matrix, Problem, Shapes
from ..topics import LoadContext, source_widths
from ..topics import keys as topic_keys
from .checks import (
    check_raw_sizes,
    check_shapes,
    check_upstream,
    labels,
    read_padding,
    read_scale,
    show,
    split_heads,
)
from .files import read_file
from .tokens import Vocabulary, tokenize
from .topic_reading import (
    CORE_KEYS,
    read_layout,
    read_topics,
    reading_topics,
    scan_symbols,
    topic_keep_mask,
)
from .values import Monomial, ValueSyntaxError, parse_value, symbol_name_error

__all__ = ["DEFAULT_MAX_SIZE", "DEFAULT_MAX_SYMBOLIC_SIZE", "known_keys", "load", "plain"]


#: Largest n, m, d_model, d_k or d_v derived exactly unless the caller lifts it.
DEFAULT_MAX_SIZE = 128
#: The same limit for problems with symbols, whose expressions grow much faster.
DEFAULT_MAX_SYMBOLIC_SIZE = 8
#: Problem files larger than this are refused before parsing.
MAX_FILE_BYTES = 20_000_000


def known_keys() -> tuple[str, ...]:
    """Every key a problem file may have: the core's, then the topics'."""
    return (*CORE_KEYS, *topic_keys())


class _Reader:
    """Parses the entries of one problem, remembering whether any symbol appeared."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.symbolic = False
        #: entries read before, by text or integer: a large matrix repeats its few
        #: values (Monomials are immutable, so one object serves every repeat)
        self._seen: dict[int | str, Monomial] = {}

    def value(self, raw: object, key: str, row: int | None = None, col: int | None = None) -> Any:
        if type(raw) is int or type(raw) is str:  # not bool, Decimal, float: equal to ints
            found = self._seen.get(raw)
            if found is None:
                found = self._seen[raw] = self._parse(raw, key, row, col)
            if not found.is_number:
                self.symbolic = True
            return found
        return self._parse(raw, key, row, col)

    def _parse(self, raw: object, key: str, row: int | None, col: int | None) -> Monomial:
        try:
            mono = parse_value(raw)
        except ValueSyntaxError as exc:
            shown = raw if isinstance(raw, str) else show(raw)
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
                import json  # only to show a row that is not one (start-up, issue 24)

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


def load(
    problem: str | os.PathLike[str] | Mapping[str, Any],
    *,
    max_size: int | None = None,
    source: str | None = None,
) -> Problem:
    """Read and validate a problem from a file path or a dict (docs/problem-format.md)."""
    if isinstance(problem, Mapping):
        data: Mapping[str, Any] = plain(problem)
        name = source or "<problem>"
    else:
        name = source or str(problem)
        data = read_file(problem)
    return _build(data, name, max_size)


def plain(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with every NumPy array and scalar in it as the lists and numbers it holds
    (``tolist``; NumPy itself is never imported), so that a matrix may be an array."""
    return {k: _plain(v) for k, v in data.items()}


def _plain(value: Any) -> Any:
    if hasattr(value, "tolist") and hasattr(value, "dtype"):
        return value.tolist()
    if isinstance(value, Mapping):
        return plain(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _build(data: Mapping[str, Any], source: str, max_size: int | None) -> Problem:
    topics = reading_topics(data)
    known = (*CORE_KEYS, *(key for topic in topics for key in topic.keys))
    unknown = [k for k in data if k not in known]
    if unknown:
        key = unknown[0]
        lowered = {k.lower(): k for k in known}
        import difflib  # only for a misspelt key (start-up, issue 24)

        close = difflib.get_close_matches(str(key).lower(), list(lowered), n=1, cutoff=0.6)
        hint = f" (did you mean {lowered[close[0]]!r}?)" if close else ""
        raise SymattnError(f"{source}: unknown key {key!r}{hint}; known keys: {', '.join(known)}")
    heads = data.get("heads", 1)
    if isinstance(heads, bool) or not isinstance(heads, int) or not 1 <= heads <= 16:
        raise SymattnError(f"{source}: heads: expected a whole number 1 … 16, found {heads!r}")
    places = data.get("places")
    if places is not None and (
        isinstance(places, bool) or not isinstance(places, int) or not 0 <= places <= 12
    ):
        raise SymattnError(f"{source}: places: expected a whole number 0 … 12, found {places!r}")
    # a topic's matrix that K and V are projected from (a memory): read with X and the W's
    kv = next((t.keys_source for t in topics if t.keys_source is not None), None)
    kv_given = () if kv is None else (kv.given,)
    check_raw_sizes(data, heads, max_size or DEFAULT_MAX_SIZE, source, kv_given)
    reader = _Reader(source)
    givens: dict[str, tuple[tuple[Monomial, ...], ...]] = {}
    for key in ("X", "W_Q", "W_K", "W_V", "Q", "K", "V", *kv_given, "W_O", "dO", "target"):
        if key in data:
            givens[key] = reader.matrix(data, key)
    scan_symbols(data, reader, topics)
    layout = read_layout(data, givens, source, kv_given)

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
        words, ids = tokenize(text, vocab, source, limit=max_size or DEFAULT_MAX_SIZE)
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
        if kv is not None and kv.given in givens:
            raise SymattnError(f"{source}: {kv.given} needs X and the W's, not Q, K, V directly")
    else:
        for key in ("X", "W_Q", "W_K", "W_V"):
            if key not in givens:
                raise SymattnError(
                    f"{source}: missing {key}: give X (or text + vocab + embedding) with W_Q, "
                    "W_K and W_V, or Q, K and V directly"
                )

    ctx = LoadContext(data, reader, layout, lambda rows: convert(rows))
    for topic in topics:
        topic.early(ctx)
    kv_heads = ctx.kv_heads
    shapes = check_shapes(givens, source, bool(direct), (heads, kv_heads or heads), kv)
    split_heads(shapes, heads, givens, source, "Q" if direct else "W_Q", kv_heads or heads)
    check_upstream(shapes, givens, source)
    limit = max_size or (DEFAULT_MAX_SYMBOLIC_SIZE if reader.symbolic else DEFAULT_MAX_SIZE)
    width = () if kv is None else (kv.width,)  # the width of the keys' source, when its own
    for dim in ("n", "m", "d_model", *width, "d_k", "d_v"):
        if dim in shapes and shapes[dim] > limit:
            kind = "symbolic" if reader.symbolic else "exact"
            dims = ", ".join(("n", "m", "d_model", *source_widths(), "d_k", "d_v"))
            raise SymattnError(
                f"{source}: {dim} = {shapes[dim]} is larger than the {kind}-derivation limit of "
                f"{limit} ({dims})",
                lift=("max_size", shapes[dim]),
            )

    def convert(rows: tuple[tuple[Monomial, ...], ...]) -> Matrix:
        if reader.symbolic:
            return tuple(tuple(v.to_sympy() for v in row) for row in rows)
        return tuple(tuple(v.coef for v in row) for row in rows)

    matrices = {k: convert(v) for k, v in givens.items()}
    default_scale = next(
        (d for t in topics if (d := t.default_scale(data)) is not None), "sqrt(d_k)"
    )
    scale, scale_label = read_scale(data.get("scale", default_scale), shapes["d_k"], reader, source)
    if reader.symbolic and scale is not None:
        scale = to_sympy(scale)
    mask, mask_label = topic_keep_mask(data, shapes["n"], shapes["m"], layout, source, topics)

    title = data.get("title")
    description = data.get("description")
    for key, value in (("title", title), ("description", description)):
        if value is not None and not isinstance(value, str):
            raise SymattnError(f"{source}: {key}: expected a string")
    tokens = lookup.tokens if lookup else labels(data, "tokens", shapes["n"], source)
    if lookup and "tokens" in data:
        raise SymattnError(f"{source}: tokens: not needed with text; the tokens come from it")
    key_tokens = None if kv is None else labels(data, kv.tokens, shapes["m"], source)
    mask, mask_label = read_padding(
        data.get("pad_token"),
        mask,
        mask_label,
        key_tokens if kv is not None and kv.given in givens else tokens,
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
    if kv is not None and key_tokens and kv.given not in givens:
        raise SymattnError(f"{source}: {kv.tokens}: given without {kv.given}")
    ctx.shapes, ctx.mask, ctx.mask_label = dict(shapes, heads=heads), mask, mask_label
    configs = read_topics(ctx, topics)

    return Problem(
        source=source,
        shapes=Shapes(
            n=shapes["n"],
            m=shapes["m"],
            d_k=shapes["d_k"],
            d_v=shapes["d_v"],
            d_model=shapes.get("d_model"),
            heads=heads,
            d_out=shapes.get("d_out"),
            widths=tuple((w, shapes[w]) for w in width if w in shapes),
        ),
        X=matrices.get("X"),
        W_Q=matrices.get("W_Q"),
        W_K=matrices.get("W_K"),
        W_V=matrices.get("W_V"),
        Q=matrices.get("Q"),
        K=matrices.get("K"),
        V=matrices.get("V"),
        scale=scale,
        scale_label=scale_label,
        symbolic=reader.symbolic,
        title=title,
        description=description,
        tokens=tokens,
        lookup=lookup,
        notation=tuple((str(k), v) for k, v in notation.items()),
        W_O=matrices.get("W_O"),
        dO=matrices.get("dO"),
        target=matrices.get("target"),
        places=places,
        mask=ctx.mask,
        mask_label=ctx.mask_label,
        layout=layout,
        topics=configs,
    )
