"""The column layout is a view: every bundled example, written in columns, is the same
computation, and every step it writes is the transpose of the row layout's.

For each example (every topic, heads with W_O, cross-attention, the backward pass, a
decode step, a block), the problem file is turned to the column layout the way the
exercises write one (:func:`symattn.exercises.generate.as_columns`); then the steps are
computed in rows identically, every written matrix (JSON: exact, decimal, float) is the
transpose, the cross-check passes, the text is written in both languages, and the key's
own answers, written in columns, check as correct — while the same answers in rows are
"answered in the other view" (``column_layout_transposed``).
"""

from __future__ import annotations

import copy
import json
from numbers import Number
from pathlib import Path
from typing import Any

import pytest

import symattn
from symattn.check import check
from symattn.check.answers import answer_steps
from symattn.examples import example_names, example_path
from symattn.exercises.generate import as_columns
from symattn.load.files import read_file
from symattn.plan import backward_plan, forward_plan

#: Topics without a bundled example of their own, added to one: "example+key=value".
VARIANTS = [
    "multihead+alibi=true",
    "causal+window=2",
    "backward+window=1",
    "multihead+alibi=true+window=2",
]
ROW_EXAMPLES = [
    n for n in example_names() if read_file(example_path(n)).get("layout") != "column"
] + VARIANTS


def _data(name: str) -> dict[str, Any]:
    """The problem file of an example, with the variant's keys added."""
    base, *keys = name.split("+")
    data = dict(read_file(example_path(base)))
    for key in keys:
        field, value = key.split("=")
        data[field] = True if value == "true" else int(value)
    return data


def _t(matrix: list[list[Any]]) -> list[list[Any]]:
    return [list(col) for col in zip(*matrix)]


def _both(name: str) -> tuple[symattn.Derivation, symattn.Derivation]:
    data = _data(name)
    if "text" in data or "embedding" in data:
        data.pop("layout", None)
    return symattn.derive(data), symattn.derive(as_columns(data))


def test_every_example_but_the_column_one_is_written_in_rows() -> None:
    assert len(ROW_EXAMPLES) >= 18 + len(VARIANTS)


@pytest.mark.parametrize("name", ROW_EXAMPLES)
def test_each_column_step_is_the_transpose_of_the_row_step(name: str) -> None:
    rows, columns = _both(name)
    if columns.problem.symbolic:  # x_ij names the entry as written: another problem
        written = json.loads(columns.render("json"))["steps"][0]
        assert written["exact"][0][:2] == ["x_11", "x_12"]
        return
    assert rows.step_ids == columns.step_ids
    for a, b in zip(rows.steps, columns.steps):  # the computation does not change
        assert a.values == b.values, a.id
    if not columns.problem.symbolic:
        assert columns.crosscheck is not None and columns.crosscheck.passed
    written_rows = {s["id"]: s for s in json.loads(rows.render("json"))["steps"]}
    written_cols = {s["id"]: s for s in json.loads(columns.render("json"))["steps"]}
    for step_id, step in written_rows.items():
        col = written_cols[step_id]
        for field in ("exact", "decimal", "float"):
            assert col[field] == _t(step[field]), (step_id, field)
    for lang in ("en", "zh"):
        assert columns.render("text", lang=lang)


@pytest.mark.parametrize("name", ROW_EXAMPLES)
def test_the_column_key_checks_itself_and_rows_are_the_other_view(name: str) -> None:
    _, columns = _both(name)
    if columns.problem.symbolic:
        pytest.skip("a symbolic problem has no numbers to check")
    written = {s["id"]: s["decimal"] for s in json.loads(columns.render("json"))["steps"]}
    given = set(columns.problem.givens) if hasattr(columns.problem, "givens") else set()
    answers = {k: v for k, v in written.items() if k not in given}
    result = check(columns, answers).to_json()
    assert result["verdict"] == "correct", (name, result["first_error"])
    square = {k for k, v in answers.items() if len(v) == len(v[0])}
    asymmetric = [k for k, v in answers.items() if k not in square or v != _t(v)]
    if not asymmetric:
        return
    first = asymmetric[0]
    as_rows = {first: _t(answers[first])}
    report = check(columns, as_rows).to_json()
    step = next(s for s in report["steps"] if s["id"] == first)
    assert step["status"] == "incorrect"
    assert [d["id"] for d in step["diagnosis"]] == ["column_layout_transposed"], (name, first)


def test_a_multihead_sheet_in_columns_names_its_entries_as_written(tmp_path: Path) -> None:
    """The AI-by-hand sheets: heads with W_O, in columns; an entry of a head's Q is named
    as the column layout writes it (row = feature, column = token)."""
    data = as_columns(dict(read_file(example_path("multihead"))))
    columns = symattn.derive(data)
    out = columns.render("text")
    assert "Column layout" in out
    assert columns.step("output").shape == (3, 2)  # rows: n × d_model, computed in rows
    written = {s["id"]: s["exact"] for s in json.loads(columns.render("json"))["steps"]}
    q = written["h1.Q"]
    wrong = [list(r) for r in q]
    wrong[0][1] = "12345"  # feature 1 of token 2
    report = check(columns, {"h1.Q": wrong}).to_json()
    (entry,) = [e for s in report["steps"] for e in s["entries"] if e["status"] == "wrong"]
    assert entry["index"] == [1, 2]


def _bump_first(matrix: list[Any]) -> bool:
    """Add 1 to the first number of a (nested) list of a problem file's matrix."""
    for i, v in enumerate(matrix):
        if isinstance(v, list):
            if _bump_first(v):
                return True
        elif isinstance(v, Number) and not isinstance(v, bool):
            matrix[i] = v + 1
            return True
        elif isinstance(v, str):
            matrix[i] = f"{v} + 1"
            return True
    return False


@pytest.mark.parametrize("layout", ["rows", "columns"])
@pytest.mark.parametrize("name", ROW_EXAMPLES)
def test_an_error_is_carried_forward_in_both_views(name: str, layout: str) -> None:
    """A student who got one entry of W_V's product wrong and went on correctly from it:
    the first wrong step is wrong, every later step made from a wrong one is carried
    forward — the same in rows and in columns (answers written as the view writes them)."""
    data = _data(name)
    if "text" in data or "embedding" in data:
        data.pop("layout", None)
    if not isinstance(data.get("W_V"), list):
        pytest.skip("no numeric W_V (a symbolic problem)")
    other = copy.deepcopy(data)
    assert _bump_first(other["W_V"])
    view = as_columns if layout == "columns" else dict
    key, slipped = symattn.derive(view(data)), symattn.derive(view(other))
    right = {s["id"]: s["decimal"] for s in json.loads(key.render("json"))["steps"]}
    written = {s["id"]: s["decimal"] for s in json.loads(slipped.render("json"))["steps"]}
    changed = [s for s in answer_steps(key) if written[s] != right[s] and s in written]
    assert changed, name
    report = {s["id"]: s for s in check(key, {s: written[s] for s in changed}).to_json()["steps"]}
    assert report[changed[0]]["status"] == "incorrect"
    plan = forward_plan(key.problem) + backward_plan(key.problem)
    operands = {spec.id: set(spec.operands) for spec in plan.specs}
    for step_id in changed[1:]:
        if operands.get(step_id, set()) & set(changed):  # made from a wrong step
            assert report[step_id]["carried_forward"], (name, layout, step_id)
