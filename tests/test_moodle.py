"""The Moodle XML question bank, read back the way Moodle reads it.

The reader (tests/moodle_reader.py) shares nothing with symattn.exercises.moodle: the XML is
parsed with ElementTree, and every Cloze field with Moodle's own regular expressions.  The
values are compared with ``answers_json`` and with the independent reference computation of
tests/reference.py; tests/test_moodle_simulation.py marks typed values with Moodle's rule
and compares with ``check``.
"""

from __future__ import annotations

import html
import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import moodle_xml_parser.parser as third_party
import pytest

from symattn.check import answer_steps
from symattn.check.naming import entry_name
from symattn.check.tables import mistake_tables
from symattn.compute import derivation
from symattn.derivation import Derivation
from symattn.errors import SymattnError
from symattn.examples import example_path
from symattn.exercises import (
    ExerciseOptions,
    QuizItem,
    answers_json,
    generate,
    moodle,
    moodle_quiz,
)
from symattn.exercises.cloze import EXTRA_PLACES, Answer, Field
from symattn.load import load

from .helpers import REGEN, ROOT, said
from .html_pages import ENGLISH
from .moodle_reader import FIELD, moodle_match, read_fields, read_quiz
from .reference import attention

# -- problems --------------------------------------------------------------------------------
PROBLEM = {
    "X": [[1, 0, 2], [0, 1, 1], [2, 1, 0]],
    "W_Q": [[1, 0], [0, 2], [1, 1]],
    "W_K": [[0, 1], [1, 0], [2, 1]],
    "W_V": [[1, 2], [0, 1], [1, 0]],
}


def _sheet_steps(key: Derivation) -> tuple[str, ...]:
    return tuple(s for s in answer_steps(key) if s != "X")


def _generated(options: ExerciseOptions, seed: int = 7, count: int = 2) -> list[QuizItem]:
    return [
        QuizItem(e.data["title"], e.key, 4, _sheet_steps(e.key))
        for e in generate(seed, count, options)
    ]


def _loaded(data: dict[str, Any], places: int = 4, name: str = "loaded") -> QuizItem:
    key = derivation(load(dict(data)))
    return QuizItem(name, key, places, _sheet_steps(key))


CASES = {
    "generated": lambda: _generated(ExerciseOptions()),
    "causal": lambda: _generated(ExerciseOptions(mask="causal")),
    "two_heads": lambda: _generated(ExerciseOptions(heads=2), count=1),
    "column_causal": lambda: _generated(ExerciseOptions(layout="column", mask="causal"), count=1),
    "sqrt2": lambda: [_loaded(dict(PROBLEM, scale="sqrt(d_k)"))],  # d_k = 2: irrational
    "sqrt2_causal_3_places": lambda: [_loaded(dict(PROBLEM, mask="causal"), places=3)],
    "eighths_2_places": lambda: [  # Q has 1/8 = 0.125: exact, more places than asked
        _loaded(dict(PROBLEM, X=[["1/8", 0, 2], [0, "5/2", 1], [2, 1, "-1/3"]]), places=2)
    ],
    "multihead_example": lambda: [
        QuizItem("ex", k, 4, _sheet_steps(k)) for k in [derivation(load(example_path("multihead")))]
    ],
}


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request: pytest.FixtureRequest) -> tuple[list[QuizItem], str]:
    items = CASES[request.param]()
    return items, moodle_quiz(items)


def _expected(cell: str, places: int) -> Decimal | None:
    """What an answers.json cell says the field must hold (None: −∞)."""
    if cell == "-inf":
        return None
    if "/" in cell or re.fullmatch(r"-?\d+", cell):
        q = Fraction(cell)
        exact = Decimal(q.numerator) / Decimal(q.denominator)
        if Fraction(exact) == q:  # a terminating decimal: exactly
            return exact
        return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return Decimal(cell)


