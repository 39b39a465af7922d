"""The Cloze fields of a Moodle quiz: one per matrix entry, marked as ``check`` marks it.

A numerical field's right answer is the exact value (to ``places`` + 6 decimals, or exactly
when its decimal ends sooner) with a tolerance of one unit of the ``places``-th place: the
values ``check`` accepts from a decimal written with ``places`` or more places.  Its 0 %
answers are :mod:`.cloze_regions`: each mistake model's value ± one unit, cut where the
intervals meet, each piece naming every mistake whose interval holds it.  A masked score
(−∞) is a SHORTANSWER field of words without a backslash (``-inf``, ``-∞``, …).

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
from decimal import Decimal
from fractions import Fraction

from ..check.naming import Naming
from ..check.pair_tables import PairTable
from ..check.tables import MistakeTable, rounded
from ..derivation import Derivation
from ..errors import SymattnError
from ..messages import say
from ..numbers import NegInf, rational_value, round_half_away
from ..record import Record
from ..render import text_voice
from ..words import Words
from .cloze_regions import plain, regions

__all__ = [
    "EXTRA_PLACES",
    "NEG_INF_ANSWERS",
    "Answer",
    "Field",
    "entry_fields",
    "field_text",
    "key_value",
    "tolerance",
]

#: How a student may type −∞ (a SHORTANSWER field, not case-sensitive): signs and letters
#: that Moodle's Cloze reader passes untouched.  No backslash (``-\infty``): the reader
#: unescapes only ``\}`` and ``\#``, so what it makes of any other depends on it.
NEG_INF_ANSWERS = ("-inf", "−inf", "-∞", "−∞", "-infinity", "−infinity", "-oo", "−oo")
#: Decimals of a right answer beyond the places asked for: the field is centred on the
#: exact value, not on the key rounded to ``places`` (Moodle compares numbers in floating
#: point, good to about 15 digits, so the value is not written to more).
EXTRA_PLACES = 6

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


_TABLE = str.maketrans(_ESCAPES)


def field_text(text: str) -> str:
    """``text`` written inside a Cloze field so that Moodle reads back exactly ``text``."""
    return text.translate(_TABLE)


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
    """The right answer of one entry as a decimal (None for −∞): the exact value, written
    exactly when its decimal ends within ``places`` + :data:`EXTRA_PLACES` decimals
    (5/2 → 2.5), else rounded half away from zero to that many (√2 → 1.4142135624 at 4
    places) — the centre of the values ``check`` accepts."""
    step = key.step(step_id)
    entry = step.exact[i][j]
    if isinstance(entry, NegInf):
        return None
    digits = places + EXTRA_PLACES
    exact = rational_value(entry)
    if exact is not None:
        ends = _terminating_places(exact)
        return round_half_away(exact, digits if ends is None else min(ends, digits))
    text = step.decimal_str(i, j, digits)
    if text is None:
        raise SymattnError(
            f"{step_id} ({i + 1}, {j + 1}) has no numeric value: a quiz needs a numeric problem"
        )
    return text


class Answer(Record):
    """One alternative of a field: what is typed (a number, or words), its grade, its
    feedback (plain text) and, in a numerical field, its tolerance."""

    text: str
    percent: int
    feedback: str
    tol: str | None = None


class Field(Record):
    """One Cloze field: its answers in the order Moodle tries them."""

    weight: int
    kind: str  # NUMERICAL, or SHORTANSWER for −∞
    answers: tuple[Answer, ...]

    def cloze(self) -> str:
        parts = []
        for a in self.answers:
            mark = "=" if a.percent == 100 else f"%{a.percent}%"
            value = f"{a.text}:{a.tol}" if self.kind == "NUMERICAL" else field_text(a.text)
            # Moodle stores feedback as HTML: escape it as HTML, then for the field.
            parts.append(f"{mark}{value}#{field_text(html.escape(a.feedback))}")
        return "{" + f"{self.weight}:{self.kind}:" + "~".join(parts) + "}"


class _Entry:
    """The mistake models' values of one entry, and their sentences about it."""

    def __init__(
        self, tables: list[MistakeTable], key: Derivation, step_id: str, i: int, j: int, w: Words
    ) -> None:
        self.values: list[Decimal] = []  # each mistake's value here (finite ones)
        self.tables: list[MistakeTable] = []
        for table in tables:
            matrix = table.values.get(step_id)
            if matrix is None or not matrix[i][j].is_finite():
                continue  # a numerical field cannot hold ±∞
            self.values.append(matrix[i][j])
            self.tables.append(table)
        self.step_id, self.i, self.j, self.w = step_id, i, j, w
        self.said: dict[int, str] = {}
        self.name = Naming(key.problem.layout).entry(step_id, i, j)  # as the feedback says it

    def _sentence(self, k: int) -> str:
        """The ``k``-th table's sentence about this entry; two mistakes at once in one."""
        if k not in self.said:
            self.said[k] = self._say(self.tables[k])
        return self.said[k]

    def _say(self, table: MistakeTable) -> str:
        if isinstance(table, PairTable):  # named short: "two mistakes at once: A and B."
            first, second = (self.w(f"mistake.{mistake_id}") for mistake_id in table.ids)
            colon = self.w("moodle.colon")
            return self.name + colon + self.w("moodle.pair", first=first, second=second)
        message = table.message(self.step_id, [(self.i, self.j)])
        return say(message, text_voice(self.w))

    def feedback(self, names: tuple[int, ...], centre: Decimal | None = None) -> str:
        """Every named mistake's sentence about this entry, each mistake (or pair) once, in
        the way of making it nearest ``centre`` (the scores rounded to 1 place rather than
        to 0), the entry named once: "a₁,₃: one mistake. another." """
        chosen: dict[tuple[str, ...], int] = {}
        for k in names:
            ids = _ids(self.tables[k])
            if ids not in chosen or (
                centre is not None
                and abs(self.values[k] - centre) < abs(self.values[chosen[ids]] - centre)
            ):
                chosen[ids] = k
        sentences: list[str] = []
        for k in chosen.values():
            sentence = self._sentence(k)
            if sentence not in sentences:
                sentences.append(sentence)
        rest = [_without_name(self.name, s)[1] for s in sentences[1:]]
        return self.w("moodle.join").join(sentences[:1] + rest)

    def numerical(self, right: str, places: int) -> list[Answer]:
        unit = Decimal(tolerance(places))
        digits = Decimal(1).scaleb(-(places + EXTRA_PLACES))
        at = [Decimal(round_half_away(v, places + EXTRA_PLACES)) for v in self.values]
        out = []
        for region in regions(Decimal(right), unit, at):
            radius = region.radius.quantize(digits / 10)
            feedback = self.feedback(region.names, region.centre)
            out.append(Answer(plain(region.centre), 0, feedback, plain(radius)))
        return out

    def texts(self, places: int) -> list[Answer]:
        """A masked score's 0 % answers, matched as text: each mistake's number written with
        ``places`` decimals (and with fewer when that is the number exactly: 0, 0.5),
        naming every mistake ``check`` names for that text (within one unit of its last
        written place; an integer is exact)."""
        typed: list[str] = []
        for value in self.values:
            for text in _forms(value, places):
                if text not in typed:
                    typed.append(text)
        out = []
        for text in typed:
            radius = Decimal(1).scaleb(-len(text.split(".")[1])) if "." in text else 0
            names = tuple(k for k, v in enumerate(self.values) if abs(Decimal(text) - v) <= radius)
            out.append(Answer(text, 0, self.feedback(names, Decimal(text))))
        return out


