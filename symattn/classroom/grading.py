"""Grading a class: every submission against its own student's problem, and points.

Points come from the manifest (one per step the sheet asks for, unless the teacher set
others).  Within a step each entry earns an equal share of the step's points: a right
entry its whole share, an entry right from the student's own earlier numbers (error
carried forward) ``ecf_credit`` of it, an entry with the right value but too few places
``coarse_credit`` of it, anything else nothing.  So a step carried forward throughout
earns ``ecf_credit`` of its points, and a step half right half of them.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from ..budget import time_budget
from ..check import CheckResult
from ..check.grade import Graded as Marked
from ..check.grade import Policy, grade_pairs, mark
from ..compute import derivation
from ..derivation import Derivation
from ..errors import SymattnError
from ..load import load
from ..record import Record
from .archive import Unpacked, is_zip, unpacked
from .manifest import Entry, Manifest, read_manifest
from .page_ids import page_mismatch
from .submissions import Matched, Skipped, match_submissions

__all__ = ["ClassGrades", "Graded", "StepMark", "grade_class", "grade_submission", "step_marks"]


class StepMark(Record):
    id: str
    points: Fraction
    earned: Fraction


def step_marks(
    result: CheckResult, entry: Entry, ecf_credit: Fraction, coarse_credit: Fraction
) -> list[StepMark]:
    """The points each step of the sheet earned in ``result``."""
    by_id = {s.id: s for s in result.steps}
    credit = {"ok": Fraction(1), "carried": ecf_credit, "too_coarse": coarse_credit}
    marks = []
    for step_id, points in entry.points.items():
        step = by_id.get(step_id)
        earned = Fraction(0)
        if step is not None and step.error is None and step.total:
            share = sum((credit.get(e.status, Fraction(0)) for e in step.entries), Fraction(0))
            earned = points * share / step.total
        marks.append(StepMark(step_id, points, earned))
    return marks


@dataclass
class Graded:
    """One student's row: their submission (if any), marked as every batch is marked
    (:func:`symattn.check.grade.mark`), and their points."""

    entry: Entry
    file: Path | None = None
    marked: Marked | None = None
    error: str | None = None
    marks: list[StepMark] = field(default_factory=list)
    #: Why the student's feedback sheet could not be made (a PDF that did not compile).
    feedback_problem: str | None = None
    #: Files that name this student but were not marked (one that matches several
    #: students, ``Bob.pdf``, ``Bob.json.txt``), each with why: shown in the row.
    unmarked_files: list[Skipped] = field(default_factory=list)

    @property
    def result(self) -> CheckResult | None:
        return None if self.marked is None else self.marked.result

    @property
    def score(self) -> Fraction:
        return sum((m.earned for m in self.marks), Fraction(0))

    @property
    def max_score(self) -> Fraction:
        return self.entry.max_score

    @property
    def percent(self) -> Fraction:
        return 100 * self.score / self.max_score if self.max_score else Fraction(0)

    @property
    def verdict(self) -> str:
        """``correct``, ``incorrect``, ``missing`` (nothing handed in) or ``error``
        (a file was handed in but not marked: unreadable, or named for this student
        without being theirs alone or without being an answers file)."""
        if self.error is not None:
            return "error"
        if self.marked is None:
            return "error" if self.unmarked_files else "missing"
        return self.marked.verdict

    @property
    def too_coarse(self) -> int:
        """How many entries were right but written with fewer places than required."""
        if self.result is None:
            return 0
        return sum(e.status == "too_coarse" for s in self.result.steps for e in s.entries)

    @property
    def diagnoses(self) -> list[str]:
        return [] if self.marked is None else self.marked.diagnoses


@dataclass
class ClassGrades:
    directory: Path
    manifest: Manifest
    rows: list[Graded]
    matched: Matched

    @property
    def unmatched(self) -> list[Skipped]:
        return self.matched.unmatched

    @property
    def exit_status(self) -> int:
        """0 when every submission was matched and read (and its feedback sheet made); 1
        when something was not."""
        trouble = bool(self.unmatched or self.matched.conflicts)
        unmarked = any(r.error or r.feedback_problem for r in self.rows)
        return 1 if trouble or unmarked else 0


def _key_of(directory: Path, entry: Entry) -> Callable[[], Derivation]:
    """The student's key, made when their file is marked (a missing problem is their
    row's error)."""

    def key() -> Derivation:
        problem = directory / "teacher" / entry.folder / "problem.toml"
        if not problem.is_file():
            raise SymattnError(f"{problem}: missing (the class set is incomplete)")
        loaded = load(problem)  # a target (or dO) asks for the backward pass as well
        return derivation(loaded, backward=loaded.target is not None or loaded.dO is not None)

    return key