# -- the tests -------------------------------------------------------------------------------
def test_every_field_equals_answers_json(case: tuple[list[QuizItem], str]) -> None:
    """The right answer is the exact value to places + 6 decimals (exactly when it ends
    sooner), so it rounds to the value answers.json holds; a masked score takes -inf."""
    items, xml = case
    questions = read_quiz(xml)
    assert [name for name, _ in questions] == [item.name for item in items]
    for item, (_, text) in zip(items, questions):
        fields = iter(read_fields(text))
        answers = answers_json(item.key, item.places, list(item.steps))
        assert list(answers) == list(item.steps)
        for step_id in item.steps:
            for row in answers[step_id]:
                for cell in row:
                    field = next(fields)
                    expected = _expected(cell, item.places)
                    right = field.alternatives[0]
                    assert right.percent == 100
                    if expected is None:
                        assert field.kind == "SHORTANSWER"
                        accepted = {a.answer for a in field.alternatives if a.percent == 100}
                        assert {"-inf", "−∞", "-infinity", "-oo"} <= accepted
                        assert not any("\\" in a for a in accepted)  # no backslash
                        continue
                    assert field.kind == "NUMERICAL"
                    value = Decimal(right.answer)
                    assert -value.as_tuple().exponent <= item.places + EXTRA_PLACES  # type: ignore[operator]
                    if "/" in cell or re.fullmatch(r"-?\d+", cell):
                        q = Fraction(cell)
                        if Fraction(expected) == q:  # a terminating decimal: exactly
                            assert Fraction(value) == q, (step_id, cell, right.answer)
                            continue
                    unit = Decimal(1).scaleb(-item.places)
                    rounded = value.quantize(unit, rounding=ROUND_HALF_UP)
                    assert rounded == expected, (step_id, cell, right.answer)
        assert next(fields, None) is None  # no field more than the entries


def test_every_field_is_sound(case: tuple[list[QuizItem], str]) -> None:
    """Right answer first at 100 % with one unit of tolerance, the 0 % answers each with a
    sentence and none within the tolerance of another answer of the field; every step
    worth the same."""
    items, xml = case
    for item, (_, text) in zip(items, read_quiz(xml)):
        unit = Decimal(1).scaleb(-item.places)
        fields = read_fields(text)
        totals: list[int] = []
        at = 0
        for step_id in item.steps:
            rows, cols = item.key.step(step_id).shape
            step_fields, at = fields[at : at + rows * cols], at + rows * cols
            assert len({f.weight for f in step_fields}) == 1
            totals.append(sum(f.weight for f in step_fields))
            for field in step_fields:
                rights = [a for a in field.alternatives if a.percent == 100]
                wrongs = [a for a in field.alternatives if a.percent != 100]
                assert field.alternatives[: len(rights)] == rights
                assert all(a.percent == 0 and a.feedback for a in wrongs)
                assert len({a.answer for a in wrongs}) == len(wrongs)
                if field.kind == "NUMERICAL":
                    assert len(rights) == 1 and Decimal(rights[0].tolerance or "0") == unit
                    alts = field.alternatives
                    for k, a in enumerate(alts):
                        for b in alts[k + 1 :]:
                            gap = abs(Decimal(a.answer) - Decimal(b.answer))
                            assert gap > Decimal(a.tolerance or "0"), (step_id, a, b)
                            assert gap > Decimal(b.tolerance or "0"), (step_id, a, b)
        assert len(set(totals)) == 1, totals


def test_a_column_layout_quiz_writes_each_step_transposed() -> None:
    """Tokens are columns on the whole quiz, as on the sheet: Q = W_Q X is d_k × n."""
    (item,) = _generated(ExerciseOptions(layout="column", tokens=3, d_k=2), count=1)
    ((_, text),) = read_quiz(moodle_quiz([item]))
    q_table = text.split("<p>Q =</p>", 1)[1].split("</table>", 1)[0]
    rows = [r for r in q_table.split("<tr>")[1:] if "<td>" in r]
    assert len(rows) == 2 and all(r.count("<td>") == 3 for r in rows), q_table
    assert q_table.split("<tr>")[1].count("<th>") == 3  # the 3 tokens above their columns


def test_a_mistake_value_carries_its_message() -> None:
    """no_scaling: weights[1,2] of the reference computation without the scale, rounded to
    4 places and typed into that field, meets a 0 % answer whose feedback is the no_scaling
    sentence."""
    reference = attention(PROBLEM, "no_scaling")["weights"][0][1]
    wrong = reference.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
    key = derivation(load(dict(PROBLEM)))
    table = {t.id: t for t in mistake_tables(key, 4)}["no_scaling"]
    steps = ("weights",)
    for lang, words in (("en", "not divided by √d_k = √2"), ("zh", "没有除以 √d_k = √2")):
        (_, text), *_ = read_quiz(moodle_quiz([QuizItem("a", key, 4, steps)], lang=lang))
        field = read_fields(text)[1]  # weights[1,2]: row 1, column 2 of a 3 × 3 step
        answer = moodle_match(field, str(wrong))
        assert answer is not None and answer.percent == 0
        feedback = answer.feedback_text
        assert feedback.startswith(said(table.message("weights", [(0, 1)]), lang))
        assert words in feedback and "a₁,₂" in feedback


