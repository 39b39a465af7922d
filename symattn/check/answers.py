"""Reading a student's answers: which steps, which entries, written how.

An answers file is TOML, JSON or CSV (``step,row,col,value``, 1-based, one header line).
A key is a step id (``weights``), one row of it (``output[1]``) or one entry
(``weights[1,2]``).  A step's value is a matrix (a list of rows) or one string holding a
whole matrix (LaTeX, ``[[…]]`` or ``a b; c d``); an entry is a number or a string read by
the grammar of answers (decimals, fractions, roots, ``e^x``, LaTeX, ``%``, a decimal
comma …); ``null`` or ``""`` means "not answered".  An entry that cannot be read is kept
with the reason, and the rest is still marked.

>>> from symattn import derive
>>> key = derive({"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]]})
>>> a = load_answers({"weights[1,2]": "0.33", "output": "[[1.67]]"}, answer_steps(key), key)
>>> [[g.text if g else None for g in row] for row in a.steps["weights"]]
[[None, '0.33']]
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import field
from decimal import Decimal
from pathlib import Path
from typing import Any

from ..derivation import Derivation
from ..errors import SymattnError
from ..load import plain, read_file
from ..load.files import csv_dialect, csv_rows, read_text
from ..load.grammar import ValueSyntaxError
from ..load.matrix_text import looks_like_matrix, split_matrix
from ..load.readings import Reading, read_answer
from ..record import Record

__all__ = ["Answers", "Given", "answer_steps", "load_answers", "step_ids_of", "step_named"]

_KEY = re.compile(
    r"^\s*(?P<step>[A-Za-z_][A-Za-z0-9_.]*)\s*(?:\[\s*(?P<i>\d+)\s*(?:,\s*(?P<j>\d+)\s*)?\])?\s*$"
)
#: Largest tolerance an answers file may set.
MAX_TOLERANCE = Decimal(10) ** 6

Grid = tuple[tuple["Given | None", ...], ...]


def answer_steps(key: Derivation) -> list[str]:
    """The steps of this problem a student may answer, in order (h1.Q … with heads; the
    token ids first when the problem starts from text: the step ``tokens``)."""
    return list(key.step_ids)


class Given(Record):
    """One answered entry: what was written, and what it was read as (None: unreadable)."""

    text: str
    reading: Reading | None
    error: str | None = None

    @property
    def valid(self) -> bool:
        return self.reading is not None

    @property
    def value(self) -> Decimal:
        assert self.reading is not None
        return self.reading.value

    @property
    def places(self) -> int | None:
        return None if self.reading is None else self.reading.places

    @property
    def exact(self) -> bool:
        return self.reading is not None and self.reading.exact


class Answers(Record):
    """A student's answers: step id → rows of entries (None = not answered)."""

    source: str
    steps: Mapping[str, Grid]
    tolerance: Decimal | None = None
    #: Steps whose answer could not be read as a matrix of their shape, and why.
    unreadable: Mapping[str, str] = field(default_factory=dict)
    #: The steps as the other layout would read them (a column-layout student's matrix as
    #: if written in the row layout: their grid untransposed), for "answered in the other
    #: view"; only for column-layout problems.
    other_view: Mapping[str, Grid] = field(default_factory=dict)
    #: ``places`` of the answers file: the decimal places every inexact answer must have.
    places: int | None = None
    #: ``page_id`` of the answers file: the self-check page it was downloaded from.
    page_id: str | None = None


def _text(raw: object) -> str:
    return str(raw) if not isinstance(raw, str) else raw


