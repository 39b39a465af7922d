"""The self-check page in a real browser: the system's Chromium, headless, offline.

The seed example and a generated exercise, in English and in Chinese, each opened from
``file://`` (the fixtures of tests/test_html_browser.py: every request outside the file
aborted and recorded).  Typed with the key (the answers file ``exercises`` writes), every
box is ``ok`` with ✓; typed with the weights and outputs of a student who did not scale
(tests/reference.py, an independent computation, rounded to 4 places), every box has the
status ``check`` gives (the weights ✗ with ``no_scaling`` named, the output ``carried``
with ↪ and the carried-forward note: right from their own weights); too few places are
``too_coarse``, ``abc`` is ``invalid``, a decimal comma and fractions are read.  The
page makes no request outside its file, typesets its math, is not blank, fits a phone,
and says that marking needs JavaScript when scripts are off.

Marked ``slow``; skipped with the reason when playwright or chromium is missing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from symattn.check import check
from symattn.classroom import grade_class
from symattn.classroom.page_ids import page_id
from symattn.derivation import Derivation
from symattn.exercises.files import answers_json
from symattn.exercises.generate import ExerciseOptions, generate
from symattn.exercises.self_check import render_self_check
from symattn.numbers import rational_value, round_half_away
from symattn.words import words

from . import test_html_browser as html
from .browser import why_not
from .helpers import run_cli
from .reference import attention
from .test_self_check import key_of

REASON = why_not()
pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]

browser = html.browser  # the same offline Chromium profile as the other pages
CASES = [("seed", "en"), ("seed", "zh"), ("generated", "en"), ("generated", "zh")]
STEPS = {  # as the page asks for them by default
    "seed": ["Q", "K", "V", "scores", "scaled_scores", "weights", "output"],
    "generated": ["Q", "K", "V", "scores", "scaled_scores", "weights", "output"],
}


def problem_of(name: str, lang: str) -> dict[str, Any]:
    """The problem as a dict the reference computation reads."""
    if name == "generated":
        return dict(generate(12, 1, ExerciseOptions(level=2, lang=lang))[0].data)
    p = key_of(name).problem

    def plain(matrix: Any) -> list[list[str]]:
        return [[str(rational_value(x)) for x in row] for row in matrix]

    return {m: plain(getattr(p, m)) for m in ("X", "W_Q", "W_K", "W_V")}


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    folder = tmp_path_factory.mktemp("self-check")
    out = {}
    for name, lang in CASES:
        path = folder / f"{name}-{lang}.html"
        path.write_text(render_self_check(key_of(name, lang), lang), encoding="utf-8")
        out[(name, lang)] = path
    return out


def _open(browser: Any, path: Path, keep: bool = False) -> tuple[Any, list[str], list[str]]:
    """The page, with nothing kept from an earlier test (``keep``: what this browser
    kept for it)."""
    page, requests = html._open(browser, path)
    if not keep:
        page.evaluate("() => localStorage.clear()")
        page.reload(wait_until="load")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page, requests, errors


def box(step: str, i: int, j: int) -> str:
    return f'input[data-step="{step}"][data-row="{i + 1}"][data-col="{j + 1}"]'


def type_in(page: Any, answers: dict[str, list[list[str]]]) -> None:
    for step, rows in answers.items():
        for i, row in enumerate(rows):
            for j, text in enumerate(row):
                page.fill(box(step, i, j), text)


def statuses(page: Any, step: str | None = None) -> list[str | None]:
    where = f'input[data-step="{step}"]' if step else "input[data-step]"
    return list(page.eval_on_selector_all(where, "all => all.map(e => e.dataset.status || null)"))


def mark_of(page: Any, step: str, i: int, j: int) -> str:
    return str(page.inner_text(f"#mk-{step}-{i + 1}-{j + 1}")).strip()


@pytest.mark.parametrize(("name", "lang"), CASES)
def test_the_key_typed_is_all_right(browser: Any, pages: Any, name: str, lang: str) -> None:
    page, requests, errors = _open(browser, pages[(name, lang)])
    key: Derivation = key_of(name, lang)
    assert statuses(page) and set(statuses(page)) == {None}  # nothing typed, nothing marked
    type_in(page, answers_json(key, 4, STEPS[name]))
    marked = statuses(page)
    assert marked == ["ok"] * len(marked), marked
    marks = page.eval_on_selector_all(".mark", "all => all.map(m => m.textContent)")
    assert len(marks) == len(marked) and all(m.startswith("✓") for m in marks)
    assert page.locator("[data-diagnosis]").count() == 0
    total = str(page.inner_text("#total"))
    assert str(len(marked)) in total and "0" not in total.replace(str(len(marked)), "")
    assert not errors and not html._outside(requests), (errors, requests)
    page.close()


@pytest.mark.parametrize(("name", "lang"), CASES)
def test_unscaled_numbers_are_wrong_and_named(
    browser: Any, pages: Any, name: str, lang: str
) -> None:
    page, requests, errors = _open(browser, pages[(name, lang)])
    key = key_of(name, lang)
    made = attention(problem_of(name, lang), "no_scaling")
    typed = {s: [[round_half_away(v, 4) for v in row] for row in made[s]] for s in STEPS[name][-2:]}
    type_in(page, typed)
    w = words(lang)
    checked = check(key, typed, places=4)  # what check says of the same numbers
    for step in checked.steps:
        for entry in step.entries:
            i, j = entry.index[0] - 1, entry.index[1] - 1
            # as check marks it: "carried" (right from their own wrong weights) as such
            assert page.get_attribute(box(step.id, i, j), "data-status") == entry.status
            sign = "✓" if entry.ok else "↪" if entry.status == "carried" else "✗"
            assert mark_of(page, step.id, i, j).startswith(sign)
    for step in checked.steps:  # the mistakes check names, and only those
        shown = page.locator(f'section[data-step="{step.id}"] [data-diagnosis]')
        named = [shown.nth(k).get_attribute("data-diagnosis") for k in range(shown.count())]
        assert named == [d.id for d in step.diagnosis]
    weights = page.locator('section[data-step="weights"] [data-diagnosis="no_scaling"]')
    assert weights.count() == 1 and weights.is_visible()
    assert w("mistake.no_scaling") in weights.inner_text()
    carried = page.locator('section[data-step="output"] [data-note="carried"]')
    assert carried.count() == 1 and carried.is_visible()
    assert statuses(page).count("wrong") + statuses(page).count("carried") >= 4
    typed_in = [s for s in statuses(page) if s is not None]
    cells = sum(len(row) for rows in typed.values() for row in rows)
    assert page.locator("[data-status]").count() == len(typed_in) == cells  # inputs alone
    assert not errors and not html._outside(requests)
    page.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_places_unreadable_text_commas_and_fractions(browser: Any, pages: Any, lang: str) -> None:
    page, _, errors = _open(browser, pages[("seed", lang)])
    key = key_of("seed")
    a11 = key.step("weights").values[0][0]
    w = words(lang)
    a21 = round_half_away(key.step("weights").values[1][0], 4).replace(".", ",")
    cases = [
        ("weights", 0, 0, round_half_away(a11, 2), "too_coarse", "✗"),
        ("weights", 0, 1, "abc", "invalid", "?"),
        ("weights", 1, 0, a21, "ok", "✓"),
        ("Q", 1, 1, "5/2", "ok", "✓"),
        ("Q", 0, 0, "\\frac{4}{2}", "ok", "✓"),
        ("K", 1, 0, "10/4", "ok", "✓"),
        ("scaled_scores", 0, 0, "√2", "ok", "✓"),
        ("scaled_scores", 0, 1, "5√2/2", "ok", "✓"),
        ("weights", 1, 1, "1/35", "wrong", "✗"),  # exact, near a₂,₂ ≈ 0.0283: not it
    ]  # fmt: skip
    for step, i, j, text, _, _ in cases:
        page.fill(box(step, i, j), text)
    for step, i, j, text, status, mark in cases:
        assert page.get_attribute(box(step, i, j), "data-status") == status, (step, text)
        assert mark_of(page, step, i, j).startswith(mark), (step, text)
    notes = page.inner_text('section[data-step="weights"] .notes')
    assert w("entry.too_coarse", places=4) in notes and "a₁,₁" in notes
    assert "a₁,₂" in notes and "a₂,₂" in notes  # unreadable; exact but not the key
    page.fill(box("weights", 0, 1), "")  # cleared: no status, no mark
    assert page.get_attribute(box("weights", 0, 1), "data-status") is None
    assert mark_of(page, "weights", 0, 1) == ""
    page.focus(box("Q", 0, 0))
    page.keyboard.press("Enter")  # on to the next box
    assert page.evaluate("document.activeElement.dataset.col") == "2"
    assert not errors
    page.close()


@pytest.mark.parametrize(("name", "lang"), CASES)
def test_the_page_is_offline_typeset_and_fits_a_phone(
    browser: Any, pages: Any, name: str, lang: str
) -> None:
    page, requests, errors = _open(browser, pages[(name, lang)])
    assert requests and not html._outside(requests), html._outside(requests)
    assert page.url.startswith("file://")
    found = page.evaluate(html.TYPESET)
    assert found["maths"] > 0 and found["laidOut"] == found["maths"], found
    assert not html.RAW_TEX.search(page.inner_text("body"))
    assert not html._looks_blank(browser, page)
    assert page.evaluate("document.documentElement.lang") == lang
    page.set_viewport_size({"width": 375, "height": 800})
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page is {width} px wide on a 375 px phone"
    page.emulate_media(media="print")
    assert page.locator("input[data-step]").first.is_visible()
    assert not errors
    page.close()


def test_without_javascript_the_page_says_marking_needs_it(browser: Any, pages: Any) -> None:
    page = browser.new_page()
    session = page.context.new_cdp_session(page)
    session.send("Emulation.setScriptExecutionDisabled", {"value": True})
    page.goto(pages[("seed", "en")].as_uri(), wait_until="load")
    text = page.inner_text("body")
    assert words("en")("selfcheck.noscript") in text
    assert page.locator("input[data-step]").count() > 0  # the boxes are there to print
    session.detach()
    page.close()
    page, _, _ = _open(browser, pages[("seed", "en")])  # and with scripts on it is not shown
    assert words("en")("selfcheck.noscript") not in page.inner_text("body")
    page.close()


@pytest.mark.parametrize(
    "options",
    [
        ExerciseOptions(level=3, tokens=3, topics=("positions",)),  # P: sin and cos to work
        ExerciseOptions(topics=("rope", "temperature")),
        ExerciseOptions(topics=("additive",), mask="causal"),
        ExerciseOptions(layout="column", topics=("temperature",), tokens=4),
        ExerciseOptions(topics=("positions", "block")),
        ExerciseOptions(layout="column", heads=2, topics=("alibi", "window")),
        ExerciseOptions(layout="column", heads=2, topics=("rope", "gqa")),
    ],
    ids=[
        "sinusoidal",
        "rope-temperature",
        "additive-causal",
        "column",
        "positions-block",
        "column-heads-alibi-window",
        "column-rope-gqa",
    ],
)
def test_a_topic_exercise_typed_with_its_key_is_all_right(
    browser: Any, tmp_path: Path, options: ExerciseOptions
) -> None:
    (exercise,) = generate(21, 1, options)
    path = tmp_path / "page.html"
    path.write_text(render_self_check(exercise.key, "en", steps=exercise.steps), encoding="utf-8")
    page, requests, errors = _open(browser, path)
    type_in(page, answers_json(exercise.key, exercise.places, exercise.steps))
    marked = statuses(page)
    assert marked and marked == ["ok"] * len(marked), marked
    assert not errors and not html._outside(requests), (errors, requests)
    page.close()


@pytest.fixture(scope="module")
def klass(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A class set with pages: two students."""
    root = tmp_path_factory.mktemp("klass")
    (root / "roster.csv").write_text(
        "name,id,email\nAda Lovelace,s001,ada@example.org\nBo Li,s002,bo@example.org\n",
        encoding="utf-8",
    )
    status, _, err = run_cli(
        ["exercises", "--seed", "11", "--html", "--students", str(root / "roster.csv"),
         "-o", str(root / "week")]
    )  # fmt: skip
    assert status == 0, err
    return root / "week"


