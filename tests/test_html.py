"""The HTML pages, read without a browser: structure, language, self-containment, MathML.

Every bundled example × lang × notation is rendered and parsed: one ``<html lang>``,
every element closed in order, no ``src`` and no ``href`` but the page's own anchors,
no script, a print style sheet and a phone viewport, every step's title as a heading in
order, and every ``<math>`` well-formed MathML Core with no LaTeX left in any text.
The feedback page of ``check --format html`` is read the same way.  The pages in a
real browser are tests/test_html_browser.py.
"""

from __future__ import annotations

import functools
import re

import pytest

import symattn
from symattn.check.feedback_html import render_feedback_html
from symattn.derivation import Derivation
from symattn.examples import example_names, example_path
from symattn.render import render
from symattn.render.mathml import display_element, math_element, serialize, split_alignment
from symattn.render.walker import title_of
from symattn.steps import Kind
from symattn.version import __version__
from symattn.words import words

from .helpers import GOLDEN, REGEN, ROOT, run_cli
from .html_pages import ENGLISH, MATHML, RAW_TEX, h2_titles, math_elements, read_page

LANGS = ("en", "zh")
NOTATIONS = ("matrix", "token")
CASES = [(n, lang, notation) for n in example_names() for lang in LANGS for notation in NOTATIONS]
ANSWERS = ROOT / "docs" / "examples"


@functools.cache
def _derivation(name: str) -> Derivation:
    return symattn.derive(example_path(name), backward=name == "backward")


def _check_page(text: str, lang: str, authored: str = "") -> None:
    """What every page symattn writes must be: self-contained, well-formed, typeset;
    ``authored``: the problem's own description, in its author's language."""
    assert text.startswith("<!DOCTYPE html>\n"), text[:40]
    page = read_page(text)
    assert not page.errors, page.errors[:5]
    assert page.lang == lang
    assert page.srcs == [] and page.scripts == 0
    assert all(h.startswith("#") and h[1:] in page.ids for h in page.hrefs), page.hrefs
    assert len(page.ids) == len(set(page.ids))
    assert "@media print" in page.style and "@media (max-width" in page.style
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in text
    assert not RAW_TEX.search(page.visible), RAW_TEX.findall(page.visible)[:5]
    maths = math_elements(text)
    assert maths, "no formula"
    names = {node.tag for m in maths for node in m.iter()}
    assert names <= MATHML, names - MATHML
    if lang == "zh":
        own = set(re.findall(r"[a-z]+", authored.lower()))  # the author's words may be English
        english = [w for w in ENGLISH.findall(" ".join(page.prose)) if w.lower() not in own]
        assert not english, english


@pytest.mark.parametrize(("name", "lang", "notation"), CASES)
def test_every_example_is_a_whole_page(name: str, lang: str, notation: str) -> None:
    d = _derivation(name)
    text = render(d, "html", lang=lang, notation=notation)
    _check_page(text, lang, d.problem.description or "")
    w = words(lang)
    titles = h2_titles(read_page(text))
    wanted = [w.heading(k, title_of(step, w)) for k, step in enumerate(d.steps, start=1)]
    assert titles == [w("given"), *wanted, w("result")]
    softmax = sum(step.kind == Kind.SOFTMAX for step in d.steps)
    assert text.count('<table class="heat">') == (0 if d.problem.symbolic else softmax)