def read_entry(raw: object) -> Given | None:
    """One entry as written; an unreadable one keeps its reason."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if isinstance(raw, bool):
        return Given(str(raw).lower(), None, f"expected a number, found {str(raw).lower()}")
    if isinstance(raw, (list, dict)):
        kind = "list" if isinstance(raw, list) else "table"
        return Given(_text(raw)[:40], None, f"expected a number, found a {kind}")
    if isinstance(raw, float):
        raw = Decimal(repr(raw))
    if not isinstance(raw, (int, Decimal, str)):
        return Given(_text(raw)[:40], None, f"expected a number, found {type(raw).__name__}")
    text = raw.strip() if isinstance(raw, str) else str(raw)
    shown = text if len(text) <= 60 else text[:57] + "…"
    if isinstance(raw, int) and abs(raw) > 10**100:
        return Given(shown, None, "the number is out of range")
    try:
        return Given(text, read_answer(text))
    except ValueSyntaxError as exc:
        return Given(shown, None, str(exc))


def _grid(raw: object, rows: int, cols: int) -> Grid | str:
    """A whole step: its entries, or why they do not make a {rows} × {cols} matrix."""
    if isinstance(raw, str) and (looks_like_matrix(raw) or rows * cols > 1):
        try:
            raw = split_matrix(raw)
        except SymattnError:  # a time limit
            raise
        except ValueError as exc:
            return str(exc)
    if rows == cols == 1 and not isinstance(raw, list):
        raw = [[raw]]
    if rows == 1 and isinstance(raw, list) and raw and not isinstance(raw[0], list):
        raw = [raw]
    if not isinstance(raw, list) or len(raw) != rows:
        found = len(raw) if isinstance(raw, list) else f"a {type(raw).__name__}"
        return f"expected {rows} rows ({rows} × {cols}), found {found}"
    out = []
    for i, row in enumerate(raw):
        if not isinstance(row, list) or len(row) != cols:
            found = len(row) if isinstance(row, list) else f"a {type(row).__name__}"
            return f"row {i + 1}: expected {cols} entries, found {found}"
        out.append(tuple(read_entry(v) for v in row))
    return tuple(out)


def _row(raw: object, cols: int) -> tuple[Given | None, ...] | str:
    if isinstance(raw, str):
        try:
            split = split_matrix(raw)
        except SymattnError:  # a time limit
            raise
        except ValueError as exc:
            return str(exc)
        raw = split[0] if len(split) == 1 else split
    if cols == 1 and not isinstance(raw, list):
        raw = [raw]
    if not isinstance(raw, list) or len(raw) != cols or any(isinstance(v, list) for v in raw):
        return f"expected one row of {cols} entries"
    return tuple(read_entry(v) for v in raw)


def step_named(step: str, allowed: Sequence[str]) -> str | None:
    """The step id ``step`` names: itself, or the one id it spells in other case
    (``Weights``, ``WEIGHTS`` → ``weights``); None when it names none (or two)."""
    if step in allowed:
        return step
    matches = [s for s in allowed if s.casefold() == step.casefold()]
    return matches[0] if len(matches) == 1 else None


def _suggest(step: str, allowed: Sequence[str]) -> str:
    close = difflib.get_close_matches(step, list(allowed), n=1, cutoff=0.5)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _csv(text: str, name: str) -> dict[str, Any]:
    """``step,row,col,value`` rows as entry keys (``weights[1,2]``); commas, semicolons or
    tabs between the fields, as the roster (``load.files.csv_dialect``)."""
    text = text.lstrip("\ufeff")  # what a spreadsheet writes first in UTF-8
    dialect = csv_dialect(text)
    delimiter = str(dialect.delimiter)
    rows = csv_rows(text, name, dialect)
    header = [h.strip().lower() for h in rows[0]] if rows else []
    if header[:4] != ["step", "row", "col", "value"]:
        raise SymattnError(
            f"{name}: expected a CSV header step,row,col,value (fields split by commas, "
            "semicolons or tabs)"
        )
    out: dict[str, Any] = {}
    first: dict[str, int] = {}
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) < 4 or not row[1].strip().isdigit() or not row[2].strip().isdigit():
            raise SymattnError(f"{name}: line {number}: expected step,row,col,value")
        step, i, j = row[0].strip(), int(row[1]), int(row[2])
        key = f"{step}[{i},{j}]"
        if key.casefold() in first:  # as a key given twice in JSON: neither value is picked
            raise SymattnError(
                f"{name}: line {number}: {step} row {i}, column {j} is given twice "
                f"(first on line {first[key.casefold()]})"
            )
        first[key.casefold()] = number
        out[key] = delimiter.join(row[3:])
    return out


def _data(answers: str | os.PathLike[str] | Mapping[str, Any], name: str) -> Mapping[str, Any]:
    if isinstance(answers, Mapping):
        return plain(answers)  # NumPy arrays as the lists they hold
    if Path(answers).suffix.lower() == ".csv":
        return _csv(read_text(answers), name)
    return read_file(answers)


def step_ids_of(answers: str | os.PathLike[str] | Mapping[str, Any]) -> set[str]:
    """The step ids an answers file names (before they are checked against a key)."""
    name = str(answers) if not isinstance(answers, Mapping) else "<answers>"
    found = set()
    for raw_key in _data(answers, name):
        match = _KEY.match(str(raw_key))
        if match is not None:
            found.add(match.group("step"))
    return found


def _tolerance(raw: object, name: str) -> Decimal:
    try:
        value = Decimal(str(raw)) if not isinstance(raw, bool) else Decimal("NaN")
    except ArithmeticError:
        value = Decimal("NaN")
    if not value.is_finite() or value < 0 or value > MAX_TOLERANCE:
        raise SymattnError(f"{name}: tolerance: expected a number from 0 to {MAX_TOLERANCE}")
    return value


#: Longest ``page_id`` an answers file may name (a folder and a hash).
MAX_PAGE_ID = 300
#: Most decimal places an answer may be asked to have (``places``, ``--places``).
MAX_PLACES = 12


def read_places(raw: object, where_: str | None = None) -> int:
    """``places`` (of an answers file, or ``--places`` when ``where_`` is None): 0 … 12."""
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= MAX_PLACES:
        found = f"expected 0 … {MAX_PLACES}, found {raw!r}"
        if where_ is None:
            raise SymattnError(found, option="places")
        raise SymattnError(f"{where_}: places: {found}")
    return raw


def load_answers(
    answers: str | os.PathLike[str] | Mapping[str, Any],
    allowed: Sequence[str],
    key: Derivation,
    source: str | None = None,
) -> Answers:
    """Read an answers file (TOML, JSON, CSV) or dict; ``allowed`` are the step ids."""
    name = source or (str(answers) if not isinstance(answers, Mapping) else "<answers>")
    data = _data(answers, name)
    tolerance = None
    places = None
    page_id = None
    grids: dict[str, list[list[Given | None]]] = {}
    unreadable: dict[str, str] = {}
    other_view: dict[str, Grid] = {}
    columns = key.problem.layout == "column"  # the answers are written transposed
    seen: dict[tuple[str, str | None, str | None], str] = {}
    for raw_key, raw in data.items():
        if raw_key == "tolerance":
            tolerance = _tolerance(raw, name)
            continue
        if raw_key == "places":  # as --places N (docs/answers-format.md)
            places = read_places(raw, name)
            continue
        if raw_key == "page_id":  # the self-check page it was downloaded from
            if not isinstance(raw, str) or len(raw) > MAX_PAGE_ID:
                raise SymattnError(
                    f"{name}: page_id: expected a string of at most {MAX_PAGE_ID} characters, "
                    f"found {_text(raw)[:40]!r}"
                )
            page_id = raw
            continue
        match = _KEY.match(str(raw_key))
        written = match.group("step") if match else str(raw_key)
        named = step_named(written, allowed) if match else None
        if match is None or named is None:
            raise SymattnError(
                f"{name}: unknown step {raw_key!r}{_suggest(written, allowed)}; this problem's "
                f"steps are {', '.join(allowed)}"
            )
        step = named
        spot = (step, match.group("i"), match.group("j"))
        if spot in seen:  # weights and Weights: as a key given twice, neither is picked
            raise SymattnError(
                f"{name}: {raw_key!r} and {seen[spot]!r} name the same answer; give it once"
            )
        seen[spot] = str(raw_key)
        rows, cols = key.step(step).shape
        if columns:
            rows, cols = cols, rows
        grid = grids.setdefault(step, [[None] * cols for _ in range(rows)])
        i, j = match.group("i"), match.group("j")
        if i is None:
            whole = _grid(raw, rows, cols)
            if isinstance(whole, str):
                unreadable[step] = whole
                turned = _grid(raw, cols, rows) if rows != cols else whole
                if columns and not isinstance(turned, str):
                    other_view[step] = turned
                continue
            grid[:] = [list(r) for r in whole]
        elif not 1 <= int(i) <= rows or (j is not None and not 1 <= int(j) <= cols):
            unreadable[step] = f"{raw_key}: {step} has shape {rows} × {cols}"
        elif j is None:
            row = _row(raw, cols)
            if isinstance(row, str):
                unreadable[step] = f"{raw_key}: {row}"
            else:
                grid[int(i) - 1] = list(row)
        else:
            grid[int(i) - 1][int(j) - 1] = read_entry(raw)
    steps = {s: tuple(tuple(r) for r in g) for s, g in grids.items() if s not in unreadable}
    if columns:  # the column layout's matrices, turned to the row layout
        for step, grid_rows in steps.items():
            if len(grid_rows) == len(grid_rows[0]):
                other_view[step] = grid_rows
        steps = {s: tuple(zip(*g)) for s, g in steps.items()}
    return Answers(name, steps, tolerance, unreadable, other_view, places, page_id)
