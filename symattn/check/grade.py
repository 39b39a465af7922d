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
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from ..budget import time_budget
from ..derivation import Derivation
from ..errors import SymattnError
from ..load.files import MAX_LISTED_FILES, check_readable, list_files
from ..output import csv_cell
from .answers import answer_steps
from .results import CheckResult
from .run import check

__all__ = ["Graded", "answer_files", "grade", "report_csv"]

ANSWER_SUFFIXES = (".json", ".toml")


@dataclass(frozen=True)
class Graded:
    file: str
    result: CheckResult | None
    error: str | None = None


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
    """Check every file against the one key; a bad file becomes a row with its error, and
    the others are still marked, whatever goes wrong with one of them.  A link that
    leads out of its file's folder is not followed; a file that takes longer than
    ``time_limit`` seconds is a row too."""
    out = []
    for number, file in enumerate(files, start=1):
        try:
            check_readable(file, within=os.path.dirname(file) or ".")
            with time_budget(time_limit, file):
                result = check(key, file, tolerance=tolerance, places=places)
            out.append(Graded(file, result))
        except SymattnError as exc:
            out.append(Graded(file, None, str(exc)))
        except Exception as exc:  # one file never stops the class, whatever it does
            reason = f"{file}: cannot be marked ({type(exc).__name__})"
            out.append(Graded(file, None, str(SymattnError(reason))))
        if progress is not None:
            progress(number, len(files))
    return out


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
        diagnoses = ";".join(
            f"{s.id}:{d.id}" for s in row.result.steps for d in s.diagnosis
        ) + "".join(f";{s.id}:carried_forward" for s in row.result.steps if s.carried_forward)
        cells = [
            row.file,
            row.result.verdict,
            row.result.first_error or "",
            diagnoses.lstrip(";"),
            *scores,
            "",
        ]
        writer.writerow([csv_cell(c) for c in cells])
    return buffer.getvalue()