def test_a_page_is_written_by_the_command(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "seed.html"
    status, stdout, err = run_cli(
        ["derive", "--example", "seed", "--format", "html", "--lang", "zh", "-o", str(out)]
    )
    assert status == 0 and stdout == "", err
    _check_page(out.read_text(encoding="utf-8"), "zh")


def test_tokens_are_text_never_markup() -> None:
    tokens = ["<script>alert(1)</script>", "a&b", "{x}_1", "50%", "\\frac"]
    problem = {
        "tokens": tokens,
        "X": [[1, 0], [0, 1], [1, 1], [2, 0], [0, 2]],
        "W_Q": [[1, 0], [0, 1]],
        "W_K": [[0, 1], [1, 0]],
        "W_V": [[1, 2], [0, 1]],
    }
    text = render(symattn.derive(problem), "html")
    assert "<script" not in text and "alert(1)</script>" not in text
    shown = {node.text for m in math_elements(text) for node in m.iter("mtext")}
    assert set(tokens) <= shown, set(tokens) - shown
    page = read_page(text)
    assert not page.errors


def test_golden_pages() -> None:
    """The seed page, whole: review its diff like the other golden files."""
    for lang in LANGS:
        text = render(_derivation("seed"), "html", lang=lang)
        text = text.replace(f"symattn {__version__}", "symattn VERSION")
        path = GOLDEN / f"seed.{lang}.html"
        if REGEN:
            path.write_text(text, encoding="utf-8")
        assert text == path.read_text(encoding="utf-8"), f"{path.name} changed"


# -- MathML: what latex2mathml gets wrong, fixed ---------------------------------------------
def test_display_lines_are_one_table_aligned_at_the_relation() -> None:
    lines = [r"q_{1,1} &= \begin{bmatrix} 1 & 2 \end{bmatrix}", r"&= 1 \cdot 2", r"&\quad + 3"]
    table = display_element(lines).find("mtable")
    assert table is not None and [len(row) for row in table] == [2, 2, 2]
    cells = [cell for row in table for cell in row]
    assert [c.get("columnalign") for c in cells] == ["right", "left"] * 3
    assert all(c.get("displaystyle") == "true" for c in cells)
    assert "&" not in serialize(display_element(lines)).replace("&amp;", "")
    plus = table[2][1].find(".//mo")
    assert plus is not None and plus.get("form") == "infix"


def test_alignment_mark_is_not_one_inside_a_matrix() -> None:
    cases = r"\begin{cases} a & b \end{cases}"
    assert split_alignment(cases) == ("", cases)
    assert split_alignment(r"X &= \begin{bmatrix} 1 & 2 \end{bmatrix}")[0] == "X "


def test_table_rules_become_borders() -> None:
    array = r"\begin{array}{c|cc} & \text{a} & \text{b} \\ \hline \text{a} & 1 & 2 \end{array}"
    table = math_element(array).find(".//mtable")
    assert table is not None and "columnlines" not in table.attrib
    head, body = list(table)
    assert "border-right" in (head[0].get("style") or "")
    assert all("border-bottom" in (cell.get("style") or "") for cell in head)
    assert "border-bottom" not in (body[1].get("style") or "")


def test_words_inside_formulas_are_exact() -> None:
    text = serialize(math_element(r"\text{a\_b \{x\} 50\% \textbackslash{}} \text{<pad>}"))
    assert "<mtext>a_b {x} 50% \\</mtext>" in text and "<mtext>&lt;pad&gt;</mtext>" in text


def test_signs_primes_accents_and_fences() -> None:
    text = serialize(math_element(r"x = -\frac{1}{2} \cdot \left(-3\right) + s'_{1,2} + \tilde{s}"))
    assert '<mo form="prefix">−</mo><mfrac>' in text  # a sign after =, not a subtraction
    assert '<mo stretchy="false" fence="true" form="prefix">(</mo>' in text  # short inside
    assert '<mrow><mi>s</mi><mo lspace="0" rspace="0">′</mo></mrow>' in text
    assert '<mo rspace="0">,</mo>' in text
    assert '<mover accent="true"><mrow><mi>s</mi></mrow><mo>˜</mo></mover>' in text
    assert '<mo form="prefix">−</mo><mi>∞</mi>' in serialize(math_element(r"s = -\infty"))
    tall = serialize(math_element(r"\left(-\frac{1}{2}\right)"))
    assert '<mo stretchy="true" fence="true" form="prefix">(</mo><mrow><mo form="prefix">' in tall


# -- the feedback page ---------------------------------------------------------------------
def _feedback(answers: str, lang: str = "en", show_key: bool = True) -> str:
    result = symattn.check(_derivation("seed"), ANSWERS / answers)
    return render_feedback_html(result, lang, show_key=show_key)


FEEDBACK = ["answers-correct.json", "answers-no-scaling.json", "answers-slip.json"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("answers", FEEDBACK)
def test_feedback_page_is_a_whole_page(answers: str, lang: str) -> None:
    text = _feedback(answers, lang)
    _check_page(text, lang)
    page = read_page(text)
    result = symattn.check(_derivation("seed"), ANSWERS / answers)
    w = words(lang)
    headings = h2_titles(page)
    assert len(headings) == len(result.steps)
    for heading, step in zip(headings, result.steps):  # the step's title, never its id
        assert heading.startswith(title_of(result.derivation.step(step.id), w) + " "), heading
    assert not re.search(r"\b\w+_\w+\b", page.visible), "an id in the visible text"
    marks = re.findall(
        r'<tr data-step="(\w+)" data-row="(\d)" data-col="(\d)" data-status="(\w+)"', text
    )
    wanted = [
        (s.id, str(e.index[0]), str(e.index[1]), e.status) for s in result.steps for e in s.entries
    ]
    assert marks == wanted and wanted


def test_feedback_names_the_mistake_and_derives_the_first_wrong_entry() -> None:
    text = _feedback("answers-no-scaling.json")
    assert text.count('data-diagnosis="no_scaling"') == 1
    assert 'data-verdict="incorrect"' in text
    assert "The first wrong step is Softmax: attention weights." in text
    assert "The first wrong entry, derived:" in text and "0.1070" in text


def test_feedback_without_the_key_shows_no_right_value() -> None:
    with_key = _feedback("answers-slip.json")
    without = _feedback("answers-slip.json", show_key=False)
    assert "3.5355" in with_key and "it is 5" in with_key
    for secret in ("3.5355", "1.4142", "it is 5", "derived", "expected"):
        assert secret not in without, secret
    assert 'data-diagnosis="arithmetic_slip"' in without and "recheck the arithmetic" in without
    _check_page(without, "en")


def test_feedback_note_is_in_the_page_language() -> None:
    zh = read_page(_feedback("answers-slip.json", "zh"))
    assert "对你所用的数值，方法是对的；错误来自计算注意力分数" in " ".join(zh.prose)


def test_check_command_writes_the_feedback_page(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "feedback.html"
    answers = str(ANSWERS / "answers-no-scaling.json")
    status, _, err = run_cli(["check", "seed", answers, "--format", "html", "-o", str(out)])
    assert status == 1, err
    assert 'data-diagnosis="no_scaling"' in out.read_text(encoding="utf-8")


def test_the_page_checks_can_fail() -> None:
    """Each detector finds what it looks for (checks that cannot fail are worthless)."""
    english = read_page(render(_derivation("seed"), "html", lang="en"))
    assert ENGLISH.search(" ".join(english.prose))
    broken = read_page('<p>$$\\frac{1}{2}$$</p><div><img src="http://x/y.png"></p>')
    assert RAW_TEX.search(broken.visible) and broken.srcs and broken.errors
    with pytest.raises(AssertionError):
        _check_page(render(_derivation("seed"), "markdown"), "en")
