"""The JSON of ``symattn derive --format json`` (docs/json-output.md): every step's
exact entries, decimals and floats."""

from __future__ import annotations

import json
from typing import Any

from ..derivation import Derivation
from ..printing import StrPrinter
from ..steps import Step
from ..version import __version__
from ..words import Words
from .walker import title_of

__all__ = ["dumps", "render_json", "step_json"]


def step_json(
    step: Step, digits: int, words: Words, printer: StrPrinter | None = None
) -> dict[str, Any]:
    """One step: id, title (in ``words``' language), formula, exact, decimal, float."""
    sstr = printer or StrPrinter()
    rows, cols = step.shape
    out: dict[str, Any] = {
        "id": step.id,
        "title": title_of(step, words),
        "formula": step.formula,
        "exact": [[sstr(step.exact[i][j]) for j in range(cols)] for i in range(rows)],
        "decimal": [[step.decimal_str(i, j, digits) for j in range(cols)] for i in range(rows)],
        "float": [[step.float_value(i, j) for j in range(cols)] for i in range(rows)],
    }
    if step.row_labels is not None:
        out["row_labels"] = list(step.row_labels)
    if step.col_labels is not None:
        out["column_labels"] = list(step.col_labels)
    return out


def render_json(derivation: Derivation, words: Words, digits: int = 4) -> dict[str, Any]:
    """The whole derivation as the JSON object (a dict ready for ``json.dumps``)."""
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
    out["steps"] = [step_json(step, digits, words, printer) for step in derivation.steps]
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


def dumps(obj: Any, indent: int = 0) -> str:
    """JSON with two-space indentation, but each list of numbers or strings on one line.

    >>> print(dumps({"exact": [["1", "2"], ["3", "4"]]}))
    {
      "exact": [
        ["1", "2"],
        ["3", "4"]
      ]
    }
    """
    pad, inner = "  " * indent, "  " * (indent + 1)
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        flat = json.dumps(obj, ensure_ascii=False, allow_nan=False)
        simple = all(
            not isinstance(v, (dict, list))
            or (isinstance(v, list) and not any(isinstance(x, (dict, list)) for x in v))
            for v in obj.values()
        )
        if simple and len(flat) + 2 * indent <= 100:
            return flat
        items = [
            f"{inner}{json.dumps(k, ensure_ascii=False)}: {dumps(v, indent + 1)}"
            for k, v in obj.items()
        ]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(obj, list):
        if all(not isinstance(x, (dict, list)) for x in obj):
            return json.dumps(obj, ensure_ascii=False, allow_nan=False)
        items = [f"{inner}{dumps(x, indent + 1)}" for x in obj]
        return "[\n" + ",\n".join(items) + f"\n{pad}]"
    return json.dumps(obj, ensure_ascii=False, allow_nan=False)
