"""The files of a class set: problem files, answers files, the roster, the folders.

``write_class_set`` writes, for every exercise, ``problem.toml``, ``sheet.tex``,
``key.tex`` and ``answers.json`` in its own folder, and the teacher's ``keys.tex``.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..check import answer_steps
from ..derivation import Derivation
from ..errors import SymattnError
from ..numbers import NegInf, rational_value
from ..output import write_output
from ..printing import fraction_str
from ..render import render
from ..words import words
from .generate import Exercise, folder_name
from .sheet import render_sheet, render_summary

__all__ = ["answers_json", "problem_toml", "read_roster", "write_class_set"]


def _matrix_toml(matrix: list[list[int]]) -> str:
    return "[" + ", ".join("[" + ", ".join(str(x) for x in row) + "]" for row in matrix) + "]"


def problem_toml(data: dict[str, Any]) -> str:
    """A problem file, always written the same way (so a seed gives identical bytes)."""
    lines = []
    for key in ("title", "description"):
        if key in data:
            lines.append(f"{key} = {json.dumps(data[key], ensure_ascii=False)}")
    lines.append(f"tokens = {json.dumps(data['tokens'], ensure_ascii=False)}")
    for key in ("X", "W_Q", "W_K", "W_V"):
        lines.append(f"{key} = {_matrix_toml(data[key])}")
    if data.get("heads", 1) > 1:
        lines.append(f"heads = {data['heads']}")
    lines.append(f'scale = "{data["scale"]}"')
    lines.append(f'mask = "{data["mask"]}"')
    return "\n".join(lines) + "\n"


def _titled(exercise: Exercise, lang: str) -> Derivation:
    """The key with "answer key" in its title."""
    return exercise.key.titled(words(lang)("exercise.key", title=exercise.data["title"]))


def answers_json(
    key: Derivation, places: int = 4, steps: list[str] | None = None
) -> dict[str, list[list[str]]]:
    """The correct answers as an answers file: exact fractions, else ``places`` decimals.

    ``steps`` are the steps the sheet asks for (default: every answer step but X)."""
    out: dict[str, list[list[str]]] = {}
    asked = steps if steps is not None else [s for s in answer_steps(key) if s != "X"]
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
        out[step_id] = rows
    return out


def read_roster(path: str) -> list[str]:
    """Student names from a CSV: the ``name`` column, or else the first column."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            rows = list(csv.reader(handle))
    except OSError as exc:
        raise SymattnError(f"{path}: cannot read ({exc.strerror})") from None
    if not rows:
        raise SymattnError(f"{path}: the roster is empty")
    header = [h.strip().lower() for h in rows[0]]
    column = header.index("name") if "name" in header else 0
    body = rows[1:] if "name" in header else rows
    names = [r[column].strip() for r in body if len(r) > column and r[column].strip()]
    if not names:
        raise SymattnError(f"{path}: no names found")
    duplicates = {
        folder_name(n) for n in names if [folder_name(m) for m in names].count(folder_name(n)) > 1
    }
    if duplicates:
        raise SymattnError(f"{path}: two students share the folder name {sorted(duplicates)[0]!r}")
    return names


def write_class_set(
    exercises: list[Exercise],
    directory: Path,
    lang: str,
    progress: Callable[[int, int], None] | None = None,
) -> list[Path]:
    """Write every exercise folder and the teacher's summary; return the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for number, exercise in enumerate(exercises, start=1):
        folder = directory / exercise.name
        folder.mkdir(exist_ok=True)
        files = {
            "problem.toml": problem_toml(exercise.data),
            "sheet.tex": render_sheet(exercise, lang),
            "key.tex": render(_titled(exercise, lang), "tex", lang=lang),
            "answers.json": json.dumps(answers_json(exercise.key), ensure_ascii=False, indent=2)
            + "\n",
        }
        for name, text in files.items():
            write_output(text, str(folder / name))
            written.append(folder / name)
        if progress is not None:
            progress(number, len(exercises))
    summary = directory / "keys.tex"
    write_output(render_summary(exercises, lang), str(summary))
    written.append(summary)
    return written
