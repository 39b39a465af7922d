"""The document model (issue 20): writers dispatch by block type and printers by node
type, each with a fallback that raises; brackets come from the precedence table."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import symattn
from symattn.check import CheckResult, check
from symattn.check.feedback import (
    feedback_document,
    render_feedback_latex,
    render_feedback_text,
    step_feedback_lines,
)
from symattn.check.feedback_html import feedback_fragment, render_feedback_html
from symattn.classroom.summary import ClassSummary, Counted
from symattn.classroom.summary_html import render_summary_html, summary_page_document
from symattn.derivation import Derivation
from symattn.errors import SymattnError
from symattn.exercises import ExerciseOptions, generate
from symattn.exercises.sheet import (
    render_sheet,
    render_summary,
    sheet_document,
    summary_document,
)
from symattn.formula import Exp, Frac, Lit, Name, Number, Product, Sum, Sym, Value
from symattn.numbers import Surd
from symattn.render import (
    AnswerBox,
    AnswerBoxes,
    Bars,
    CheckedStep,
    Columns,
    Diagnoses,
    Display,
    Document,
    Heading,
    Headline,
    Histogram,
    KeySection,
    Notice,
    RenderOptions,
    Sentence,
    TexPrinter,
    UnicodeMath,
    Verdict,
    html_fragment_of,
    render,
)

from .helpers import run_cli


@dataclass(frozen=True)
class Unknown:
    """A node no printer knows."""

    text: str


@pytest.mark.parametrize("printer", [UnicodeMath(), TexPrinter()])
def test_a_printer_refuses_a_node_it_has_no_method_for(printer: UnicodeMath | TexPrinter) -> None:
    with pytest.raises(TypeError, match="no way to print a Unknown"):
        printer.math(Unknown("x"))  # type: ignore[arg-type]


def test_a_denominator_is_bracketed_by_what_it_is_not_by_how_it_prints() -> None:
    u = UnicodeMath()
    half = Value(Fraction(1, 2))
    assert u.math(Frac(Lit("4"), half)) == "4 / (1/2)"
    assert u.math(Frac(Lit("4"), Value(Surd.sqrt(2) / Surd.rational(Fraction(2))))) == "4 / (√2/2)"
    # a power or a function of a quotient is one piece: no brackets
    assert u.math(Frac(Lit("pos"), Exp(half))) == "pos / e^(1/2)"
    assert u.math(Frac(Name("scores", 0, 1), Sym("sqrt_dk"))) == "s₁,₂ / √d_k"
    # a sum or a spaced quotient as a numerator is bracketed
    assert u.math(Frac(Sum((Lit("a"), Lit("b"))), Lit("c"))) == "(a + b) / c"
    assert u.math(Frac(Frac(Lit("a"), Lit("b")), Lit("c"))) == "(a / b) / c"


def test_a_substituted_number_brackets_itself_by_its_value() -> None:
    u, t = UnicodeMath(), TexPrinter()
    factors = (
        Number(-2),
        Number(Fraction(3, 4)),
        Number(Surd.sqrt(2)),
        Number(Surd.sqrt(2) / Surd.rational(Fraction(2))),
    )
    assert u.math(Product(factors)) == "(-2) (3/4) √2 (√2/2)"
    assert t.math(Product(factors)) == r"\left(-2\right) \frac{3}{4} \sqrt{2} \frac{\sqrt{2}}{2}"
    one_plus = Number(Surd.sqrt(3) + Surd.rational(Fraction(1)))
    assert u.math(one_plus).startswith("(") and t.math(one_plus).startswith(r"\left(")


# -- the options ------------------------------------------------------------------------


def _seed() -> Derivation:
    return symattn.derive("seed")


def test_a_row_the_problem_does_not_have_is_an_error_not_silently_dropped() -> None:
    d = _seed()  # two query rows
    with pytest.raises(
        SymattnError, match=r"^rows: 5 is out of range; the problem has 2 query rows"
    ):
        render(d, "latex", rows=[5])
    with pytest.raises(SymattnError, match=r"^heads_shown: 3 is out of range"):
        render(d, "text", heads_shown=[3])
    assert render(d, "latex", rows=[1]) != render(d, "latex", rows=[0])


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"digits": 31}, "digits: expected 0 … 30"),
        ({"digits": True}, "digits: expected an integer"),
        ({"notation": "greek"}, "notation: expected one of matrix, token"),
        ({"rows": [-1]}, "rows: expected integers ≥ 0"),
        ({"rows": "1"}, "rows: expected a list of integers"),
        ({"heads_shown": [0]}, "heads_shown: expected integers ≥ 1"),
        ({"lang": "fr"}, "language: expected one of en, zh"),
        ({"colour": "red"}, "render: unknown option 'colour'"),
    ],
)
def test_options_are_checked_when_built(keywords: dict[str, Any], message: str) -> None:
    with pytest.raises(SymattnError, match=re.escape(message)):
        RenderOptions.of("text", **keywords)


def test_one_frozen_options_value_renders_as_the_keywords_do() -> None:
    d = _seed()
    options = RenderOptions("markdown", lang="zh", rows=(0, 1), digits=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.digits = 5  # type: ignore[misc]
    assert render(d, options) == render(d, "markdown", lang="zh", rows=[0, 1], digits=3)
    assert render(d, options, digits=2) == render(d, "markdown", lang="zh", rows=[0, 1], digits=2)


def test_a_document_is_rendered_by_every_writer_and_json_is_a_derivations() -> None:
    doc = Document("T", (Heading(None, "Given"), Sentence(("words ", Name("scores", 0, 1)))))
    assert render(doc, "text") == "T\n=\n\nGiven\n  words s₁,₂\n"
    assert "$s_{1,2}$" in render(doc, "markdown") and "\\section*{Given}" in render(doc, "tex")
    assert "<h2>Given</h2>" in render(doc, "html")
    with pytest.raises(SymattnError, match="json writes a derivation"):
        render(doc, "json")


def test_a_writer_refuses_a_block_it_has_no_method_for() -> None:
    doc = Document("T", (Unknown("x"),))  # type: ignore[arg-type]
    for fmt in ("text", "latex", "markdown", "html"):
        with pytest.raises(TypeError, match="has no way to write a Unknown"):
            render(doc, fmt)


def test_the_cli_says_a_missing_row_in_one_line(tmp_path: Path) -> None:
    status, out, err = run_cli(["derive", "--example", "seed", "--rows", "5"])
    assert status == 2 and out == ""
    assert err == "symattn: error: --rows: 5 is out of range; the problem has 2 query rows\n"


def test_the_math_a_sentence_names_is_printed_by_each_writer() -> None:
    w = symattn.words.words("en")
    said = Sentence.of(*w.parts("derive.mask"))
    doc = Document("T", (said,))
    assert "become −∞, so" in render(doc, "text")
    assert "become $-\\infty$, so" in render(doc, "tex")
    assert "become $-\\infty$, so" in render(doc, "markdown")
    html = render(doc, "html")
    assert "become <math" in html and "−∞" not in html.split("<main>")[1]


# -- check's feedback is a document too ----------------------------------------------------


def _slipped() -> CheckResult:
    """One score off (s₂,₂ written 2, it is 1): an arithmetic slip, then right weights."""
    problem = {"Q": [[1, 0], [0, 1]], "K": [[1, 0], [0, 1]], "V": [[1], [2]]}
    weights = [["0.6698", "0.3302"], ["0.3302", "0.6698"]]
    return check(problem, {"scores": [["1", "0"], ["0", "2"]], "weights": weights})


def test_check_feedback_is_one_document_every_format_writes() -> None:
    result = _slipped()
    doc = feedback_document(result, "en", 4, True, ("3", "5"))
    assert doc.kind == "feedback" and isinstance(doc.blocks[0], Verdict)
    steps = [b for b in doc.blocks if isinstance(b, CheckedStep)]
    assert [s.step_id for s in steps] == ["scores", "weights"] and steps[0].first
    assert render(feedback_document(result), "text") == render_feedback_text(result)
    assert render(doc, "text").splitlines()[1].startswith("Points: 3")
    assert render(doc, "tex") == render_feedback_latex(result, score=("3", "5"))
    assert render(doc, "html") == render_feedback_html(result, score=("3", "5"))
    keyless = feedback_document(result, show_key=False)
    assert html_fragment_of(keyless) == feedback_fragment(result, show_key=False)
    # the gradescope lines are the text of that one step, title first
    text = render_feedback_text(result).splitlines()
    lines = step_feedback_lines(result, result.steps[0], symattn.words.words("en"))
    assert lines == text[text.index(lines[0]) : text.index(lines[0]) + len(lines)]


def test_a_checked_steps_fields_carry_what_the_formats_write_differently() -> None:
    result = _slipped()
    first = feedback_document(result).blocks[1]
    assert isinstance(first, CheckedStep)
    box = next(b for b in first.blocks if isinstance(b, AnswerBox))
    # text and page: only the wrong entry's line; LaTeX: the whole derived row
    assert [line.lhs for line in box.lines] == [Name("scores", 1, 1)]
    derived = [line for b in box.step if isinstance(b, Display) for line in b.lines]
    assert len(derived) > len(box.lines)
    text, tex = render_feedback_text(result), render_feedback_latex(result)
    assert "s₂,₁ =" not in text and "s_{2,1}" in tex.split("derived")[1]
    # the page hides the key of a slip; the text names a slip's right value
    items = next(b for b in first.blocks if isinstance(b, Diagnoses)).items
    hidden = feedback_document(result, show_key=False).blocks[1]
    assert isinstance(hidden, CheckedStep)
    hidden_items = next(b for b in hidden.blocks if isinstance(b, Diagnoses)).items
    assert items[0].page_message == items[0].message
    assert hidden_items[0].page_message.key == "feedback.slip_hidden"
    assert "it is 1" not in render_feedback_html(result, show_key=False)
    assert "it is 1" in render_feedback_text(result, show_key=False)
    assert not any(isinstance(b, AnswerBox) for b in hidden.blocks)


def test_a_feedback_block_no_writer_knows_is_an_error_in_every_format() -> None:
    step = feedback_document(_slipped()).blocks[1]
    assert isinstance(step, CheckedStep)
    odd = dataclasses.replace(step, blocks=(*step.blocks, Unknown("x")))  # type: ignore[arg-type]
    doc = Document("T", (odd,), kind="feedback")
    for fmt in ("text", "tex", "html"):
        with pytest.raises(TypeError, match="has no way to write a Unknown"):
            render(doc, fmt)
    with pytest.raises(TypeError, match="MarkdownWriter has no way to write a CheckedStep"):
        render(doc, "markdown")


# -- the exercise sheet and the teacher's keys are documents --------------------------------


def test_the_sheet_and_the_keys_are_documents_the_latex_writer_writes() -> None:
    exercises = generate(1, 2, ExerciseOptions(mask="causal"))
    sheet = sheet_document(exercises[0], "en")
    boxes = [b for b in sheet.blocks if isinstance(b, AnswerBoxes)]
    assert [b.name for b in boxes] == [Name(s) for s in exercises[0].steps]
    assert render(sheet, "tex") == render_sheet(exercises[0], "en")
    cells = sum(b.rows * b.cols for b in boxes)
    assert render(sheet, "tex").count("\\answerbox{") == cells > 0
    keys = summary_document(exercises, "zh")
    assert [b.title for b in keys.blocks if isinstance(b, KeySection)] == [
        e.data["title"] for e in exercises
    ]
    assert render(keys, "tex") == render_summary(exercises, "zh")
    assert "\\answerbox" not in render(keys, "tex")
    with pytest.raises(TypeError, match="TextWriter has no way to write a NameLine"):
        render(sheet, "text")


# -- the class at a glance is a document ----------------------------------------------------


def _class(mistakes: bool) -> ClassSummary:
    """Three students: Ann right, Bo wrong in the scores (no scaling) when ``mistakes``."""
    wrong = ("Bo",) if mistakes else ()
    groups = {"right": ("Ann", "Cy", *(() if mistakes else ("Bo",))), "carried": ()}
    steps = (("scores", "Scores", {**groups, "wrong": wrong, "missing": ()}),)
    found = (Counted("no_scaling", "no scaling", wrong, ("scores",)),) if mistakes else ()
    first = (Counted("scores", "Scores", wrong),) if mistakes else ()
    bins = (Counted("0-50", "0–50 %", wrong), Counted("50-100", "50–100 %", ("Ann", "Cy")))
    return ClassSummary("week5", 3, 3, 0, steps, found, first, bins)


@pytest.mark.parametrize("mistakes", [True, False])
def test_the_class_at_a_glance_is_a_document_the_html_writer_writes(mistakes: bool) -> None:
    summary = _class(mistakes)
    doc = summary_page_document(summary, "en")
    headline = doc.blocks[0]
    assert isinstance(headline, Headline) and headline.ok is not mistakes
    assert [type(b) for b in doc.blocks if isinstance(b, (Bars, Histogram))] == [Bars, Histogram]
    page = render(doc, "html")
    assert page == render_summary_html(summary, "en")
    assert ('data-mistake="no_scaling"' in page) is mistakes
    assert ('data-most-common="scores"' in page) is mistakes
    right = 2 if mistakes else 3
    assert 'data-bin="50-100" data-count="2"' in page and f'data-right="{right}"' in page
    with pytest.raises(TypeError, match="TextWriter has no way to write a Headline"):
        render(doc, "text")


def test_a_reports_table_pads_its_columns_by_terminal_width_and_its_notes_run_on() -> None:
    rows = (("student", "points", "notes"), ("张伟", "5/7", "too few places"), ("Ann", "7/7", ""))
    doc = Document("Grades", (Columns(rows, 2), Notice("not marked: x.json")), kind="report")
    assert render(doc, "text").splitlines() == [
        "student  points  notes",
        "张伟     5/7     too few places",  # a CJK character takes two columns
        "Ann      7/7",  # nothing after the last padded column: no trailing spaces
        "not marked: x.json",
    ]
    with pytest.raises(TypeError, match="LatexWriter has no way to write a Columns"):
        render(doc, "tex")
