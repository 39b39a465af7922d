"""The JSON of ``symattn derive --format json`` (docs/json-output.md): every step's
exact entries, decimals and floats."""

from __future__ import annotations

import json
import re
from typing import Any

from ..derivation import Derivation
from ..printing import StrPrinter
from ..steps import Step
from ..version import __version__
from ..words import Words
from .walker import title_of

__all__ = ["dumps", "json_text", "render_json", "step_json"]


class _LazyRows(list):  # type: ignore[type-arg]
    """The exact strings of a step, printed row by row only as :func:`dumps` writes
    them (for :func:`json_text`: the strings of a large step are never all alive)."""

    def __init__(self, step: Step, printer: StrPrinter) -> None:
        super().__init__([None] * len(step.exact))
        self.step, self.printer = step, printer

    def row(self, i: int) -> list[str]:
        return [self.printer(x) for x in self.step.exact[i]]


def step_json(
    step: Step,
    digits: int,
    words: Words,
    printer: StrPrinter | None = None,
    *,
    lazy: bool = False,
) -> dict[str, Any]:
    """One step: id, title (in ``words``' language), formula, exact, decimal, float."""
    sstr = printer or StrPrinter()
    rows, cols = step.shape
    exact: list[Any] = (
        _LazyRows(step, sstr)
        if lazy
        else [[sstr(step.exact[i][j]) for j in range(cols)] for i in range(rows)]
    )
    out: dict[str, Any] = {
        "id": step.id,
        "title": title_of(step, words),
        "formula": step.formula,
        "exact": exact,
        "decimal": [[step.decimal_str(i, j, digits) for j in range(cols)] for i in range(rows)],
        "float": [[step.float_value(i, j) for j in range(cols)] for i in range(rows)],
    }
    if step.row_labels is not None:
        out["row_labels"] = list(step.row_labels)
    if step.col_labels is not None:
        out["column_labels"] = list(step.col_labels)
    return out


def json_text(derivation: Derivation, words: Words, digits: int = 4) -> str:
    """``dumps(render_json(…))`` and a newline, the exact strings printed as they are
    written (the same text, in less memory)."""
    return dumps(render_json(derivation, words, digits, lazy=True), end="\n", consume=True)


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
    if shapes["d_out"] is not None:
        out["shapes"]["d_out"] = shapes["d_out"]
    out["scale"] = problem.scale_label
    out["mask"] = problem.mask_label
    printer = StrPrinter()
    out["steps"] = [step_json(step, digits, words, printer, lazy=lazy) for step in derivation.steps]
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
    parts: list[str] = []
    _write(obj, indent, parts, consume)
    parts.append(end)
    return "".join(parts)


def _write(obj: Any, indent: int, parts: list[str], consume: bool) -> None:
    """:func:`dumps` into ``parts`` (one join at the end: a 175 MB document is not
    copied once per level of nesting)."""
    pad, inner = "  " * indent, "  " * (indent + 1)
    if isinstance(obj, dict):
        if not obj:
            parts.append("{}")
            return
        simple = all(
            not isinstance(v, (dict, list))
            or (isinstance(v, list) and not any(isinstance(x, (dict, list)) for x in v))
            for v in obj.values()
        )
        if simple:
            flat = json.dumps(obj, ensure_ascii=False, allow_nan=False)
            if len(flat) + 2 * indent <= 100:
                parts.append(flat)
                return
        parts.append("{\n")
        for n, (k, v) in enumerate(obj.items()):
            key = json.dumps(k, ensure_ascii=False)
            parts.append(f"{',' + chr(10) if n else ''}{inner}{key}: ")
            _write(v, indent + 1, parts, consume)
        parts.append(f"\n{pad}}}")
        return
    if isinstance(obj, list):
        if all(not isinstance(x, (dict, list)) for x in obj) and not isinstance(obj, _LazyRows):
            parts.append(_flat_list(obj))
            return
        parts.append("[\n")
        for n, x in enumerate(obj):
            if isinstance(obj, _LazyRows):
                x = obj.row(n)
            parts.append(f",\n{inner}" if n else inner)
            _write(x, indent + 1, parts, consume)
            if consume and isinstance(x, list):
                obj[n] = None
        parts.append(f"\n{pad}]")
        return
    parts.append(json.dumps(obj, ensure_ascii=False, allow_nan=False))


#: Characters that JSON escapes (with ensure_ascii=False): quotes, backslashes, controls.
_ESCAPED = re.compile(r'["\\\x00-\x1f]')


def _flat_list(items: list[Any]) -> str:
    """``json.dumps(items)`` for a list of numbers or strings; a row of exact strings
    that needs no escapes (all of them, in practice) is joined directly.

    >>> _flat_list(["exp(1/2)/(E + 1)", "0"]), _flat_list(["x", None, 1.5])
    ('["exp(1/2)/(E + 1)", "0"]', '["x", null, 1.5]')
    >>> _flat_list(['a"b']) == json.dumps(['a"b'])
    True
    """
    if items and all(type(x) is str for x in items):
        body = '", "'.join(items)
        if not _ESCAPED.search(body):
            return f'["{body}"]'
    return json.dumps(items, ensure_ascii=False, allow_nan=False)
