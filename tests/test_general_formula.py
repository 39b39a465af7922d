"""One source for each general formula (symattn/render/general.py): for every step of
every bundled example, in the row layout and in the column layout, JSON's "formula" is
the plain Unicode print of the step's formula tree as the layout writes it, and the
derivation's "In general" line shows that same tree (a given, the tokens and a lookup
show their matrix or their rows instead), and no plan writes it again in words;
docs/json-output.md's table of the formulas is what the examples print.  The kinds that
kept words until the trees (a given, the tokens, a lookup, O = C, dO = O − T, a head's
columns of dO, ALiBi's bias, a K/V cache, a decode step, X W + P) print what they
printed as words, or say here why not."""

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
    TexPrinter,
    UnicodeMath,
    formula_text,
    general_lines,
    line_text,
    says_given,
    step_blocks,
    view_of,
)
from symattn.render.moodle_html import MoodleMath
from symattn.steps import Kind, StepSpec
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
    for step in d.steps:
        general = general_lines(step.spec, words, view.columns)
        assert written[step.id] == formula_text(step.spec, words, view), step.id
        if not view.columns:  # the Python API's Step.formula: the row layout's
            assert step.formula == written[step.id], step.id
        assert general is not None, step.id  # every kind has its tree
        assert step.spec.formula == "", step.id  # the tree is the only source
        shown = [view.math(line) for line in general]
        printed = ["\n".join(line_text(line, UnicodeMath(), "")) for line in shown]
        assert written[step.id] == "; ".join(printed), step.id
        if says_given(step.spec) or step.kind in (Kind.TOKENS, Kind.LOOKUP):
            continue  # the walk shows the matrix, the split, the rows of E
        blocks = step_blocks(d, step.id, 0, options)  # the walk writes those very lines
        lines = [x for b in blocks if isinstance(b, Display) for x in b.lines]
        assert all(line in lines for line in shown), step.id


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


# -- the kinds that kept words until they had trees ---------------------------------------
_BASE: dict[str, Any] = {
    "X": [[1, 0, 1], [0, 2, 1]],
    "W_Q": [[1, 0], [0, 1], [1, 1]],
    "W_K": [[0, 1], [1, 0], [1, 1]],
    "W_V": [[1, 2], [0, 1], [2, 0]],
}
_WIDE = {**_BASE, "W_Q": [[1, 0, 1, 0]] * 3, "W_K": [[0, 1, 0, 1]] * 3, "W_V": [[1, 1, 0, 0]] * 3}
_WORDED: list[tuple[str, Any, str, str, str, str]] = [
    # (case, problem, layout, lang, step, JSON's formula)
    ("copy", "gqa", "row", "en", "output", "O = C"),
    ("given", "causal", "row", "en", "X", "X (given)"),
    ("given", "causal", "column", "en", "X", "X (given; column i is token i)"),
    ("given", "causal", "row", "zh", "X", "X（给定）"),
    ("tokens", "seed", "row", "en", "tokens", "text → tokens → ids"),
    ("tokens", "seed", "row", "zh", "tokens", "文本 → 词元 → id"),
    ("lookup", "seed", "row", "en", "X", "xᵢ = E[idᵢ]"),
    ("difference", "backward", "row", "en", "dO", "dO = O − T (L = ½‖O − T‖²)"),
    ("dO", {**_BASE, "dO": [[1, 0], [0, 1]]}, "row", "en", "dO", "dO (given)"),
    (
        "columns",
        {**_WIDE, "heads": 2, "dO": [[1, 0, 0, 1]] * 2},
        "row",
        "en",
        "h2.dO",
        "dO⁽²⁾ = columns 3…4 of dO",
    ),
    (
        "columns",
        {**_WIDE, "heads": 2, "dO": [[1, 0, 0, 1]] * 2},
        "row",
        "zh",
        "h1.dO",
        "dO⁽¹⁾ = dO 的第 1…2 列",
    ),
    ("alibi", {**_BASE, "alibi": True}, "row", "en", "alibi_bias", "B = −m·|i − j| (m = 1/256)"),
    (
        "alibi",
        {**_WIDE, "alibi": ["1/2", "1/4"], "heads": 2},
        "column",
        "en",
        "h2.alibi_bias",
        "B⁽²⁾ = −m·|i − j| (m = 1/4)",
    ),
    ("positions", {**_BASE, "positions": [[0, 1, 0], [1, 0, 1]]}, "row", "en", "P", "P (given)"),
    ("rows", "decode", "row", "en", "cache_K", "K_cache = rows 1…2 of K"),
    ("rows", "decode", "column", "zh", "cache_V", "V_cache = V 的第 1…2 行"),
    (
        "rows",
        {**_WIDE, "heads": 2, "decode": True},
        "row",
        "en",
        "h2.cache_K",
        "K_cache⁽²⁾ = rows 1…1 of K⁽²⁾",
    ),
    (
        "decode",
        "decode",
        "row",
        "en",
        "decode",
        "O_dec = softmax(q₃ [K_cache; k₃]ᵀ / √d_k) [V_cache; v₃]",
    ),
    (
        "decode",
        {**_BASE, "decode": True, "temperature": "2"},
        "column",
        "en",
        "decode",
        "O_dec = softmax(q₂ [K_cache; k₂]ᵀ / (√d_k τ)) [V_cache; v₂]",
    ),
]


@pytest.mark.parametrize(
    ("case", "problem", "layout", "lang", "step_id", "expected"),
    _WORDED,
    ids=[f"{c[0]}-{c[2]}-{c[3]}-{c[4]}" for c in _WORDED],
)
def test_a_formula_that_was_words_is_the_print_of_its_tree(
    case: str, problem: Any, layout: str, lang: str, step_id: str, expected: str
) -> None:
    data = dict(read_file(example_path(problem))) if isinstance(problem, str) else problem
    if layout == "column":
        data = as_columns(data)
    d = symattn.derive(data, backward="target" in data or "dO" in data)
    words, view = words_in(lang), view_of(d.problem.layout)
    written = {s["id"]: s["formula"] for s in json.loads(d.render("json", lang=lang))["steps"]}
    spec = d.step(step_id).spec
    lines = general_lines(spec, words, view.columns)
    assert lines is not None and spec.formula == ""
    printed = "; ".join(t for x in lines for t in line_text(view.math(x), UnicodeMath(), ""))
    assert written[step_id] == printed == expected
    for line in lines:  # every printer prints the tree (LaTeX for LaTeX, Markdown, HTML)
        TexPrinter().line(view.math(line))
    assert all(MoodleMath().math(x.lhs) for x in lines if x.lhs is not None)


def test_the_positions_added_after_the_projection_have_a_formula() -> None:
    """The mistake model's step (X W + P) is never written, but its diagnosis may name it."""
    from symattn.topics.positions import PRODUCT_PLUS

    spec = StepSpec(id="Q", kind=PRODUCT_PLUS, operands=("X", "W_Q", "P"))
    assert formula_text(spec, words_in("en")) == "Q = X W_Q + P"
    assert formula_text(spec, words_in("en"), view_of("column")) == "Q = W_Q X + P"
