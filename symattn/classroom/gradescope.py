"""A Gradescope autograder for a class set: ``symattn exercises … --gradescope FILE.zip``.

The zip holds what Gradescope's "zip file upload" asks for — ``setup.sh``, which
installs this very version of symattn (a wheel of the running package, in the zip, so
no index has to have it) and what it needs, and ``run_autograder`` — and the class's
keys: ``class/class.json`` and ``class/teacher/<folder>/problem.toml`` of every student.

``run_autograder`` calls :func:`run`: it reads ``submission_metadata.json``, matches the
submitter to a student of the roster by email, then by id (Gradescope's student id), and
marks ``submission/answers.json`` (or ``.toml``, ``.csv``; or the one answers file
handed in) against **that student's own problem** with the marking of ``symattn grade``
(:func:`symattn.classroom.grading.grade_submission`): one test per step of the sheet,
with its score, its maximum and the step's feedback (without the key's values) as
output.  It always writes ``results/results.json`` in Gradescope's format — a submitter
who is not on the roster, or a file that cannot be read, gets a score of 0 and a
sentence saying why, never a crashed autograder.  The root is ``/autograder``, or
``$AUTOGRADER_ROOT`` when set.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import re
import time
import zipfile
from collections.abc import Iterable
from fractions import Fraction
from importlib import metadata
from pathlib import Path
from typing import Any

from ..check.feedback import score_line, step_feedback_lines
from ..errors import SymattnError
from ..load.files import read_text
from ..record import Record
from ..render import title_of
from ..version import __version__
from ..words import Words, words
from .grading import Graded, grade_submission
from .manifest import MANIFEST, Entry, Manifest, read_manifest
from .reports import points
from .submissions import answers_in

__all__ = ["TIME_LIMIT", "autograder_zip", "run"]

#: Seconds one submission may take before it is marked 0 with a sentence saying so
#: (Gradescope's own limit would fail the whole autograder instead).
TIME_LIMIT = 300.0
_DATE = (2026, 1, 1, 0, 0, 0)
_REQUIREMENT = re.compile(r"^[A-Za-z0-9_.\-]+")

SETUP = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when the autograder is uploaded: it installs
# symattn {version} (the wheel beside this file) in its own virtual environment.
set -euo pipefail
cd "$(dirname "$0")"
if ! python3 -c 'import sys, venv; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
    apt-get update
    apt-get install -y python3 python3-venv python3-pip
fi
VENV="${{AUTOGRADER_ROOT:-/autograder}}/symattn-venv"
python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install --no-cache-dir --upgrade pip
"$VENV/bin/python" -m pip install --no-cache-dir {wheel}{requirements}
"""

RUN = """#!/usr/bin/env bash
# Gradescope runs this for every submission: symattn marks it against the submitter's
# own problem and writes results/results.json.  AUTOGRADER_ROOT replaces /autograder
# (for a run on your own machine); SYMATTN_PYTHON names the Python that has symattn.
set -u
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
PY="${{SYMATTN_PYTHON:-$ROOT/symattn-venv/bin/python}}"
[ -x "$PY" ] || PY=python3
exec "$PY" -c 'import sys; from symattn.classroom.gradescope import run
sys.exit(run(sys.argv[1]))' "$ROOT"
"""


def _requirements() -> list[str]:
    """What symattn needs, as its own metadata says (the test extras left out)."""
    try:
        wanted = metadata.requires("symattn") or []
    except metadata.PackageNotFoundError:  # a checkout that was never installed
        wanted = []
    return [r for r in wanted if "extra ==" not in r]


def _digest(data: bytes) -> str:
    return str(base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"="), "ascii")


def _package_files() -> Iterable[tuple[str, bytes]]:
    root = Path(__file__).resolve().parent.parent
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            yield "symattn/" + path.relative_to(root).as_posix(), path.read_bytes()


