"""The Moodle quiz marks as ``check`` does: a simulation of Moodle's rule on generated quizzes.

Every Cloze field of a generated quiz is read back as Moodle reads it
(tests/moodle_reader.py), and typed values are marked twice: by Moodle's rule (the first
answer whose interval holds the typed number — |typed − answer| ≤ tolerance — gives the
grade and the feedback, the same with the tolerance PHP widens by 10^-14 · max(1, |answer|);
a masked score's words are compared as text) and by ``check`` at the quiz's places.  The
typed values of each field: the key rounded to the places asked for ± 0 … 3 units of the
last place; the key with two more places (± one unit of the places asked for) and with
trailing zeros; the key with one and two places fewer; and, for every mistake model, the
whole step as a student who made that mistake writes it, with the places asked for and
with two more.  They must get the same verdict (right or wrong) and, where ``check`` names
a mistake (not an arithmetic slip, which is about a whole step), Moodle's feedback must
name that mistake.

Three differences are Moodle's and are counted apart, as docs/moodle.md says: Moodle reads
numbers, not what was typed, so a value with fewer places than asked for that lies within
one unit of the exact value is right in Moodle and ``too_coarse`` in ``check``; a numerical
field cannot hold −∞, so a mistake that puts −∞ where the key is a number is named by
``check`` only; and a masked score's field matches words, so a mistake's number typed there
with more places than asked for is named by ``check`` only (both mark it wrong).

The default run marks one step of one quiz; ``-m slow`` marks every field of five quizzes
and prints the counts.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal

import pytest

from symattn.check import check
from symattn.check.naming import Naming
from symattn.check.pair_tables import PairTable, pair_tables
from symattn.check.tables import mistake_tables, rounded
from symattn.classroom import quiz_items
from symattn.compute import derivation
from symattn.exercises import ExerciseOptions, QuizItem, generate, moodle_quiz
from symattn.exercises.cloze_regions import regions
from symattn.exercises.sheet import render_sheet
from symattn.load import load
from symattn.words import words

from .helpers import said
from .moodle_reader import Alternative, ReadField, moodle_match, read_fields, read_quiz

#: Five quizzes: seeds, topics, masks, heads, layouts and places.
QUIZZES = {
    "plain_4": (3, ExerciseOptions(places=4)),
    "causal_3": (5, ExerciseOptions(mask="causal", places=3)),
    "temperature_2": (7, ExerciseOptions(topics=("temperature",), places=2)),
    "two_heads_5": (11, ExerciseOptions(heads=2, places=5)),
    "window_column_6": (13, ExerciseOptions(topics=("window",), layout="column", places=6)),
}


@dataclass
class Tally:
    """What the simulation found, by kind."""

    typed: int = 0
    disagreements: list[str] = field(default_factory=list)
    residual: Counter[str] = field(default_factory=Counter)
    named: int = 0  # wrong values where check named a mistake and Moodle named it too

    def add(self, other: Tally) -> None:
        self.typed += other.typed
        self.disagreements += other.disagreements
        self.residual.update(other.residual)
        self.named += other.named


def _places_of(text: str) -> int:
    return len(text.split(".", 1)[1]) if "." in text else 0


def _shift(base: str, units: int, places: int) -> str:
    """``base`` (written with ``places`` decimals) moved by ``units`` of its last place."""
    value = Decimal(base) + units * Decimal(1).scaleb(-places)
    return rounded(value, places)


class Simulation:
    """One question: its fields by entry, and the marking of typed values both ways."""

    def __init__(self, item: QuizItem, text: str, label: str = "") -> None:
        self.item, self.key, self.places = item, item.key, item.places
        self.label = label or item.name
        self.naming = Naming(self.key.problem.layout)
        self.tables = [*mistake_tables(self.key), *pair_tables(self.key)]
        fields = iter(read_fields(text))
        self.fields: dict[tuple[str, int, int], ReadField] = {}
        columns = self.key.problem.layout == "column"  # the quiz writes a step transposed
        for step_id in item.steps:
            rows, cols = self.key.step(step_id).shape
            order = (
                [(i, j) for j in range(cols) for i in range(rows)]
                if columns
                else [(i, j) for i in range(rows) for j in range(cols)]
            )
            for i, j in order:
                self.fields[step_id, i, j] = next(fields)
        assert next(fields, None) is None

    # -- the two markings ---------------------------------------------------------------
    def _written(self, step_id: str, i: int, j: int) -> str:
        a, b = self.naming.index(i, j)
        return f"{step_id}[{a + 1},{b + 1}]"

    def check(self, step_id: str, typed: dict[tuple[int, int], str]) -> tuple[dict, set[str]]:
        """``check``'s status of each typed entry and the mistakes it names for the step."""
        answers = {self._written(step_id, i, j): t for (i, j), t in typed.items()}
        (step,) = [s for s in check(self.key, answers, places=self.places).steps]
        assert step.id == step_id
        statuses = {}
        for entry in step.entries:
            a, b = entry.index[0] - 1, entry.index[1] - 1
            statuses[self.naming.index(a, b)] = entry.status  # (its own inverse)
        return statuses, {d.id for d in step.diagnosis} - {"arithmetic_slip"}

    def named(self, step_id: str, i: int, j: int, answer: Alternative) -> set[str]:
        """The mistakes a 0 % answer's feedback names: those whose sentence about this entry
        it holds (after the entry's name, which the feedback says once); a pair, by the
        short names of its two mistakes."""
        name = self.naming.entry(step_id, i, j)
        w = words("en")
        out: set[str] = set()
        for table in self.tables:
            if step_id not in table.values:
                continue
            if isinstance(table, PairTable):
                titles = [w(f"mistake.{m}") for m in table.ids]
                if w("moodle.pair", first=titles[0], second=titles[1]) in answer.feedback_text:
                    out.update(table.ids)
                continue
            sentence = said(table.message(step_id, [(i, j)])).removeprefix(name + ": ")
            if sentence in answer.feedback_text:
                out.add(table.id)
        return out

    # -- one comparison -------------------------------------------------------------------
    def compare(
        self, tally: Tally, where: tuple[str, int, int], typed: str, status: str, ids: set[str]
    ) -> None:
        step_id, i, j = where
        tally.typed += 1
        answer = moodle_match(self.fields[where], typed)
        moodle_right = answer is not None and answer.percent == 100
        label = f"{self.label} {self._written(step_id, i, j)} typed {typed!r}"
        if moodle_match(self.fields[where], typed, epsilon=True) is not answer:
            tally.disagreements.append(f"{label}: PHP's widened tolerance meets another answer")
            return
        if moodle_right != (status == "ok"):
            coarse = status == "too_coarse" or (status == "wrong" and "." not in typed)
            if coarse and moodle_right and _places_of(typed) < self.places:
                # check: too few places, or an integer, which it reads as an exact value
                tally.residual["fewer places within one unit: right in Moodle"] += 1
                return
            tally.disagreements.append(f"{label}: Moodle right={moodle_right}, check {status}")
            return
        if status != "wrong" or not ids:
            return
        if typed in ("-inf", "inf") and self.fields[where].kind == "NUMERICAL":
            tally.residual["−∞ typed in a numerical field: named by check only"] += 1
            return
        named = self.named(step_id, i, j, answer) if answer is not None else set()
        if named & ids:
            tally.named += 1
        elif self.fields[where].kind == "SHORTANSWER" and _places_of(typed) > self.places:
            tally.residual["more places in a masked score's field: named by check only"] += 1
        else:
            why = f"check names {sorted(ids)}, Moodle {sorted(named)}"
            tally.disagreements.append(f"{label}: {why}")

    # -- the typed values -----------------------------------------------------------------
    def around_the_key(self, step_id: str, i: int, j: int) -> Iterator[str]:
        """The key ± 0 … 3 units, with more places, with trailing zeros, with fewer places."""
        value = self.key.step(step_id).values[i][j]
        n = self.places
        if value is None or not value.is_finite():
            yield from ("-inf", "−∞", "-infinity", "0")
            return
        base = rounded(value, n)
        for units in range(-3, 4):
            yield _shift(base, units, n)
        finer = rounded(value, n + 2)
        for units in (-100, 0, 100):  # ± one unit of the n-th place, at n + 2 places
            yield _shift(finer, units, n + 2)
        yield base + "00" if "." in base else base + ".00"
        for fewer in (n - 1, n - 2):
            if fewer >= 0:
                yield rounded(value, fewer)

    def entry_by_entry(self, step_id: str, tally: Tally) -> None:
        rows, cols = self.key.step(step_id).shape
        for i in range(rows):
            for j in range(cols):
                for typed in dict.fromkeys(self.around_the_key(step_id, i, j)):
                    statuses, ids = self.check(step_id, {(i, j): typed})
                    self.compare(tally, (step_id, i, j), typed, statuses[i, j], ids)

    def mistakes(
        self, step_id: str, tally: Tally, rows: tuple[int, ...] | None = None, more: int = 0
    ) -> None:
        """Each mistake model's whole step (or ``rows`` of it), written with the places
        asked for (and ``more``)."""
        seen = set()
        for table in self.tables:
            values = table.values.get(step_id)
            if values is None:
                continue
            places = self.places + more
            typed = {(i, j): rounded(v, places) for i, row in enumerate(values)
                     for j, v in enumerate(row) if rows is None or i in rows}  # fmt: skip
            fingerprint = tuple(sorted(typed.items()))
            if fingerprint in seen:
                continue
            seen.add(fingerprint)
            statuses, ids = self.check(step_id, typed)
            for (i, j), text in typed.items():
                self.compare(tally, (step_id, i, j), text, statuses[i, j], ids)

    def run(self, steps: tuple[str, ...] | None = None) -> Tally:
        tally = Tally()
        for step_id in steps or self.item.steps:
            self.entry_by_entry(step_id, tally)
            self.mistakes(step_id, tally)
            self.mistakes(step_id, tally, more=2)
        return tally


