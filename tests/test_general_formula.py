"""One source for each general formula (symattn/render/general.py): for every step of
every bundled example, in the row layout and in the column layout, JSON's "formula" is
the plain Unicode print of the step's formula tree as the layout writes it, and the
derivation's "In general" line shows that same tree, and no plan writes it again in
words; docs/json-output.md's table of the formulas is what the examples print."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import symattn
from symattn.examples import example_names, example_path
from symattn.exercises.generate import as_columns
from symattn.load.files import read_file
from symattn.render import (
    Display,
    RenderOptions,
    UnicodeMath,
    formula_text,
    general_lines,
    line_text,
    step_blocks,
    view_of,
)
from symattn.words import words as words_in

DOC = Path(__file__).resolve().parent.parent / "docs" / "json-output.md"


def _problem(name: str, layout: str) -> dict[str, Any]:
    data = dict(read_file(example_path(name)))
    if layout == "row" or data.get("layout") == "column":  # an example in columns as it is
        return data
    if "text" in data or "embedding" in data:  # the lookup's X is made, not given
        data.pop("layout", None)
    return as_columns(data)


def _derive(name: str, layout: str) -> symattn.Derivation:
    """An example in a layout, with its backward pass when it has one (a target)."""
    data = _problem(name, layout)
    return symattn.derive(data, backward="target" in data or "dO" in data)


CASES = [(name, layout) for name in example_names() for layout in ("row", "column")]


@pytest.mark.parametrize(("name", "layout"), CASES, ids=[f"{n}-{lay}" for n, lay in CASES])
def test_json_formula_is_the_print_of_the_tree_the_walk_shows(name: str, layout: str) -> None:
    d = _derive(name, layout)
    view = view_of(d.problem.layout)
    words = words_in("en")
    written = {s["id"]: s["formula"] for s in json.loads(d.render("json"))["steps"]}
    options = RenderOptions()
    trees = 0
    for step in d.steps:
        general = general_lines(step.spec, words)
        assert written[step.id] == formula_text(step.spec, words, view), step.id
        if not view.columns:  # the Python API's Step.formula: the row layout's
            assert step.formula == written[step.id], step.id
        if general is None:
            continue
        assert step.spec.formula == "", step.id  # the tree is the only source
        trees += 1
        shown = [view.math(line) for line in general]
        printed = ["\n".join(line_text(line, UnicodeMath(), "")) for line in shown]
        assert written[step.id] == "; ".join(printed), step.id
        blocks = step_blocks(d, step.id, 0, options)  # the walk writes those very lines
        lines = [x for b in blocks if isinstance(b, Display) for x in b.lines]
        assert all(line in lines for line in shown), step.id
    assert trees > 0


def _doc_table() -> list[tuple[str, str, str, str]]:
    """The rows of json-output.md's table: example, layout, step id, formula."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Each step's formula", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`"):
            unquote = [re.sub(r"^`(.*)`$", r"\1", c) for c in cells]
            rows.append((unquote[0], unquote[1], unquote[2], unquote[3]))
    return rows


def test_the_docs_table_of_formulas_is_what_the_examples_print() -> None:
    rows = _doc_table()
    assert len(rows) >= 20
    printed: dict[tuple[str, str], dict[str, str]] = {}
    for name, layout, step_id, formula in rows:
        if (name, layout) not in printed:
            d = _derive(name, layout)
            steps = json.loads(d.render("json"))["steps"]
            printed[(name, layout)] = {s["id"]: s["formula"] for s in steps}
        assert printed[(name, layout)][step_id] == formula, (name, layout, step_id)
