r"""What grading a class writes: ``grades.csv``, the Moodle gradebook import, a summary
on the terminal and JSON.

Every CSV cell goes through :func:`symattn.output.csv_cell`: a cell a spreadsheet
would run as a formula (starting with ``=``, ``+``, ``-`` or ``@``) gets a leading
apostrophe, and control characters are written as ``\uXXXX``, so a student named
``=HYPERLINK(…)`` stays a name and a line break cannot split a row.
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import Any

from ..numbers import round_half_away
from ..output import csv_cell
from ..render import Block, Columns, Document, Notice, render, title_of
from ..words import Words, words
from .grading import ClassGrades, Graded

__all__ = [
    "csv_cell",
    "grades_csv",
    "grades_document",
    "grades_json",
    "grades_text",
    "moodle_grades_csv",
    "moodle_grades_notes",
    "points",
    "row_notes",
]

COLUMNS = (
    "id",
    "email",
    "name",
    "file",
    "score",
    "max_score",
    "percent",
    "verdict",
    "first_error",
    "diagnoses",
)


def points(value: Fraction) -> str:
    """Points with at most two decimals and no trailing zeros: 7, 5.5, 2.67."""
    text = round_half_away(value, 2)
    return text.rstrip("0").rstrip(".") if "." in text else text


def _rows(grades: ClassGrades) -> list[list[str]]:
    steps = list(dict.fromkeys(s for r in grades.rows for s in r.entry.points))
    out = [[*COLUMNS, *steps]]
    for row in grades.rows:
        marks = {m.id: points(m.earned) for m in row.marks}
        first = row.result.first_error if row.result is not None else None
        cells = [
            row.entry.id,
            row.entry.email,
            row.entry.name or row.entry.folder,
            str(row.file) if row.file is not None else "",
            points(row.score),
            points(row.max_score),
            round_half_away(row.percent, 1),
            row.verdict,
            first or "",
            row.error or "; ".join(_unmarked_notes(row, words("en"))) or ";".join(row.diagnoses),
            *(marks.get(s, "") for s in steps),
        ]
        out.append(cells)
    return out


def _csv(rows: list[list[str]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for row in rows:
        writer.writerow([csv_cell(c) for c in row])
    return buffer.getvalue()


def grades_csv(grades: ClassGrades) -> str:
    """One row per student: the columns of :data:`COLUMNS`, then the points per step."""
    return _csv(_rows(grades))


def _moodle_column(grades: ClassGrades) -> str:
    """``Email address`` when every student of the roster has one, else ``ID number``
    for all: Moodle's import matches users by one column."""
    return "email" if all(r.entry.email for r in grades.rows) else "id"


def moodle_grades_csv(grades: ClassGrades, lang: str = "en") -> str:
    """The gradebook import: ``Email address`` (or ``ID number`` when some student of
    the roster has no email), the grade in points and a line of feedback; students who
    handed nothing in are left out, so their grade in Moodle is not touched."""
    w = words(lang)
    column = _moodle_column(grades)
    rows = [["Email address" if column == "email" else "ID number", "Grade", "Feedback"]]
    for row in grades.rows:
        ident = _ident(row, column)
        if row.result is None or not ident:
            continue
        rows.append([ident, points(row.score), _feedback_line(row, w)])
    return _csv(rows)


def moodle_grades_notes(grades: ClassGrades, path: str, lang: str = "en") -> list[tuple[str, str]]:
    """What a teacher must know before importing :func:`moodle_grades_csv`: the grades
    are points, out of the exercises' maximum (not percent), which column matches the
    users when only some students have an email, and who is left out for having
    neither an email nor an id. Each note is ``(level, sentence)``, level ``note`` or
    ``warning``."""
    w = words(lang)
    marked = [r for r in grades.rows if r.result is not None]
    maxima = sorted({r.max_score for r in marked})
    notes: list[tuple[str, str]] = []
    if maxima:
        most = points(maxima[-1])
        spread = most if len(maxima) == 1 else f"{points(maxima[0])}–{most}"
        notes.append(("note", w("grade.moodle.points", file=path, max=spread, most=most)))
    column = _moodle_column(grades)
    without = [_who(r) for r in grades.rows if not r.entry.email]
    if column == "id" and len(without) < len(grades.rows):
        names = ", ".join(without)
        notes.append(("warning", w("grade.moodle.some_emails", file=path, names=names)))
    lost = [_who(r) for r in marked if not _ident(r, column)]
    if lost:
        notes.append(("warning", w("grade.moodle.left_out", file=path, names=", ".join(lost))))
    return notes


