"""The files of one exercise: its problem file, its answers file, its key.

``problem_toml`` always writes a problem the same way, so a seed gives identical bytes;
``answers_json`` is the key as an answers file (what ``check`` accepts as all right).
"""

from __future__ import annotations

import json
from typing import Any

from ..check import answer_steps
from ..derivation import Derivation
from ..numbers import NegInf, rational_value
from ..printing import fraction_str
from ..topics import keys as topic_keys
from ..topics import keys_sources
from ..words import words
from .generate import Exercise

__all__ = ["answers_json", "answers_template", "key_title", "matrices_json", "problem_toml"]


def _matrix_toml(matrix: list[list[int]]) -> str:
    return "[" + ", ".join("[" + ", ".join(str(x) for x in row) + "]" for row in matrix) + "]"


def problem_toml(data: dict[str, Any]) -> str:
    """A problem file, always written the same way (so a seed gives identical bytes)."""
    lines = []
    for key in ("title", "description"):
        if key in data:
            lines.append(f"{key} = {json.dumps(data[key], ensure_ascii=False)}")
    if "text" in data:
        lines.append(f"text = {json.dumps(data['text'], ensure_ascii=False)}")
        lines.append(f"vocab = {json.dumps(data['vocab'], ensure_ascii=False)}")
        lines.append(f"embedding = {_matrix_toml(data['embedding'])}")
    else:
        lines.append(f"tokens = {json.dumps(data['tokens'], ensure_ascii=False)}")
        lines.append(f"X = {_matrix_toml(data['X'])}")
    for source in keys_sources():  # a topic's matrix that K and V come from (a memory)
        if source.given in data:
            lines.append(f"{source.given} = {_matrix_toml(data[source.given])}")
            tokens = json.dumps(data[source.tokens], ensure_ascii=False)
            lines.append(f"{source.tokens} = {tokens}")
    for key in ("W_Q", "W_K", "W_V"):
        lines.append(f"{key} = {_matrix_toml(data[key])}")
    if data.get("heads", 1) > 1:
        lines.append(f"heads = {data['heads']}")
    for key in ("W_O", "target"):  # after the heads; a target asks for the backward pass
        if key in data:
            lines.append(f"{key} = {_matrix_toml(data[key])}")
    if "scale" in data:  # a topic's scores may be unscaled
        lines.append(f'scale = "{data["scale"]}"')
    lines.append(f'mask = "{data["mask"]}"')
    if "places" in data:
        lines.append(f"places = {data['places']}")
    lines += [f"{key} = {_toml(data[key])}" for key in TOPIC_KEYS if key in data]
    return "\n".join(lines) + "\n"


#: Keys a topic adds to an exercise: every key the problem reader knows from a topic, and
#: the layout.
TOPIC_KEYS = (
    *(k for k in topic_keys() if k not in {x for s in keys_sources() for x in (s.given, s.tokens)}),
    "layout",
)


def _toml(value: Any) -> str:
    """A TOML value: a boolean, a number, a string, or a list of them (nested)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def key_title(exercise: Exercise, lang: str) -> Derivation:
    """The key with "answer key" in its title."""
    return exercise.key.titled(words(lang)("exercise.key", title=exercise.data["title"]))


def answers_json(
    key: Derivation, places: int = 4, steps: list[str] | None = None
) -> dict[str, list[list[str]]]:
    """The correct answers as an answers file: exact fractions, else ``places`` decimals.

    ``steps`` are the steps the sheet asks for (default: every step after X)."""
    out: dict[str, list[list[str]]] = {}
    asked = (
        steps if steps is not None else [s for s in answer_steps(key) if s not in ("tokens", "X")]
    )
    for step_id in asked:
        step = key.step(step_id)
        rows = []
        for i, row in enumerate(step.exact):
            cells = []
            for j, entry in enumerate(row):
                exact = rational_value(entry)
                if isinstance(entry, NegInf):
                    cells.append("-inf")
                elif exact is not None:
                    cells.append(fraction_str(exact))
                else:
                    cells.append(step.decimal_str(i, j, places) or "")
            rows.append(cells)
        out[step_id] = _written(key, rows)
    return out


def _written(key: Derivation, rows: list[list[Any]]) -> list[list[Any]]:
    """A step's rows as the problem's layout writes them (the column layout: transposed)."""
    return [list(col) for col in zip(*rows)] if key.problem.layout == "column" else rows


def matrices_json(data: dict[str, Any]) -> str:
    """An answers file as JSON with one matrix row per line (easy to read and to fill in).

    >>> print(matrices_json({"Q": [["1", None], ["1/2", "0"]]}), end="")
    {
      "Q": [
        ["1", null],
        ["1/2", "0"]
      ]
    }
    """
    steps = []
    for step_id, rows in data.items():
        body = ",\n".join(f"    {json.dumps(row, ensure_ascii=False)}" for row in rows)
        steps.append(f"  {json.dumps(step_id)}: [\n{body}\n  ]")
    return "{\n" + ",\n".join(steps) + "\n}\n"


def answers_template(exercise: Exercise) -> dict[str, list[list[None]]]:
    """What the student fills in: every step the sheet asks for, every entry null."""
    out: dict[str, list[list[None]]] = {}
    for step_id in exercise.steps:
        rows, cols = exercise.key.step(step_id).shape
        out[step_id] = _written(exercise.key, [[None] * cols for _ in range(rows)])
    return out
