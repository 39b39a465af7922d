"""The Cloze fields of a Moodle quiz: one per matrix entry, with the right answer first and
each mistake model's value as a 0 % answer whose feedback is that mistake's sentence.

Moodle reads a field with the regular expressions of ``question/type/multianswer/
questiontype.php`` (``ANSWER_REGEX``): ``{weight:TYPE:alternative~alternative…}``, where an
alternative is ``=answer`` or ``%n%answer``, then ``#feedback``.  An answer ends at the
first ``~``, ``#`` or ``}`` not preceded by ``\\``, ``&`` or ``&amp;``; a feedback ends at the
first ``~`` or ``}`` not preceded by ``\\``.  Moodle then decodes HTML entities in answers
and feedback (``html_entity_decode``) and replaces ``\\}`` by ``}`` and ``\\#`` by ``#`` —
nothing else is unescaped (``\\~`` would keep its backslash).  So :func:`field_text` writes
``}`` and ``#`` as ``\\}`` and ``\\#``, and ``~``, ``{``, ``\\``, ``&``, ``<``, ``>``, ``"`` as
character references, which pass the regular expressions untouched and become the
characters themselves.

>>> field_text('a~b}c#d\\\\e "f"')
'a&#126;b\\\\}c\\\\#d&#92;e &quot;f&quot;'
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from ..check.naming import entry_name
from ..check.tables import MistakeTable, rounded
from ..derivation import Derivation
from ..errors import SymattnError
from ..messages import say
from ..numbers import NegInf, rational_value, round_half_away
from ..render import text_voice
from ..words import Words, words

__all__ = ["NEG_INF_ANSWERS", "Field", "entry_fields", "field_text", "key_value", "tolerance"]

#: How a student may type −∞ (a SHORTANSWER field, not case-sensitive).
NEG_INF_ANSWERS = ("-inf", "−inf", "-∞", "−∞", "-infinity", "−infinity", "-oo", "-\\infty")

_ESCAPES = {
    "}": "\\}",
    "#": "\\#",
    "~": "&#126;",
    "{": "&#123;",
    "\\": "&#92;",
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;",
}


def field_text(text: str) -> str:
    """``text`` written inside a Cloze field so that Moodle reads back exactly ``text``."""
    return "".join(_ESCAPES.get(c, c) for c in text)


def tolerance(places: int) -> str:
    """One unit of the last place: ``0.0001`` for 4 places (``1`` for 0)."""
    return "1" if places == 0 else "0." + "0" * (places - 1) + "1"


def _terminating_places(q: Fraction) -> int | None:
    """How many decimals write ``q`` exactly, or None when its decimal never ends."""
    d, twos, fives = q.denominator, 0, 0
    while d % 2 == 0:
        d, twos = d // 2, twos + 1
    while d % 5 == 0:
        d, fives = d // 5, fives + 1
    return max(twos, fives) if d == 1 else None


def key_value(key: Derivation, step_id: str, i: int, j: int, places: int) -> str | None:
    """The right answer of one entry as a decimal (None for −∞): an exact rational with
    a terminating decimal exactly (5/2 → 2.5), any other value rounded to ``places`` —
    the value ``answers.json`` writes, in a form Moodle's NUMERICAL field reads."""
    step = key.step(step_id)
    entry = step.exact[i][j]
    if isinstance(entry, NegInf):
        return None
    exact = rational_value(entry)
    if exact is not None:
        digits = _terminating_places(exact)
        return round_half_away(exact, places if digits is None else digits)
    text = step.decimal_str(i, j, places)
    if text is None:
        raise SymattnError(
            f"{step_id} ({i + 1}, {j + 1}) has no numeric value: a quiz needs a numeric problem"
        )
    return text


@dataclass(frozen=True)
class Field:
    """One Cloze field: its answers in order, (answer, percent, feedback), plain text."""

    weight: int
    kind: str  # NUMERICAL, or SHORTANSWER for −∞
    answers: tuple[tuple[str, int, str], ...]
    tol: str

    def cloze(self) -> str:
        parts = []
        for answer, percent, feedback in self.answers:
            mark = "=" if percent == 100 else f"%{percent}%"
            value = f"{answer}:{self.tol}" if self.kind == "NUMERICAL" else field_text(answer)
            # Moodle stores feedback as HTML: escape it as HTML, then for the field.
            parts.append(f"{mark}{value}#{field_text(html.escape(feedback))}")
        return "{" + f"{self.weight}:{self.kind}:" + "~".join(parts) + "}"


def _mistake_answers(
    tables: list[MistakeTable],
    step_id: str,
    i: int,
    j: int,
    places: int,
    right: str | None,
    lang: str,
    join: str,
) -> list[tuple[str, int, str]]:
    """The 0 % answers of one entry: one per rounded value, its mistakes' sentences joined
    (Moodle takes the first answer that matches); none within tolerance of the right one."""
    unit = Decimal(tolerance(places))
    found: dict[str, list[str]] = {}
    for table in tables:
        if (i, j) not in table.differs.get(step_id, ()):
            continue
        value = rounded(table.values[step_id][i][j], places)
        if right is None:  # a SHORTANSWER field (−∞): a finite value, typed as written
            if value in ("-inf", "inf"):
                continue
        elif value in ("-inf", "inf") or abs(Decimal(value) - Decimal(right)) <= unit:
            continue  # NUMERICAL cannot hold −∞; a value within tolerance would never show
        message = say(table.message(step_id, [(i, j)]), text_voice(words(lang)))
        sentences = found.setdefault(value, [])
        if message not in sentences:
            sentences.append(message)
    name = entry_name(step_id, i, j)
    return [(value, 0, join.join(_once(name, sentences))) for value, sentences in found.items()]


def _once(name: str, sentences: list[str]) -> list[str]:
    """The entry named once: "a₁,₃: one mistake. another." rather than twice."""
    out = sentences[:1]
    for sentence in sentences[1:]:
        for colon in (": ", "："):
            if sentence.startswith(name + colon):
                sentence = sentence[len(name) + len(colon) :]
                break
        out.append(sentence)
    return out


def entry_fields(
    key: Derivation,
    step_id: str,
    places: int,
    weight: int,
    tables: list[MistakeTable],
    w: Words,
) -> list[list[Field]]:
    """The fields of one step, row by row."""
    rows, cols = key.step(step_id).shape
    tol, join = tolerance(places), w("moodle.join")
    out = []
    for i in range(rows):
        row = []
        for j in range(cols):
            right = key_value(key, step_id, i, j, places)
            mistakes = _mistake_answers(tables, step_id, i, j, places, right, w.lang, join)
            if right is None:
                answers = [(text, 100, w("moodle.right")) for text in NEG_INF_ANSWERS]
                row.append(Field(weight, "SHORTANSWER", (*answers, *mistakes), tol))
            else:
                answers = [(right, 100, w("moodle.right"))]
                row.append(Field(weight, "NUMERICAL", (*answers, *mistakes), tol))
        out.append(row)
    return out