def wheel() -> tuple[str, bytes]:
    """The running symattn as a pure-Python wheel: (file name, bytes)."""
    info = f"symattn-{__version__}.dist-info"
    files = list(_package_files())
    meta = [
        "Metadata-Version: 2.1",
        "Name: symattn",
        f"Version: {__version__}",
        "Requires-Python: >=3.10",
        *(f"Requires-Dist: {r}" for r in _requirements()),
    ]
    files += [
        (f"{info}/METADATA", ("\n".join(meta) + "\n").encode()),
        (
            f"{info}/WHEEL",
            b"Wheel-Version: 1.0\nGenerator: symattn\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        ),
        (f"{info}/entry_points.txt", b"[console_scripts]\nsymattn = symattn.cli:main\n"),
    ]
    record = [f"{name},sha256={_digest(data)},{len(data)}" for name, data in files]
    files.append((f"{info}/RECORD", ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in files:
            out.writestr(zipfile.ZipInfo(name, _DATE), data, zipfile.ZIP_DEFLATED)
    return f"symattn-{__version__}-py3-none-any.whl", buffer.getvalue()


def _executable(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, _DATE)
    info.external_attr = 0o100755 << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def autograder_zip(directory: str | Path) -> bytes:
    """The autograder of the class set ``directory`` (written by ``symattn exercises``)."""
    directory = Path(directory)
    manifest = read_manifest(directory)
    name, data = wheel()
    needs = "".join(f" '{r}'" for r in _requirements() if _REQUIREMENT.match(r))
    setup = SETUP.format(version=__version__, wheel=f"./{name}", requirements=needs)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr(_executable("setup.sh"), setup)
        out.writestr(_executable("run_autograder"), RUN.format())
        out.writestr(zipfile.ZipInfo(name, _DATE), data, zipfile.ZIP_STORED)
        out.writestr(
            zipfile.ZipInfo(f"class/{MANIFEST}", _DATE),
            (directory / MANIFEST).read_bytes(),
            zipfile.ZIP_DEFLATED,
        )
        for entry in manifest.students:
            problem = directory / "teacher" / entry.folder / "problem.toml"
            if not problem.is_file():
                raise SymattnError(f"{problem}: missing (the class set is incomplete)")
            out.writestr(
                zipfile.ZipInfo(f"class/teacher/{entry.folder}/problem.toml", _DATE),
                problem.read_bytes(),
                zipfile.ZIP_DEFLATED,
            )
    return buffer.getvalue()


class _Outcome(Record):
    """What one run says: the row when a file was marked, else why not (a sentence)."""

    row: Graded | None
    why: str = ""


def _submitters(root: Path) -> list[dict[str, Any]]:
    path = root / "submission_metadata.json"
    try:
        data = json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise SymattnError(f"{path}: malformed JSON ({exc.msg})") from None
    users = data.get("users") if isinstance(data, dict) else None
    if not isinstance(users, list) or not all(isinstance(u, dict) for u in users):
        raise SymattnError(f"{path}: no list of users")
    return users


def _norm(value: object) -> str:
    return str(value).strip().casefold() if value not in (None, "") else ""


def _student(manifest: Manifest, users: list[dict[str, Any]], w: Words) -> Entry | str:
    """The one student the submitters are (by email, then by student id), or why not."""
    found: dict[str, Entry] = {}
    for user in users:
        email, sid = _norm(user.get("email")), _norm(user.get("sid"))
        for entry in manifest.students:
            if (email and email == _norm(entry.email)) or (sid and sid == _norm(entry.id)):
                found[entry.folder] = entry
                break
    if not found:
        who = ", ".join(str(u.get("email") or u.get("name") or "?") for u in users)
        return w("gradescope.no_student", who=who or "?")
    if len(found) > 1:
        return w("gradescope.several_students", who=", ".join(e.name for e in found.values()))
    return next(iter(found.values()))


def _outcome(root: Path, directory: Path, manifest: Manifest, w: Words) -> _Outcome:
    student = _student(manifest, _submitters(root), w)
    if isinstance(student, str):
        return _Outcome(None, student)
    folder = root / "submission"
    file, why = answers_in(folder) if folder.is_dir() else (None, "no_file")
    if file is None:
        return _Outcome(None, w(f"grade.why.{why or 'no_file'}", detail=""))
    return _Outcome(grade_submission(directory, manifest, student, file, time_limit=TIME_LIMIT))


def _number(value: Fraction) -> float | int:
    return int(value) if value.denominator == 1 else round(float(value), 4)


def _tests(row: Graded, w: Words) -> list[dict[str, Any]]:
    result = row.result
    by_id = {} if result is None else {s.id: s for s in result.steps}
    tests = []
    for number, mark in enumerate(row.marks, start=1):
        step = by_id.get(mark.id)
        if result is not None and step is not None:
            name = title_of(result.derivation.step(mark.id), w)
            lines = step_feedback_lines(result, step, w, show_key=False)
            output = "\n".join(line.removeprefix("    ").rstrip() for line in lines[1:])
        else:
            name, output = mark.id, row.error or w("feedback.missing")
        tests.append(
            {
                "number": str(number),
                "name": name,
                "score": _number(mark.earned),
                "max_score": _number(mark.points),
                "status": "passed" if mark.earned == mark.points else "failed",
                "output": output,
            }
        )
    return tests


def results(root: Path, started: float | None = None) -> dict[str, Any]:
    """Gradescope's ``results.json`` for the submission under ``root``."""
    started = time.monotonic() if started is None else started
    w = words("en")
    try:
        directory = root / "source" / "class"
        manifest = read_manifest(directory)
        w = words(manifest.lang)
        outcome = _outcome(root, directory, manifest, w)
    except SymattnError as exc:
        outcome = _Outcome(None, str(exc))
    out: dict[str, Any] = {"output_format": "text", "stdout_visibility": "hidden"}
    row = outcome.row
    if row is None:
        out |= {"score": 0, "output": outcome.why, "tests": []}
    else:
        result = row.result
        head = w("grade.points", score=points(row.score), max=points(row.max_score))
        said = [head] + ([score_line(result, w)] if result is not None else [])
        said += [row.error] if row.error else []
        out |= {"score": _number(row.score), "output": "\n".join(said), "tests": _tests(row, w)}
    out["execution_time"] = round(time.monotonic() - started, 3)
    return out


def run(root: str | os.PathLike[str]) -> int:
    """Mark the submission under ``root`` and write ``results/results.json`` (always)."""
    started = time.monotonic()
    root = Path(root)
    try:
        data = results(root, started)
    except Exception as exc:  # the autograder never crashes without saying why
        data = {"score": 0, "output": f"symattn could not mark this ({type(exc).__name__})"}
    target = root / "results" / "results.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return 0