def test_two_mistakes_with_one_value_share_one_answer() -> None:
    """Two mistakes whose values meet in one entry (here a softmax over the columns and
    transposed scores give the same a₁,₁) are one answer with both sentences, the entry
    named once; each mistake's value typed with 4 places meets an answer naming it, each
    mistake said once."""
    key = derivation(load(dict(PROBLEM)))
    tables = mistake_tables(key, 4)
    (_, text), *_ = read_quiz(moodle_quiz([QuizItem("a", key, 4, ("weights",))]))
    fields = read_fields(text)
    shared = 0
    for index, field in enumerate(fields):
        i, j = divmod(index, 3)
        name = entry_name("weights", i, j)
        for answer in field.alternatives[1:]:
            assert answer.feedback_text.count(name + ":") == 1
            present = [t.id for t in tables if said(t.message("weights", [(i, j)])).removeprefix(
                name + ": ") in answer.feedback_text]  # fmt: skip
            assert len(present) == len(set(present)), present  # each mistake one way
        for t in tables:
            if (i, j) not in t.differs.get("weights", ()):
                continue
            typed = str(Decimal(str(t.values["weights"][i][j])).quantize(
                Decimal("0.0001"), rounding=ROUND_HALF_UP))  # fmt: skip
            answer = moodle_match(field, typed)
            assert answer is not None, (t.id, typed)
            if answer.percent == 100:
                continue  # within one unit of the exact value: right, as in check
            # the mistake is named, in one of its ways of making (the nearest)
            ways = [said(u.message("weights", [(i, j)])).removeprefix(name + ": ")
                    for u in tables if u.id == t.id]  # fmt: skip
            assert any(way in answer.feedback_text for way in ways), (t.id, typed)
            named = [u.id for u in tables if said(u.message("weights", [(i, j)])).removeprefix(
                name + ": ") in answer.feedback_text]  # fmt: skip
            shared += len(set(named)) > 1
    assert shared  # the case happens on this problem


#: Latin words a Chinese question may hold: names in formulas (d_model, exp, softmax, -inf).
FORMULA_WORDS = {"Softmax", "softmax", "exp", "inf", "model", "Moodle"}


def test_chinese_quiz_has_no_english_sentence() -> None:
    key = derivation(load(dict(PROBLEM, mask="causal", tokens=["我", "爱", "你"])))
    items = [QuizItem("a", key, 4, ("scores", "masked_scores", "weights"))]
    for lang in ("zh", "en"):
        xml = moodle_quiz(items, lang=lang)
        (_, text), *_ = read_quiz(xml)
        general = ElementTree.fromstring(xml).findtext("question/generalfeedback/text") or ""
        fields = read_fields(text)
        feedback = " ".join(a.feedback_text for f in fields for a in f.alternatives)
        prose = re.sub(r"<[^>]+>", " ", FIELD.sub(" ", text) + general)
        found = ENGLISH.findall(prose + " " + feedback)
        latin = set(re.findall(r"[A-Za-z]{3,}", prose + " " + feedback)) - FORMULA_WORDS
        if lang == "zh":
            assert not found and not latin, (found, latin)
            assert "正确" in feedback and "施加掩码" in prose and "小数点" in prose
            assert "相差" in general
        else:
            assert found and latin  # the detectors see English where there is some


def test_an_exercise_from_a_sentence_shows_the_sentence_and_the_vocabulary() -> None:
    key = derivation(load(example_path("seed")))
    vocabulary = (("<unk>", ("0", "0", "0", "0")), ("我", ("1", "0", "1", "0")))
    item = QuizItem("seed", key, 4, ("X", "Q"), vocabulary=vocabulary)
    (_, text), *_ = read_quiz(moodle_quiz([item], lang="zh"))
    given = text.split("<h3>", 2)[1]
    assert "句子： 我爱" in given and "词表与嵌入行：" in given and "<th>&lt;unk&gt;</th>" in given
    assert "<p>X =</p>" not in given  # X is asked for, not given
    assert [len(read_fields(text))] == [2 * 4 + 2 * 2]


