"""The self-check page read without a browser: structure, language, data, self-containment.

Every numeric bundled example and a generated exercise, in English and Chinese: one
``<html lang>``, every element closed, nothing fetched (no ``src``, no ``href``), its
four scripts inline, a print and a phone style sheet, well-formed MathML with no LaTeX
left visible, a heading per step, one labelled ``<input>`` per entry of every step with
``data-step``, ``data-row``, ``data-col`` (1-based) and no status before anything is
typed, the embedded data (the key and the mistakes' values) parseable and equal to the
derivation's, a template for each mistake it can name, and no English sentence on a
Chinese page.  The page in a browser is tests/test_self_check_browser.py; its reader
under Node, tests/test_self_check_reader.py.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

import pytest

import symattn
from symattn.check.naming import entry_name
from symattn.derivation import Derivation
from symattn.errors import SymattnError
from symattn.examples import example_names, example_path
from symattn.exercises.generate import ExerciseOptions, generate
from symattn.exercises.self_check import SCRIPTS as PAGE_SCRIPTS
from symattn.exercises.self_check import render_self_check, script, self_check_document
from symattn.render import (
    AnswerGrid,
    DiagnosisTemplate,
    Document,
    Main,
    PageData,
    PageSection,
    Script,
    render,
)
from symattn.render.view import view_of
from symattn.render.walker import title_of
from symattn.words import words

from .html_pages import ENGLISH, MATHML, RAW_TEX, h2_titles, math_elements, read_page

LANGS = ("en", "zh")
NAMES = [n for n in example_names() if n != "symbolic"] + ["generated"]
DATA = re.compile(r'<script type="application/json" id="symattn-self-check">(.*?)</script>', re.S)
SCRIPTS = re.compile(r"<script\b.*?</script>", re.S)
INPUT = re.compile(r"<input ([^>]*)>")


@functools.cache
def key_of(name: str, lang: str = "en") -> Derivation:
    if name == "generated":
        return generate(12, 1, ExerciseOptions(level=2, lang=lang))[0].key
    return symattn.derive(example_path(name), backward=name == "backward")


@functools.cache
def page_of(name: str, lang: str) -> str:
    return render_self_check(key_of(name, lang), lang)


def embedded(text: str) -> dict[str, Any]:
    found = DATA.search(text)
    assert found is not None, "no embedded data"
    return dict(json.loads(found.group(1)))


def inputs(text: str) -> list[dict[str, str]]:
    return [dict(re.findall(r'([\w-]+)="([^"]*)"', attrs)) for attrs in INPUT.findall(text)]


def check_page(text: str, key: Derivation, lang: str) -> None:
    """What a self-check page must be (each check is shown to fail below)."""
    assert text.startswith("<!DOCTYPE html>\n")
    page = read_page(text)
    assert not page.errors, page.errors[:5]
    assert page.lang == lang and page.srcs == [] and page.hrefs == []
    assert page.scripts == 4 and len(page.ids) == len(set(page.ids))
    assert "@media print" in page.style and "@media (max-width" in page.style
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in text
    seen = read_page(SCRIPTS.sub("", text))  # what a reader sees: no script text
    assert not RAW_TEX.search(seen.visible), RAW_TEX.findall(seen.visible)[:5]
    names = {node.tag for m in math_elements(text) for node in m.iter()}
    assert names and names <= MATHML, names - MATHML
    data = embedded(text)
    steps = [s["id"] for s in data["steps"]]
    w = words(lang)
    wanted = [w.heading(k, title_of(key.step(s), w)) for k, s in enumerate(steps, start=1)]
    assert h2_titles(seen) == [w("given"), *wanted]
    view = view_of(key.problem.layout)  # the boxes as the layout writes the step
    cells = [
        (s, str(i + 1), str(j + 1), entry_name(s, i, j))
        for s in steps
        for i in range(view.shape(*key.step(s).shape)[0])
        for j in range(view.shape(*key.step(s).shape)[1])
    ]
    found = [
        (a.get("data-step"), a.get("data-row"), a.get("data-col"), a.get("aria-label"))
        for a in inputs(text)
    ]
    assert found == cells
    assert all("data-status" not in a for a in inputs(text))
    for step in data["steps"]:
        values = view.matrix(key.step(step["id"]).values)
        assert step["key"] == [[str(v) for v in row] for row in values]
        for mistake in step["mistakes"]:
            template = f'<template data-template="{mistake["template"]}"><div class="diagnosis" '
            assert template + f'data-diagnosis="{mistake["id"]}"' in text
            assert mistake["values"] is None or len(mistake["values"]) == len(values)
    assert f"<noscript><p>{w('selfcheck.noscript')}</p></noscript>" in text
    if lang == "zh":
        english = ENGLISH.findall(" ".join(seen.prose) + " ".join(data["words"].values()))
        assert not english, english


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_every_page_is_a_whole_self_check_page(name: str, lang: str) -> None:
    check_page(page_of(name, lang), key_of(name, lang), lang)


def test_the_scripts_are_inlined_as_they_are() -> None:
    text = page_of("seed", "en")
    for name in PAGE_SCRIPTS:
        assert f"<script>\n{script(name)}</script>" in text
    assert "SymattnReader" in script("self_check_reader.js")


def test_the_page_contains_the_key() -> None:
    """As docs/html.md says: the answers are in the page's source."""
    text = page_of("seed", "en")
    key = key_of("seed")
    assert str(key.step("weights").values[0][0]) in text
    data = embedded(text)
    weights = next(s for s in data["steps"] if s["id"] == "weights")
    assert {m["id"] for m in weights["mistakes"]} >= {"no_scaling", "no_softmax"}


