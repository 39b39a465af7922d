"""The class at a glance: what ``grade --summary`` counts, from the same graded rows as
``grades.csv``, and its CSV.

For each step the sheet asks for, every student of the class is in one of four groups:

- ``right``: every entry of the step answered and right;
- ``carried``: wrong against the key, but right from the student's own earlier answers
  (the ``<step>:carried_forward`` of grades.csv's diagnoses);
- ``missing``: nothing marked for the step (no file, a file that could not be marked,
  or the step left out);
- ``wrong``: the rest (a wrong entry, too few places, a step half answered).

Each mistake id (the ``<step>:<id>`` of the diagnoses) is counted once per student,
with the steps it showed in; the first errors are grades.csv's ``first_error``; the
scores are the marked students' percentages in ten bins (0–10, …, 90–100).
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction

from ..output import csv_cell
from ..record import Record
from ..render import title_of
from ..words import words
from .grading import ClassGrades, Graded

__all__ = [
    "BINS",
    "CATEGORIES",
    "ClassSummary",
    "Counted",
    "step_group",
    "summarize",
    "summary_csv",
]

#: The groups of students per step, in the order they are shown.
CATEGORIES = ("right", "carried", "wrong", "missing")
#: The score bins, in percent: [0, 10), [10, 20), …, [90, 100].
BINS = tuple((10 * k, 10 * (k + 1)) for k in range(10))


class Counted(Record):
    """A line of the summary: what (a step, a mistake, a bin), its title, and who."""

    id: str
    title: str
    students: tuple[str, ...]
    detail: tuple[str, ...] = ()  # a mistake's steps

    @property
    def count(self) -> int:
        return len(self.students)


class ClassSummary(Record):
    name: str  # the class set's folder
    students: int
    marked: int
    unmarked: int  # a file that could not be marked
    steps: tuple[tuple[str, str, dict[str, tuple[str, ...]]], ...]  # id, title, who per group
    mistakes: tuple[Counted, ...]  # most students first
    first_errors: tuple[Counted, ...]  # most students first
    histogram: tuple[Counted, ...]  # one per bin of BINS

    def share(self, count: int, of: int | None = None) -> Fraction:
        """``count`` as a percentage of the class (or of ``of``)."""
        whole = self.students if of is None else of
        return Fraction(100 * count, whole) if whole else Fraction(0)

    @property
    def most_common_first_error(self) -> tuple[Counted, ...]:
        """The first errors most students share (several when tied)."""
        top = self.first_errors[0].count if self.first_errors else 0
        return tuple(c for c in self.first_errors if c.count == top)


def _name(row: Graded) -> str:
    return row.entry.name or row.entry.folder


def step_group(row: Graded, step_id: str) -> str:
    """Which of :data:`CATEGORIES` the student of ``row`` is in for ``step_id``."""
    if row.result is None:
        return "missing"
    step = next((s for s in row.result.steps if s.id == step_id), None)
    if step is None or step.status == "missing":
        return "missing"
    if step.carried_forward:
        return "carried"
    return "right" if step.status == "correct" else "wrong"


def _ranked(found: dict[str, list[str]], order: list[str]) -> list[str]:
    return sorted(found, key=lambda k: (-len(found[k]), order.index(k) if k in order else 0, k))


def summarize(grades: ClassGrades, lang: str = "en") -> ClassSummary:
    """The counts of the class at a glance, titles in ``lang``."""
    w = words(lang)
    rows = grades.rows
    order = list(dict.fromkeys(s for r in rows for s in r.entry.points))
    marked = [r for r in rows if r.result is not None]

    def title(step_id: str) -> str:
        for row in marked:
            if row.result is not None and row.result.derivation.has(step_id):
                return title_of(row.result.derivation.step(step_id), w)
        return w.title(step_id)

    steps = []
    for step_id in order:
        groups: dict[str, list[str]] = {c: [] for c in CATEGORIES}
        for row in rows:
            if step_id in row.entry.points:
                groups[step_group(row, step_id)].append(_name(row))
        steps.append((step_id, title(step_id), {c: tuple(v) for c, v in groups.items()}))
    mistakes: dict[str, list[str]] = {}
    shown_in: dict[str, list[str]] = {}
    firsts: dict[str, list[str]] = {}
    for row in marked:
        for item in row.diagnoses:
            step_id, _, mistake = item.partition(":")
            if mistake == "carried_forward":
                continue
            if _name(row) not in mistakes.setdefault(mistake, []):
                mistakes[mistake].append(_name(row))
            if step_id not in shown_in.setdefault(mistake, []):
                shown_in[mistake].append(step_id)
        first = row.result.first_error if row.result is not None else None
        if first is not None:
            firsts.setdefault(first, []).append(_name(row))
    bins: list[list[str]] = [[] for _ in BINS]
    for row in marked:
        bins[min(int(row.percent // 10), len(BINS) - 1)].append(_name(row))
    return ClassSummary(
        name=grades.directory.resolve().name,
        students=len(rows),
        marked=len(marked),
        unmarked=sum(r.verdict == "error" for r in rows),
        steps=tuple(steps),
        mistakes=tuple(
            Counted(
                m,
                w(f"mistake.{m}") if w.has(f"mistake.{m}") else m,
                tuple(mistakes[m]),
                tuple(shown_in[m]),
            )
            for m in _ranked(mistakes, [])
        ),
        first_errors=tuple(Counted(s, title(s), tuple(firsts[s])) for s in _ranked(firsts, order)),
        histogram=tuple(
            Counted(f"{lo}-{hi}", w("summary.bin", lo=lo, hi=hi), tuple(b))
            for (lo, hi), b in zip(BINS, bins)
        ),
    )


def _percent(value: Fraction) -> str:
    return f"{float(value):.1f}"


def summary_csv(summary: ClassSummary) -> str:
    """One line per count: ``section,id,group,students,percent,names``.

    ``step`` lines give each step's four groups, ``mistake`` lines each mistake id (the
    group is the steps it showed in), ``first_error`` lines each step that was a first
    error, ``score`` lines each bin; percentages are of the class (a step's, of the
    students whose sheet asks for it; the bins', of the marked students); names are
    joined by ``;``."""
    out = [["section", "id", "group", "students", "percent", "names"]]
    for step_id, _, groups in summary.steps:
        asked = sum(len(who) for who in groups.values())
        for group in CATEGORIES:
            who = groups[group]
            share = _percent(summary.share(len(who), asked))
            out.append(["step", step_id, group, str(len(who)), share, ";".join(who)])
    for m in summary.mistakes:
        share = _percent(summary.share(m.count))
        out.append(["mistake", m.id, ";".join(m.detail), str(m.count), share, ";".join(m.students)])
    for f in summary.first_errors:
        share = _percent(summary.share(f.count))
        out.append(["first_error", f.id, "", str(f.count), share, ";".join(f.students)])
    for b in summary.histogram:
        share = _percent(summary.share(b.count, summary.marked))
        out.append(["score", b.id, "", str(b.count), share, ";".join(b.students)])
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for line in out:
        writer.writerow([csv_cell(c) for c in line])
    return buffer.getvalue()
