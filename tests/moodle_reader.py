"""Moodle's reader of a quiz, in Python: the XML with ElementTree, every Cloze field with
Moodle's own regular expressions, transcribed from question/type/multianswer/questiontype.php
(``ANSWER_REGEX`` and the loop of ``qtype_multianswer_extract_question``), then decoded as
Moodle decodes it (``html_entity_decode``, then ``\\}`` → ``}`` and ``\\#`` → ``#``).  It
shares nothing with symattn.exercises.moodle."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from decimal import Decimal
from xml.etree import ElementTree

# -- Moodle's regular expressions (questiontype.php), in Python -------------------------------
# PHP's (?<!\\|&|&amp;) has alternatives of different widths, which Python's re does not
# take; three negative lookbehinds in a row say the same.
FRACTION = r"=|%(-?[0-9]+(?:[.,][0-9]*)?)%"
ANSWER = r".+?(?<!\\)(?<!&)(?<!&amp;)(?=[~#}]|$)"
FEEDBACK = r".*?(?<!\\)(?=[~}]|$)"
ALTERNATIVE = "(" + FRACTION + ")?(" + ANSWER + ")(#(" + FEEDBACK + "))?"
NUMBER = r"-?(([0-9]+[.,]?[0-9]*|[.,][0-9]+)([eE][-+]?[0-9]+)?)"
NUMERICAL_ALTERNATIVE = "^(" + NUMBER + ")(:" + NUMBER + ")?$"
TYPES = (
    "(NUMERICAL|NM)|(MULTICHOICE|MC)|(MULTICHOICE_V|MCV)|(MULTICHOICE_H|MCH)|"
    "(SHORTANSWER|SA|MW)|(SHORTANSWER_C|SAC|MWC)|"
    "(MULTICHOICE_S|MCS)|(MULTICHOICE_VS|MCVS)|(MULTICHOICE_HS|MCHS)|"
    "(MULTIRESPONSE|MR)|(MULTIRESPONSE_H|MRH)|(MULTIRESPONSE_S|MRS)|(MULTIRESPONSE_HS|MRHS)"
)
START = r"\{([0-9]*):(" + TYPES + "):"
FIELD = re.compile(START + "(" + ALTERNATIVE + "(~" + ALTERNATIVE + ")*)\\}", re.S)
# Group numbers, as Moodle's constants name them.
NORM, TYPE_NUMERICAL, TYPE_SHORTANSWER, ALTERNATIVES = 1, 3, 7, 16
ALT_FRACTION, ALT_PERCENT, ALT_ANSWER, ALT_FEEDBACK = 1, 2, 3, 5
NUM_ANSWER, NUM_TOLERANCE = 1, 6


@dataclass
class Alternative:
    percent: float
    answer: str
    tolerance: str | None  # NUMERICAL only
    feedback: str  # as Moodle stores it (HTML)

    @property
    def feedback_text(self) -> str:
        return html.unescape(self.feedback)


@dataclass
class ReadField:
    weight: int
    kind: str
    alternatives: list[Alternative]


def _decode(text: str) -> str:
    return html.unescape(text).replace("\\}", "}").replace("\\#", "#")


def read_fields(text: str) -> list[ReadField]:
    """Every Cloze field of a question text, in order, as Moodle's importer reads them."""
    fields = []
    at = 0  # Moodle replaces each field read by {#n} and searches again: the same as going on
    while match := FIELD.search(text, at):
        at = match.end()
        numerical = bool(match.group(TYPE_NUMERICAL))
        assert numerical or match.group(TYPE_SHORTANSWER), match.group(0)[:80]
        alternatives = []
        remaining = match.group(ALTERNATIVES)
        while alt := re.search("~?" + ALTERNATIVE, remaining, re.S):
            if alt.group(ALT_FRACTION) == "=":
                percent = 100.0
            elif alt.group(ALT_PERCENT):
                percent = float(alt.group(ALT_PERCENT).replace(",", "."))
            else:
                percent = 0.0
            feedback = _decode(alt.group(ALT_FEEDBACK) or "")
            number = re.match(NUMERICAL_ALTERNATIVE, alt.group(ALT_ANSWER), re.S)
            if numerical:
                assert number, f"not a number Moodle reads: {alt.group(ALT_ANSWER)!r}"
                answer, tol = number.group(NUM_ANSWER), number.group(NUM_TOLERANCE) or "0"
            else:
                answer, tol = _decode(alt.group(ALT_ANSWER)), None
            alternatives.append(Alternative(percent, answer, tol, feedback))
            remaining = remaining.split(alt.group(0), 1)[1]
        assert remaining == "", remaining
        weight = int(match.group(NORM) or 1)
        fields.append(ReadField(weight, "NUMERICAL" if numerical else "SHORTANSWER", alternatives))
    return fields


def read_quiz(xml: str) -> list[tuple[str, str]]:
    """(name, question text) of every Cloze question; the category first if any."""
    root = ElementTree.fromstring(xml.encode("utf-8"))
    assert root.tag == "quiz"
    out = []
    for question in root.findall("question"):
        if question.get("type") == "category":
            continue
        assert question.get("type") == "cloze"
        assert question.find("questiontext").get("format") == "html"  # type: ignore[union-attr]
        name = question.findtext("name/text")
        text = question.findtext("questiontext/text")
        assert name is not None and text is not None
        out.append((name, text))
    return out


# -- Moodle's marking of one field (question/type/numerical/question.php, shortanswer) ------
#: PHP's ``precision`` (14): Moodle widens a nominal tolerance by 10^-14 · max(1, |answer|)
#: (qtype_numerical_answer::get_tolerance_interval, MDL-3225).
PHP_EPSILON = Decimal("1e-14")
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def moodle_match(field: ReadField, typed: str, epsilon: bool = False) -> Alternative | None:
    """The answer Moodle gives ``typed`` in ``field``: the first whose interval (NUMERICAL:
    |typed − answer| ≤ tolerance) or text (SHORTANSWER: equal, case and surrounding space
    ignored) holds it; None when none does or the number cannot be read."""
    text = typed.strip()
    if field.kind == "SHORTANSWER":
        for alt in field.alternatives:
            if alt.answer.strip().casefold() == text.casefold():
                return alt
        return None
    if not _PLAIN_NUMBER.fullmatch(text):
        return None  # Moodle: "not a valid number", marked wrong
    value = Decimal(text)
    for alt in field.alternatives:
        answer, tol = Decimal(alt.answer), Decimal(alt.tolerance or "0")
        if epsilon:
            tol += PHP_EPSILON * max(Decimal(1), abs(answer))
        if abs(value - answer) <= tol:
            return alt
    return None
