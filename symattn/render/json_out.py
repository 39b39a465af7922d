"""The JSON of ``symattn derive --format json`` (docs/json-output.md): every step's
exact entries, decimals and floats."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from ..derivation import Derivation
from ..numbers import ExpRatio, NegInf, Surd
from ..printing import StrPrinter
from ..steps import Step
from ..version import __version__
from ..words import Words
from .general import formula_text
from .view import ROWS, View, view_of
from .walker import title_of

__all__ = ["dumps", "json_chunks", "json_text", "render_json", "step_json"]


class _LazyRows(list):  # type: ignore[type-arg]
    """The rows of one matrix of a step (exact strings, decimals or floats), made only
    as :func:`dumps` writes them: the rows of a large step are never all alive."""

    def __init__(self, count: int, make: Callable[[int], list[Any]], plain: bool = False) -> None:
        super().__init__([None] * count)
        self.make = make
        #: strings that need no escapes (what the number printers write: digits,
        #: letters, operators, brackets, spaces), joined without looking
        self.plain = plain

    def row(self, i: int) -> list[Any]:
        return self.make(i)


def _plain(step: Step) -> bool:
    """Are the exact entries all numbers (no symbol names in their strings)?  The
    exponents of each softmax row and each tuple of coefficients are looked at once."""
    seen: set[int] = set()  # ids of rows and tuples alive in the step
    for row in step.exact:
        for x in row:
            if type(x) is Surd or isinstance(x, NegInf):
                continue
            if not isinstance(x, ExpRatio):
                return False
            for parts in (x.row.exponents, x.coefs):
                if id(parts) not in seen:
                    seen.add(id(parts))
                    if any(type(c) is not Surd for c in parts):
                        return False
    return True


def _exact_row(step: Step, printer: StrPrinter, i: int) -> list[str]:
    """The exact strings of row ``i``: rationals written directly, the rest printed."""
    out = []
    for x in step.exact[i]:
        terms = x.terms if type(x) is Surd else None
        if terms is not None and len(terms) == 1 and terms[0][0] == 1:
            q = terms[0][1]
            num, den = q.numerator, q.denominator
            out.append(str(num) if den == 1 else f"{num}/{den}")
        else:
            out.append(printer(x))
    return out


def step_json(
    step: Step,
    digits: int,
    words: Words,
    printer: StrPrinter | None = None,
    *,
    lazy: bool = False,
    view: View = ROWS,
) -> dict[str, Any]:
    """One step: id, title (in ``words``' language), formula, exact, decimal, float, as
    ``view`` writes it (the column layout: every matrix transposed)."""
    sstr = printer or StrPrinter()
    formula = formula_text(step.spec, words, view)
    out: dict[str, Any] = {"id": step.id, "title": title_of(step, words), "formula": formula}
    row_labels, col_labels = step.row_labels, step.col_labels
    if view.columns:  # row r of the written matrix is column r of the row layout's
        rows, cols = step.shape
        exact = partial(_column, rows, lambda i, r: sstr(step.exact[i][r]))
        decimal = partial(_column, rows, lambda i, r: step.decimal_str(i, r, digits))
        floats = partial(_column, rows, step.float_value)
        written: list[tuple[Callable[[int], list[Any]], bool]] = [
            (exact, False),
            (decimal, False),
            (floats, False),
        ]
        count = cols
        row_labels, col_labels = col_labels, row_labels
    else:
        written = [
            (partial(_exact_row, step, sstr), _plain(step)),
            (partial(step.decimal_row, digits=digits), False),
            (step.float_row, False),
        ]
        count = step.shape[0]
    for name, (make, plain) in zip(("exact", "decimal", "float"), written):
        rows_of: list[Any] = _LazyRows(count, make, plain)
        out[name] = rows_of if lazy else [make(r) for r in range(count)]
    if row_labels is not None:
        out["row_labels"] = list(row_labels)
    if col_labels is not None:
        out["column_labels"] = list(col_labels)
    return out


def _column(rows: int, entry: Callable[[int, int], Any], r: int) -> list[Any]:
    """Column ``r`` of a row-layout matrix: row ``r`` of the column layout's."""
    return [entry(i, r) for i in range(rows)]


def json_text(derivation: Derivation, words: Words, digits: int = 4) -> str:
    """``dumps(render_json(…))`` and a newline, the exact strings printed as they are
    written (the same text, in less memory)."""
    return "".join(json_chunks(derivation, words, digits))


def json_chunks(derivation: Derivation, words: Words, digits: int = 4) -> Iterator[str]:
    """The text of :func:`json_text` in pieces (a row of a matrix at most), each made
    only when the one before was written: a 175 MB document is never one string."""
    yield from _chunks(render_json(derivation, words, digits, lazy=True), 0, True)
    yield "\n"


def render_json(
    derivation: Derivation, words: Words, digits: int = 4, *, lazy: bool = False
) -> dict[str, Any]:
    """The whole derivation as the JSON object (a dict ready for ``json.dumps``; with
    ``lazy``, only for :func:`dumps`)."""
    problem = derivation.problem
    shapes = problem.shapes.as_dict()
    out: dict[str, Any] = {"symattn_version": __version__}
    if problem.title is not None:
        out["title"] = problem.title
    out["shapes"] = {k: shapes[k] for k in ("n", "m", "d_model", "d_k", "d_v", "heads")}
    for extra in ("d_out", *(width for width, _ in problem.shapes.widths)):
        if shapes[extra] is not None:
            out["shapes"][extra] = shapes[extra]
    out["scale"] = problem.scale_label
    out["mask"] = problem.mask_label
    printer = StrPrinter()
    view = view_of(problem.layout)
    out["steps"] = [
        step_json(step, digits, words, printer, lazy=lazy, view=view) for step in derivation.steps
    ]
    check = derivation.crosscheck
    if check is not None:
        out["crosscheck"] = check.to_json()
    else:
        out["crosscheck"] = {
            "max_abs_error": None,
            "max_rel_error": None,
            "passed": None,
            "note": "symbolic problem: there are no numbers to compare",
        }
    return out


def dumps(obj: Any, indent: int = 0, *, end: str = "", consume: bool = False) -> str:
    """JSON with two-space indentation, but each list of numbers or strings on one line,
    followed by ``end``.  With ``consume``, each list of rows is emptied as it is
    written (the caller's dict is spent), so that a 175 MB derivation is not held twice.

    >>> print(dumps({"exact": [["1", "2"], ["3", "4"]]}))
    {
      "exact": [
        ["1", "2"],
        ["3", "4"]
      ]
    }
    """
    parts = list(_chunks(obj, indent, consume))
    parts.append(end)
    return "".join(parts)


def _chunks(obj: Any, indent: int, consume: bool) -> Iterator[str]:
    """:func:`dumps` in pieces: the caller joins them, or writes them one by one."""
    pad, inner = "  " * indent, "  " * (indent + 1)
    if isinstance(obj, dict):
        if not obj:
            yield "{}"
            return
        simple = all(
            not isinstance(v, (dict, list))
            or (
                isinstance(v, list)
                and not isinstance(v, _LazyRows)
                and not any(isinstance(x, (dict, list)) for x in v)
            )
            for v in obj.values()
        )
        if simple:
            flat = _encode(obj)
            if len(flat) + 2 * indent <= 100:
                yield flat
                return
        yield "{\n"
        for n, (k, v) in enumerate(obj.items()):
            key = _encode(k)
            yield f"{',' + chr(10) if n else ''}{inner}{key}: "
            yield from _chunks(v, indent + 1, consume)
        yield f"\n{pad}}}"
        return
    if isinstance(obj, _LazyRows):
        yield from _lazy_chunks(obj, indent)
        return
    if isinstance(obj, list):
        if all(not isinstance(x, (dict, list)) for x in obj):
            yield _flat_list(obj)
            return
        yield "[\n"
        for n, x in enumerate(obj):
            yield f",\n{inner}" if n else inner
            yield from _chunks(x, indent + 1, consume)
            if consume and isinstance(x, list):
                obj[n] = None
        yield f"\n{pad}]"
        return
    yield _encode(obj)


def _lazy_chunks(rows: _LazyRows, indent: int) -> Iterator[str]:
    """The rows of one matrix, each made as it is written."""
    pad, inner = "  " * indent, "  " * (indent + 1)
    yield "[\n"
    for n in range(len(rows)):
        row = rows.row(n)
        if rows.plain:
            text = '", "'.join(row)
            yield f',\n{inner}["{text}"]' if n else f'{inner}["{text}"]'
        elif all(not isinstance(y, (dict, list)) for y in row):  # the usual case
            yield f",\n{inner}{_flat_list(row)}" if n else f"{inner}{_flat_list(row)}"
        else:
            yield f",\n{inner}" if n else inner
            yield from _chunks(row, indent + 1, False)
    yield f"\n{pad}]"


#: ``json.dumps(…, ensure_ascii=False, allow_nan=False)``, without a new encoder each call.
_encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode

#: Characters that JSON escapes (with ensure_ascii=False) but quotes: backslashes, controls.
_ESCAPED = re.compile(r"[\\\x00-\x1f]")


#: The bytes JSON escapes (with ensure_ascii=False): controls, backslash, quote.
_ESCAPED_BYTES = bytes(range(32)) + b'\\"'


def _unescaped(body: str, quotes: int) -> bool:
    """Does ``body`` need no escape but its ``quotes`` separators' quotes?  (ASCII text,
    the usual case, by deleting those bytes: several times faster than the pattern.)"""
    if body.isascii():
        raw = body.encode("ascii")
        return len(raw) - len(raw.translate(None, _ESCAPED_BYTES)) == quotes
    return body.count('"') == quotes and not _ESCAPED.search(body)


def _flat_list(items: list[Any]) -> str:
    """``json.dumps(items)`` for a list of numbers or strings; a row of exact strings
    that needs no escapes (all of them, in practice) is joined directly.

    >>> _flat_list(["exp(1/2)/(E + 1)", "0"]), _flat_list(["x", None, 1.5])
    ('["exp(1/2)/(E + 1)", "0"]', '["x", null, 1.5]')
    >>> _flat_list(['a"b']) == json.dumps(['a"b'])
    True
    """
    if not items:
        return "[]"
    kind = type(items[0])
    if kind is str and all(type(x) is str for x in items):
        body = '", "'.join(items)
        if _unescaped(body, 2 * len(items) - 2):
            return f'["{body}"]'
    elif kind is float and all(type(x) is float for x in items):
        body = ", ".join(map(float.__repr__, items))
        if "n" not in body:  # no inf or nan (which JSON refuses): what json.dumps writes
            return f"[{body}]"
    return _encode(items)