def _no_answer_within_tolerance_of_another(sim: Simulation) -> int:
    checked = 0
    for where, read in sim.fields.items():
        if read.kind != "NUMERICAL":
            continue
        alts = read.alternatives
        for k, a in enumerate(alts):
            for b in alts[k + 1 :]:
                gap = abs(Decimal(a.answer) - Decimal(b.answer))
                assert gap > Decimal(a.tolerance or "0"), (where, a.answer, b.answer)
                assert gap > Decimal(b.tolerance or "0"), (where, a.answer, b.answer)
                checked += 1
    return checked


def _simulations(name: str) -> list[Simulation]:
    seed, options = QUIZZES[name]
    items = quiz_items(generate(seed, 1, options))
    questions = read_quiz(moodle_quiz(items))
    return [Simulation(item, text, name) for item, (_, text) in zip(items, questions)]


PROBLEM = {
    "X": [[1, 0, 2], [0, 1, 1], [2, 1, 0]],
    "W_Q": [[1, 0], [0, 2], [1, 1]],
    "W_K": [[0, 1], [1, 0], [2, 1]],
    "W_V": [[1, 2], [0, 1], [1, 0]],
    "mask": "causal",
}


def test_one_step_marks_as_check_does() -> None:
    """The default run: the masked scores of one small problem, every typed value, and the
    mistakes' weights typed into row 2 of the weights."""
    key = derivation(load(dict(PROBLEM)))
    item = QuizItem("docs", key, 4, ("masked_scores", "weights"))
    (_, text), *_ = read_quiz(moodle_quiz([item]))
    sim = Simulation(item, text)
    tally = Tally()
    sim.entry_by_entry("masked_scores", tally)
    sim.mistakes("masked_scores", tally)
    sim.mistakes("weights", tally, rows=(1,))
    assert _no_answer_within_tolerance_of_another(sim)
    assert tally.typed > 150 and tally.named > 20
    assert not tally.disagreements, "\n".join(tally.disagreements[:20])