def test_the_default_steps() -> None:
    """Every answer step the problem does not give; the lookup (ids, X) only when the page
    is given the whole vocabulary (else the rows shown would give it away)."""
    seed = [s["id"] for s in embedded(page_of("seed", "en"))["steps"]]
    assert seed == ["Q", "K", "V", "scores", "scaled_scores", "weights", "output"]
    lecture = [s["id"] for s in embedded(page_of("lecture4", "en"))["steps"]]
    assert lecture == seed
    chosen = render_self_check(key_of("seed"), steps=["weights", "output"], places=None)
    assert [s["id"] for s in embedded(chosen)["steps"]] == ["weights", "output"]
    assert len(inputs(chosen)) == 8


def test_the_given_part_says_what_the_sheet_says() -> None:
    w = words("en")
    seed = read_page(SCRIPTS.sub("", page_of("seed", "en"))).visible
    assert "我爱" in seed and w("selfcheck.embedding") in seed and "Divide the scores by" in seed
    causal_page = page_of("causal", "en")
    causal = " ".join(read_page(causal_page).visible.split())  # math is set apart by spaces
    assert "Causal mask: query i may attend only to keys 1 … i ;" in causal
    assert "<mn>1</mn><mi>…</mi><mi>i</mi>" in causal_page  # the keys 1 … i are math
    padding = page_of("padding", "en")
    said = " ".join(read_page(padding).visible.split())
    assert "The mask: 1 where query i may see key j , 0 where" in said
    assert padding.count("<mtable") > page_of("seed", "en").count("<mtable")
    eye = [[1, 0], [0, 1]]
    unscaled = symattn.derive({"X": eye, "W_Q": eye, "W_K": eye, "W_V": eye, "scale": "none"})
    text = read_page(render_self_check(unscaled)).visible
    assert "Do not scale the scores in this exercise: with" in text and "is not a whole" in text
    zh = read_page(page_of("seed", "zh")).visible
    assert words("zh")("sheet.scale") in zh and "Divide" not in zh


def test_places_are_said_and_passed_to_the_script() -> None:
    four = page_of("seed", "en")
    assert "otherwise write 4 decimal places" in four
    assert embedded(four)["places"] == 4
    assert embedded(four)["words"]["too_coarse_note"] == "write 4 decimal places"
    free = render_self_check(key_of("seed"), places=None)
    assert embedded(free)["places"] is None and words("en")("selfcheck.no_places") in free


