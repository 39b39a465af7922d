"""Whose self-check page an answers file was downloaded from: its ``page_id``.

A self-check page of a class set (``exercises … --html --students``) carries a page id,
``<folder>/<hash>``: the student's folder and the first 16 hex digits of the SHA-256 of
their problem file (``teacher/<folder>/problem.toml``, as ``exercises`` wrote it).  The
page keeps what is typed under that id and writes it into the ``answers.json`` it
downloads; ``grade`` reads it back and refuses to mark a file downloaded from another
student's page, or from a page of another problem, against either problem.

>>> page_id("Ada_Lovelace", 'X = [[1, 0]]\\n')
'Ada_Lovelace/72e291153428a33c'
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from ..errors import SymattnError
from ..load.files import read_file
from ..words import words
from .manifest import Entry, Manifest

__all__ = ["page_id", "page_id_of", "page_mismatch", "problem_page_id"]


def page_id(folder: str, problem_text: str) -> str:
    """The page id of ``folder``'s page for the problem file ``problem_text``."""
    digest = hashlib.sha256(problem_text.encode("utf-8")).hexdigest()[:16]
    return f"{folder}/{digest}"


def problem_page_id(directory: Path, entry: Entry) -> str | None:
    """The page id of ``entry``'s page in the class set ``directory`` (None: no problem
    file, which the marking reports)."""
    problem = directory / "teacher" / entry.folder / "problem.toml"
    try:
        return page_id(entry.folder, problem.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return None


def page_id_of(file: str | os.PathLike[str]) -> str | None:
    """The ``page_id`` an answers file names (None: none, or a file the marking reports)."""
    if Path(file).suffix.lower() not in (".json", ".toml"):
        return None
    try:
        found = read_file(file).get("page_id")
    except (SymattnError, OSError, ValueError):
        return None
    return found if isinstance(found, str) else None


def page_mismatch(
    directory: Path, manifest: Manifest, entry: Entry, file: str | os.PathLike[str]
) -> str | None:
    """Why ``file`` is not marked as ``entry``'s work: the page id it names is another
    student's, or another problem's (None: no page id, or theirs)."""
    given = page_id_of(file)
    if given is None:
        return None
    own = problem_page_id(directory, entry)
    if own is None or given == own:
        return None
    w = words("en")
    name = os.fspath(file)
    for other in manifest.students:
        if other.folder != entry.folder and problem_page_id(directory, other) == given:
            who = other.name or other.folder
            return w("grade.why.page_other_student", file=name, page_id=given, who=who)
    return w("grade.why.page_other_problem", file=name, page_id=given)