@pytest.mark.slow
def test_five_quizzes_mark_as_check_does() -> None:
    total, pairs = Tally(), 0
    for name in QUIZZES:
        for sim in _simulations(name):
            pairs += _no_answer_within_tolerance_of_another(sim)
            total.add(sim.run())
    residual = ", ".join(f"{n} {why}" for why, n in sorted(total.residual.items()))
    print(
        f"\n{len(QUIZZES)} quizzes, {total.typed} typed values, "
        f"{len(total.disagreements)} disagreements ({total.named} mistakes named by both; "
        f"{pairs} answer pairs apart; Moodle's own: {residual or 'none'})"
    )
    assert not total.disagreements, "\n".join(total.disagreements[:30])


def test_the_pieces_name_what_holds_each_point() -> None:
    """cloze_regions on random mistakes: every point of a fine grid meets, first, the right
    answer when within one unit of the key, else the one piece naming exactly the mistakes
    within one unit of it (at a point where one mistake's interval ends and another's
    starts, a piece naming one of them), and nothing when no mistake is near."""
    rng = random.Random(5)
    unit = Decimal("0.01")
    for _ in range(120):
        key = Decimal(rng.randint(-50, 50)) / 100
        mistakes = [key + Decimal(rng.randint(-60, 60)) / 200 for _ in range(rng.randint(1, 6))]
        pieces = regions(key, unit, mistakes)
        for a, b in [(p, q) for k, p in enumerate(pieces) for q in pieces[k + 1 :]]:
            gap = abs(a.centre - b.centre)
            assert gap > a.radius and gap > b.radius and a.radius > 0
        for step in range(-200, 201):
            t = key + Decimal(step) / 400
            holding = {k for k, m in enumerate(mistakes) if abs(t - m) <= unit}
            if abs(t - key) <= unit:
                continue  # the right answer, tried first
            first = next((p for p in pieces if abs(t - p.centre) <= p.radius), None)
            if not holding:
                assert first is None, (key, mistakes, t)
                continue
            assert first is not None, (key, mistakes, t)
            ends_here = {k for k in holding if abs(t - mistakes[k]) == unit}
            if ends_here:
                assert set(first.names) <= holding and set(first.names) & holding
            else:
                assert set(first.names) == holding, (key, mistakes, t, first)