def _ident(row: Graded, column: str) -> str:
    return row.entry.email if column == "email" else row.entry.id


def _who(row: Graded) -> str:
    return row.entry.name or row.entry.folder


def _feedback_line(row: Graded, w: Words) -> str:
    score = w("grade.points", score=points(row.score), max=points(row.max_score))
    if row.result is None or row.result.first_error is None:
        return score
    title = title_of(row.result.derivation.step(row.result.first_error), w)
    return score + " " + w("grade.first_error", step=title)


def _unmarked_notes(row: Graded, w: Words) -> list[str]:
    """The files named for this student that were not marked, each with why."""
    return [
        w("grade.note.unmarked", file=str(s.path), why=w(f"grade.why.{s.why}", detail=s.detail))
        for s in row.unmarked_files
    ]


def row_notes(row: Graded, w: Words, diagnoses: bool = True) -> list[str]:
    """What a teacher reads in the student's row: why nothing was marked, the files named
    for the student that were not marked, the mistakes (unless ``diagnoses`` is false),
    too few places, a sheet that could not be made."""
    notes = [row.error] if row.error else []
    notes += _unmarked_notes(row, w)
    if diagnoses and row.diagnoses and not row.error:
        notes.append(", ".join(row.diagnoses))
    if row.too_coarse:
        places = row.entry.places if row.result is None else row.result.places
        notes.append(w("grade.note.too_coarse", count=row.too_coarse, places=places))
    if row.feedback_problem is not None:
        notes.append(w("grade.feedback_failed", why=row.feedback_problem))
    return notes


def grades_document(grades: ClassGrades, lang: str = "en") -> Document:
    """The class's grades as a report: one row per student (name, points, verdict,
    notes), then each file that was not matched to a student, with why."""
    w = words(lang)
    head = (w("grade.student"), w("grade.score"), w("grade.verdict"), w("grade.notes"))
    rows = [head]
    for row in grades.rows:
        score = f"{points(row.score)}/{points(row.max_score)}"
        notes = "; ".join(row_notes(row, w))
        rows.append((_who(row), score, w(f"grade.verdict.{row.verdict}"), notes))
    blocks: list[Block] = [Columns(tuple(rows), 3)]
    for skipped in grades.unmatched:
        why = w(f"grade.why.{skipped.why}", detail=skipped.detail)
        blocks.append(Notice(w("grade.unmatched", file=str(skipped.path), why=why)))
    return Document(w("grade.title"), tuple(blocks), lang=lang, kind="report")


def grades_text(grades: ClassGrades, lang: str = "en") -> str:
    """A summary to read on the terminal: one line per student, then what was not marked."""
    return render(grades_document(grades, lang), "text", lang=lang)


def grades_json(grades: ClassGrades, lang: str = "en", show_key: bool = True) -> dict[str, Any]:
    students = []
    for row in grades.rows:
        item: dict[str, Any] = {
            "id": row.entry.id,
            "email": row.entry.email,
            "name": row.entry.name,
            "folder": row.entry.folder,
            "file": str(row.file) if row.file is not None else None,
            "score": points(row.score),
            "max_score": points(row.max_score),
            "percent": round_half_away(row.percent, 1),
            "verdict": row.verdict,
            "first_error": row.result.first_error if row.result is not None else None,
            "diagnoses": row.diagnoses,
            "steps": {
                m.id: {"points": points(m.points), "earned": points(m.earned)} for m in row.marks
            },
        }
        if row.error is not None:
            item["error"] = row.error
        if row.feedback_problem is not None:
            item["feedback_error"] = row.feedback_problem
        item["notes"] = row_notes(row, words(lang), diagnoses=False)
        if row.result is not None:
            item["check"] = row.result.to_json(lang, show_key=show_key)
        students.append(item)
    return {
        "class": str(grades.directory),
        "students": students,
        "unmatched": [
            {
                "file": str(s.path),
                "reason": s.why,
                "message": words(lang)(f"grade.why.{s.why}", detail=s.detail),
            }
            for s in grades.unmatched
        ],
    }