def _forms(value: Decimal, places: int) -> list[str]:
    """``value`` written with ``places`` decimals, then with fewer while that is exact."""
    out = [rounded(value, places)]
    for fewer in range(places - 1, -1, -1):
        text = rounded(value, fewer)
        if Decimal(text) != value:
            break
        out.append(text)
    return out


def _ids(table: MistakeTable) -> tuple[str, ...]:
    return table.ids if isinstance(table, PairTable) else (table.id,)


def _without_name(name: str, sentence: str) -> tuple[str, str]:
    """("a₁,₃: ", "one mistake.") from "a₁,₃: one mistake." (the colon as the language
    writes it; ("", sentence) when it does not start with the entry's name)."""
    for colon in (": ", "："):
        if sentence.startswith(name + colon):
            return colon, sentence[len(name) + len(colon) :]
    return "", sentence


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
    tol = tolerance(places)
    out = []
    for i in range(rows):
        row = []
        for j in range(cols):
            right = key_value(key, step_id, i, j, places)
            entry = _Entry(tables, key, step_id, i, j, w)
            if right is None:
                answers = [Answer(text, 100, w("moodle.right")) for text in NEG_INF_ANSWERS]
                row.append(Field(weight, "SHORTANSWER", (*answers, *entry.texts(places))))
            else:
                answers = [Answer(right, 100, w("moodle.right"), tol)]
                row.append(Field(weight, "NUMERICAL", (*answers, *entry.numerical(right, places))))
        out.append(row)
    return out