def test_sheet_check_and_quiz_say_the_same_about_decimals() -> None:
    """The sheet asks for decimals with a decimal point and says exact values are right
    except in a Moodle quiz; the quiz asks for decimals with a point; check takes both."""
    (exercise,) = generate(3, 1, ExerciseOptions(places=4))
    for lang, point, exact in (("en", "decimal point", "Moodle quiz"), ("zh", "小数点", "Moodle")):
        sheet = render_sheet(exercise, lang)
        assert point in sheet and exact in sheet and "5/2" in sheet
        quiz = moodle_quiz(quiz_items([exercise]), lang=lang)
        intro = quiz.split("<h3>", 1)[0]
        assert point in intro and "2,1213" in intro and "5/2" in intro
    key = derivation(load({"X": [["5/2", 0], [0, 1]], "W_Q": [[1, 0], [0, 1]],
                           "W_K": [[1, 0], [0, 1]], "W_V": [[1, 0], [0, 1]]}))  # fmt: skip
    for typed in ("5/2", "2.5", "2.5000", "2.50001"):
        result = check(key, {"Q[1,1]": typed}, places=4)
        assert [e.status for s in result.steps for e in s.entries] == ["ok"], typed
    item = QuizItem("a", key, 4, ("Q",))
    (field, *_) = read_fields(read_quiz(moodle_quiz([item]))[0][1])
    assert moodle_match(field, "5/2") is None  # Moodle reads no fractions: the quiz says so
    for typed in ("2.5", "2.5000", "2.50001"):
        answer = moodle_match(field, typed)
        assert answer is not None and answer.percent == 100, typed