def test_xml_is_well_formed_utf8_and_keeps_names() -> None:
    names = ["Zoë <b>&amp; ]]> \"q\" 'a'", "张三", "../x", "=1+2", "a]]>b"]
    data = dict(PROBLEM, tokens=["]]>", "<b>", "&amp;"])
    key = derivation(load(dict(data)))
    items = [QuizItem(name, key, 4, ("Q", "scores")) for name in names]  # the names matter
    xml = moodle_quiz(items, lang="en", category="Week 5 & <all>")
    raw = xml.encode("utf-8")
    assert raw.decode("utf-8", errors="strict") == xml
    assert xml.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<quiz>')
    root = ElementTree.fromstring(raw)
    kinds = [q.get("type") for q in root.findall("question")]
    assert kinds == ["category"] + ["cloze"] * len(names)
    assert root.findtext("question/category/text") == "$course$/top/Week 5 & <all>"
    questions = read_quiz(xml)
    assert [name for name, _ in questions] == names
    text = questions[0][1]
    assert "&lt;b&gt;" in text and "]]&gt;" in text  # tokens shown, escaped as HTML


def test_a_cdata_section_never_ends_early() -> None:
    """The question text is HTML-escaped, so ``]]>`` never reaches it; the CDATA writer
    splits one anyway."""
    raw = f"<text>{moodle._cdata('a]]>b]]]>c')}</text>"
    assert ElementTree.fromstring(raw).text == "a]]>b]]]>c"


def test_cloze_escaping_round_trips_through_moodles_reader() -> None:
    nasty = 'a } b # c ~ d { e \\ f & g < h > i " j \\} k \\# l'
    field = Field(2, "SHORTANSWER", (Answer("-\\infty", 100, "ok"), Answer(nasty, 0, nasty)))
    (read,) = read_fields(f"<p>{field.cloze()}</p>")
    assert read.weight == 2 and read.kind == "SHORTANSWER"
    assert [a.answer for a in read.alternatives] == ["-\\infty", nasty]
    assert read.alternatives[1].feedback_text == nasty
    assert read.alternatives[1].percent == 0


def test_the_third_party_reader_agrees() -> None:
    """moodle-xml-parser (PyPI) reads the same questions, fields, grades and feedback."""
    items = CASES["sqrt2_causal_3_places"]()
    xml = moodle_quiz(items)
    parsed = third_party.parse_string(xml)["cloze"]
    assert [q.name for q in parsed] == [item.name for item in items]
    for question, (_, text) in zip(parsed, read_quiz(xml)):
        ours = read_fields(text)
        assert len(question.gaps) == len(ours)
        for gap, field in zip(question.gaps, ours):
            assert gap.sub_type == field.kind and gap.sub_grade == field.weight
            assert [o.score for o in gap.options] == [a.percent for a in field.alternatives]
            for option, alt in zip(gap.options, field.alternatives):
                value = f"{alt.answer}:{alt.tolerance}" if alt.tolerance else alt.answer
                assert option.answer == value
                assert html.unescape(option.feedback or "") == alt.feedback_text


@pytest.mark.parametrize(
    ("item", "message"),
    [
        (lambda k: QuizItem("a", k, 11, ("Q",)), "places: expected 0 … 10, found 11"),
        (lambda k: QuizItem("a", k, 4, ()), "no steps"),
        (lambda k: QuizItem("a", k, 4, ("nope",)), "no step 'nope'"),
    ],
)
def test_bad_items_are_one_clear_error(item: Any, message: str) -> None:
    key = derivation(load(dict(PROBLEM)))
    with pytest.raises(SymattnError, match=re.escape(message)):
        moodle_quiz([item(key)])


# -- the excerpt in docs/moodle.md -----------------------------------------------------------
DOC = ROOT / "docs" / "moodle.md"
EXCERPT = re.compile(r"(<!-- excerpt: (\w+) (\d+) -->\n```xml\n)(.*?)(```)", re.S)


def _excerpt(lang: str, index: int) -> str:
    """The field of weights[1,2] (index 1 of the step) of the docs' problem."""
    key = derivation(load(dict(PROBLEM)))
    (_, text), *_ = read_quiz(moodle_quiz([QuizItem("a", key, 4, ("weights",))], lang=lang))
    cells = re.findall(r"<td>(\{.*?)</td>", text)
    return cells[index] + "\n"


def test_docs_excerpt_is_the_real_output() -> None:
    page = DOC.read_text(encoding="utf-8")
    blocks = list(EXCERPT.finditer(page))
    assert blocks
    fresh = EXCERPT.sub(lambda m: m[1] + _excerpt(m[2], int(m[3])) + m[5], page)
    if REGEN and fresh != page:
        Path(DOC).write_text(fresh, encoding="utf-8")
        page = fresh
    assert page == fresh, "docs/moodle.md: the excerpt differs (SYMATTN_REGEN=1 rewrites it)"