def test_tokens_are_text_never_markup() -> None:
    tokens = ["<script>alert(1)</script>", "a&b", "</script>", "{x}_1"]
    problem = {
        "tokens": tokens,
        "X": [[1, 0], [0, 1], [1, 1], [2, 0]],
        "W_Q": [[1, 0], [0, 1]],
        "W_K": [[0, 1], [1, 0]],
        "W_V": [[1, 2], [0, 1]],
    }
    text = render_self_check(symattn.derive(problem))
    page = read_page(text)
    assert not page.errors and page.scripts == 4
    assert "<script>alert" not in text
    embedded(text)  # the data still parses


def test_what_cannot_make_a_page_says_why() -> None:
    with pytest.raises(SymattnError, match="symbolic"):
        render_self_check(symattn.derive(example_path("symbolic")))
    with pytest.raises(SymattnError, match="wieghts"):
        render_self_check(key_of("seed"), steps=["wieghts"])
    with pytest.raises(SymattnError, match="steps"):
        render_self_check(key_of("seed"), steps=[])
    with pytest.raises(SymattnError, match="language"):
        render_self_check(key_of("seed"), lang="fr")


@pytest.mark.parametrize("name", ["seed", "column", "padding"])
def test_the_page_is_a_document_written_by_the_html_writer(name: str) -> None:
    """self_check_document: the given section and an AnswerGrid per asked step in <main>
    (the boxes as the layout writes the step), a DiagnosisTemplate per mistake the data
    names, the data and the scripts; the HTML writer writes it as the page."""
    key = key_of(name)
    doc = self_check_document(key, "zh", places=3, page_id="p")
    assert isinstance(doc, Document) and doc.kind == "self_check" and doc.lang == "zh"
    (main,) = [b for b in doc.blocks if isinstance(b, Main)]
    given, *rest = main.blocks
    assert isinstance(given, PageSection) and given.anchor == "given"
    grids = [g for g in rest if isinstance(g, AnswerGrid)]
    assert len(grids) == len(rest)
    (data,) = [b.data for b in doc.blocks if isinstance(b, PageData)]
    assert [(g.step_id, g.number) for g in grids] == [
        (s["id"], k) for k, s in enumerate(data["steps"], start=1)
    ]
    view = view_of(key.problem.layout)
    for grid in grids:
        assert (grid.rows, grid.cols) == view.shape(*key.step(grid.step_id).shape)
        assert len(grid.entry_names) == grid.rows and grid.entry_names[0][0] == entry_name(
            grid.step_id, 0, 0
        )
    templates = [b for b in doc.blocks if isinstance(b, DiagnosisTemplate)]
    used = {m["template"] for s in data["steps"] for m in s["mistakes"]}
    assert [t.number for t in templates] == list(range(len(templates))) and used == set(
        range(len(templates))
    )
    assert [b.name for b in doc.blocks if isinstance(b, Script)] == list(PAGE_SCRIPTS)
    written = render(doc, "html", lang="zh")
    assert written == render_self_check(key, "zh", places=3, page_id="p")
    assert written.count("<input") == sum(g.rows * g.cols for g in grids)


def test_a_script_that_would_close_its_element_is_refused() -> None:
    doc = Document("T", (Script("x.js", "let a = '</script>';"),), kind="self_check")
    with pytest.raises(ValueError, match=r"x\.js"):
        render(doc, "html")


def test_the_page_checks_can_fail() -> None:
    text, key = page_of("seed", "en"), key_of("seed")
    broken = [
        text.replace('data-row="2" data-col="1"', 'data-row="2" data-col="9"', 1),  # a cell
        text.replace('aria-label="a₁,₁"', "", 1),  # an unlabelled box
        text.replace("<noscript>", "<div>", 1),  # no noscript
        text.replace("</main>", '<img src="http://example.invalid/x.png"></main>', 1),
        text.replace('data-diagnosis="no_scaling"', 'data-diagnosis="other"', 1),
        text.replace("<p>", "<p>\\frac{1}{2}", 1),
    ]
    for page in broken:
        with pytest.raises(AssertionError):
            check_page(page, key, "en")
    with pytest.raises(AssertionError):  # English words on a Chinese page
        check_page(text.replace('lang="en"', 'lang="zh"', 1), key, "zh")