def grade_class(
    directory: str | Path,
    submissions: str | Path,
    *,
    tolerance: str | None = None,
    time_limit: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ClassGrades:
    """Mark every submission in ``submissions`` — a folder, or a zip of one such as
    Moodle's "Download all submissions" — against its own student's problem in the class
    set ``directory``; a bad file (or one that takes longer than ``time_limit`` seconds)
    is reported in its row and the rest are marked."""
    with time_budget(time_limit, "grading"):
        pass  # a bad limit is a usage error, before any file is read
    directory = Path(directory)
    manifest = read_manifest(directory)
    policy = Policy(tolerance, None, time_limit)
    if not is_zip(submissions):
        return _noted(_grade_folder(directory, manifest, Path(submissions), policy, progress))
    with unpacked(submissions) as archive:
        grades = _grade_folder(directory, manifest, archive.folder, policy, progress)
        return _noted(_named_as_in(archive, grades))


def _noted(grades: ClassGrades) -> ClassGrades:
    """Every file that was not marked, in the rows of the students it names."""
    rows = {row.entry.folder: row for row in grades.rows}
    for skipped in grades.unmatched:
        for owner in skipped.owners:
            if owner in rows:
                rows[owner].unmarked_files.append(skipped)
    return grades


def _named_as_in(archive: Unpacked, grades: ClassGrades) -> ClassGrades:
    """The grades of an unpacked zip with every path named as in the zip, and the
    members the zip refused among what was not marked."""
    matched = grades.matched
    matched.files = {k: archive.shown(v) for k, v in matched.files.items()}
    matched.conflicts = {k: [archive.shown(p) for p in v] for k, v in matched.conflicts.items()}
    matched.unmatched = archive.refused + [
        dataclasses.replace(s, path=archive.shown(s.path), detail=archive.shown_text(s.detail))
        for s in matched.unmatched
    ]
    for row in grades.rows:
        row.file = None if row.file is None else archive.shown(row.file)
        row.error = None if row.error is None else archive.shown_text(row.error)
        if row.marked is not None:
            one = row.marked
            error = None if one.error is None else archive.shown_text(one.error)
            result = one.result
            if result is not None:
                result = dataclasses.replace(result, source=archive.shown_text(result.source))
            row.marked = dataclasses.replace(
                one, file=os.fspath(archive.shown(one.file)), result=result, error=error
            )
    return grades


def _grade_folder(
    directory: Path,
    manifest: Manifest,
    submissions: Path,
    policy: Policy,
    progress: Callable[[int, int], None] | None,
) -> ClassGrades:
    matched = match_submissions(submissions, manifest.students)
    rows = [Graded(entry, matched.files.get(entry.folder)) for entry in manifest.students]
    for row in rows:
        if row.entry.folder in matched.conflicts:
            names = ", ".join(str(p) for p in matched.conflicts[row.entry.folder])
            row.error = f"more than one submission ({names}); none was marked"
        elif row.file is not None:  # downloaded from another student's page: never marked
            row.error = page_mismatch(directory, manifest, row.entry, row.file)
    handed_in = [r for r in rows if r.file is not None and r.error is None]
    pairs = [(_key_of(directory, r.entry), r.file) for r in handed_in if r.file is not None]
    marked = grade_pairs(pairs, policy, progress)
    for row, one in zip(handed_in, marked):
        _score(row, one, manifest)
    for row in rows:
        if not row.marks:
            _score(row, None, manifest)
    return ClassGrades(directory, manifest, rows, matched)


def _score(row: Graded, one: Marked | None, manifest: Manifest) -> None:
    """Put the marked file (None: none was) and its points into the student's row."""
    if one is not None:
        row.marked, row.error = one, one.error
    if one is not None and one.result is not None:
        row.marks = step_marks(one.result, row.entry, manifest.ecf_credit, manifest.coarse_credit)
    else:
        row.marks = [StepMark(s, p, Fraction(0)) for s, p in row.entry.points.items()]


def grade_submission(
    directory: str | Path,
    manifest: Manifest,
    entry: Entry,
    file: Path,
    *,
    time_limit: float | None = None,
) -> Graded:
    """One student's file marked against their own problem, exactly as :func:`grade_class`
    marks it in the class (the Gradescope autograder marks one submission at a time)."""
    row = Graded(entry, file)
    row.error = page_mismatch(Path(directory), manifest, entry, file)
    if row.error is not None:
        _score(row, None, manifest)
        return row
    _score(
        row, mark(_key_of(Path(directory), entry), file, Policy(None, None, time_limit)), manifest
    )
    return row