def test_typed_answers_are_kept_downloaded_and_graded_as_shown(
    browser: Any, klass: Path, tmp_path: Path
) -> None:
    """Type a hand calculation with a slip, reload: the answers are back and marked the
    same; download: answers.json with the page id, and grade gives every box the status
    the page shows; the same file handed in as another student's is reported."""
    path = klass / "students" / "Ada_Lovelace" / "self-check.html"
    page, requests, errors = _open(browser, path)
    key = json.loads((klass / "teacher" / "Ada_Lovelace" / "answers.json").read_text("utf-8"))
    typed = {s: key[s] for s in ("scores", "scaled_scores", "weights", "output")}
    first = typed["scores"][0][0]
    typed["scores"][0][0] = str(int(first) + 1) if first.lstrip("-").isdigit() else "7"
    type_in(page, typed)
    shown = statuses(page)
    texts = page.eval_on_selector_all("input[data-step]", "all => all.map(e => e.value)")
    assert "wrong" in shown
    page.reload(wait_until="load")
    assert page.eval_on_selector_all("input[data-step]", "all => all.map(e => e.value)") == texts
    assert statuses(page) == shown
    with page.expect_download() as started:
        page.click('[data-action="download-answers"]')
    download = started.value
    assert download.suggested_filename == "answers.json"
    subs = tmp_path / "subs"
    (subs / "Ada_Lovelace").mkdir(parents=True)
    file = subs / "Ada_Lovelace" / "answers.json"
    download.save_as(file)
    handed = json.loads(file.read_text(encoding="utf-8"))
    problem = (klass / "teacher" / "Ada_Lovelace" / "problem.toml").read_text("utf-8")
    assert handed["page_id"] == page_id("Ada_Lovelace", problem)
    assert {s: handed[s] for s in typed} == typed
    grades = grade_class(klass, subs)
    row = next(r for r in grades.rows if r.entry.folder == "Ada_Lovelace")
    assert row.result is not None and row.error is None
    for step in row.result.steps:
        for entry in step.entries:
            i, j = entry.index[0] - 1, entry.index[1] - 1
            assert page.get_attribute(box(step.id, i, j), "data-status") == entry.status
        section = page.locator(f'section[data-step="{step.id}"] [data-diagnosis]')
        named = [section.nth(k).get_attribute("data-diagnosis") for k in range(section.count())]
        assert named == [d.id for d in step.diagnosis]
    (subs / "Bo_Li").mkdir()
    (subs / "Bo_Li" / "answers.json").write_bytes(file.read_bytes())
    bo = next(r for r in grade_class(klass, subs).rows if r.entry.folder == "Bo_Li")
    assert bo.result is None and bo.error is not None and "Ada Lovelace" in bo.error
    other = _open(browser, klass / "students" / "Bo_Li" / "self-check.html", keep=True)[0]
    assert set(statuses(other)) == {None}  # Bo's page keeps its own answers, not Ada's
    other.close()
    assert not errors and not html._outside(requests), (errors, requests)
    page.close()
