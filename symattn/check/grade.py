"""Grading a whole class: one answers file per student, the key computed once.

A malformed file is reported in its row and the rest are still graded.  The report
is a CSV with one row per student: file, verdict, first error, diagnoses, and a score
per step (right entries / answered entries).
"""

from __future__ import annotations

import csv
import glob
import io
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from ..budget import time_budget
from ..derivation import Derivation
from ..errors import SymattnError
from ..load.files import MAX_LISTED_FILES, check_readable, list_files
from ..output import csv_cell
from ..record import Record
from .answers import answer_steps
from .results import CheckResult
from .run import check

__all__ = ["Graded", "Key", "Policy", "answer_files", "grade", "grade_pairs", "mark", "report_csv"]

ANSWER_SUFFIXES = (".json", ".toml")


class Graded(Record):
    """One answers file marked: its result, or why it could not be marked.  The one row of
    every batch: ``check FOLDER`` makes one per file, ``grade`` one per submission."""

    file: str
    result: CheckResult | None
    error: str | None = None

    @property
    def verdict(self) -> str:
        """``correct``, ``incorrect`` or ``error`` (not marked)."""
        return "error" if self.result is None else self.result.verdict

    @property
    def diagnoses(self) -> list[str]:
        """``step:mistake`` for every diagnosis, then ``step:carried_forward``."""
        if self.result is None:
            return []
        steps = self.result.steps
        out = [f"{s.id}:{d.id}" for s in steps for d in s.diagnosis]
        return out + [f"{s.id}:carried_forward" for s in steps if s.carried_forward]


class Policy(Record):
    """How every file of a batch is marked: the tolerance, the places, the time limit."""

    tolerance: str | None = None
    places: int | None = None
    time_limit: float | None = None


#: The key a file is marked against: the derivation, or how to make it (a class set's
#: student's problem, derived when their file is marked, so a bad key is that row's error).
Key = Derivation | Callable[[], Derivation]


def mark(key: Key, file: str | os.PathLike[str], policy: Policy) -> Graded:
    """One file against its key; whatever goes wrong becomes the row's error, never the
    batch's: a file that cannot be read safely (a FIFO, a device, a link out of its folder,
    over the size limit), a bad key, a file over the time limit, a bug."""
    name = os.fsdecode(file)
    try:
        check_readable(name, within=os.path.dirname(name) or ".")
        with time_budget(policy.time_limit, name):
            derived = key if isinstance(key, Derivation) else key()
            result = check(derived, name, tolerance=policy.tolerance, places=policy.places)
        return Graded(name, result)
    except SymattnError as exc:
        return Graded(name, None, str(exc))
    except Exception as exc:  # one file never stops the class, whatever it does
        return Graded(
            name, None, str(SymattnError(f"{name}: cannot be marked ({type(exc).__name__})"))
        )


def grade_pairs(
    pairs: Sequence[tuple[Key, str | os.PathLike[str]]],
    policy: Policy,
    progress: Callable[[int, int], None] | None = None,
) -> list[Graded]:
    """Every (key, file) pair marked by :func:`mark`, in order."""
    out = []
    for number, (key, file) in enumerate(pairs, start=1):
        out.append(mark(key, file, policy))
        if progress is not None:
            progress(number, len(pairs))
    return out


def answer_files(patterns: Iterable[str]) -> list[str]:
    """Answer files from paths, folders (their .json/.toml files) and globs, sorted.

    A name that exists is a file even when it has glob characters (``a[1].json``).
    Nothing is read here; :func:`grade` refuses, each in its own row, what cannot be
    read safely: FIFOs, devices, files over the size limit, links out of their folder."""
    found: list[str] = []
    for pattern in patterns:
        path = Path(pattern)
        if path.is_dir():
            found += [str(p) for p in list_files(path, ANSWER_SUFFIXES)]
        elif any(ch in pattern for ch in "*?[") and not os.path.lexists(pattern):
            matches = []
            for match in glob.iglob(pattern):
                matches.append(match)
                if len(matches) > MAX_LISTED_FILES:
                    raise SymattnError(
                        f"{pattern}: matches more than {MAX_LISTED_FILES} files; grade in parts"
                    )
            found += sorted(matches)
        else:
            found.append(pattern)
    if not found:
        raise SymattnError(f"no answer files found in {', '.join(patterns)}")
    return found


def grade(
    key: Derivation,
    files: list[str],
    *,
    tolerance: str | None = None,
    places: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    time_limit: float | None = None,
) -> list[Graded]:
    """Check every file against the one key (:func:`grade_pairs`): a bad file becomes a row
    with its error, and the others are still marked."""
    policy = Policy(tolerance, places, time_limit)
    return grade_pairs([(key, file) for file in files], policy, progress)


def report_csv(key: Derivation, graded: list[Graded]) -> str:
    steps = answer_steps(key)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["file", "verdict", "first_error", "diagnoses", *steps, "error"])
    for row in graded:
        if row.result is None:
            cells = [row.file, "error", "", "", *([""] * len(steps)), row.error or ""]
            writer.writerow([csv_cell(c) for c in cells])
            continue
        by_id = {s.id: s for s in row.result.steps}
        scores = []
        for step_id in steps:
            step = by_id.get(step_id)
            if step is None or not step.entries:
                scores.append("")
            else:
                scores.append(f"{sum(e.ok for e in step.entries)}/{len(step.entries)}")
        cells = [
            row.file,
            row.verdict,
            row.result.first_error or "",
            ";".join(row.diagnoses),
            *scores,
            "",
        ]
        writer.writerow([csv_cell(c) for c in cells])
    return buffer.getvalue()
