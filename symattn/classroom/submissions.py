"""Finding the submissions in a folder and matching each one to its student.

A submission is an answers file (``.json``, ``.toml`` or ``.csv``) at the top of the
folder — ``Ada_Lovelace.json``, ``s042.toml``, ``ada@example.org.json`` — or a folder
holding one — ``Ada_Lovelace/answers.json``, or the folders Moodle's "Download all
submissions" makes, ``Ada Lovelace_123456_assignsubmission_file_/answers.json`` (or,
downloaded without folders, ``Ada Lovelace_123456_assignsubmission_file_answers.json``);
a zip of such a folder is read by :mod:`symattn.classroom.archive`.  Its name is
matched, case-blind, against each student's folder, id, email and name; when
it matches several students, a student whose folder it is exactly (then whose id or
email it is) is the one.  A name that still matches no student, or several, is reported
and never marked; so is a student with two submissions.  Links that lead outside the
folder, devices, pipes and other files at the top (``s1.zip``, ``Bob.pdf``,
``s1.json.txt``: not an answers file) are skipped and reported; hidden files are
skipped.
"""

from __future__ import annotations

import os
import re
import stat
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import SymattnError
from ..record import Record
from .manifest import Entry
from .roster import folder_name

__all__ = ["MAX_SUBMISSIONS", "Matched", "Skipped", "answers_in", "match_submissions"]

SUFFIXES = (".json", ".toml", ".csv")
#: Names a submission folder's answers file is looked for under, in this order.
PREFERRED = ("answers.json", "answers.toml", "answers.csv", "answers-template.json")
#: Most entries read from a submissions folder.
MAX_SUBMISSIONS = 5000
#: Moodle's suffix: a folder ``Ada Lovelace_123456_assignsubmission_file_``, or a file
#: ``Ada Lovelace_123456_assignsubmission_file_answers.json`` when the teacher downloads
#: without folders (the student's own file name follows).
_MOODLE = re.compile(r"_\d+_assignsubmission_[a-z]+(_.*)?$", re.I | re.S)


class Skipped(Record):
    """A file or folder that was not marked: ``why`` is a word key (``grade.why.*``),
    ``detail`` what it names (an error, the students it matches)."""

    path: Path
    why: str
    detail: str = ""
    #: The students (folders) whose folder, id, email or name the file's name is: the
    #: file is noted in their rows of the report, not only under it.
    owners: tuple[str, ...] = ()


@dataclass
class Matched:
    """Which file is whose, and what could not be matched (file, reason)."""

    files: dict[str, Path] = field(default_factory=dict)  # student folder → file
    conflicts: dict[str, list[Path]] = field(default_factory=dict)  # folder → files
    unmatched: list[Skipped] = field(default_factory=list)


def _norm(text: str) -> str:
    return unicodedata.normalize("NFC", text).strip().casefold()


def _inside(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except (ValueError, OSError):
        return False
    return True


def _regular(path: Path, root: Path) -> Skipped | None:
    """Why ``path`` cannot be a submission file (None: it can)."""
    if not _inside(path, root):
        return Skipped(path, "outside")
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        return Skipped(path, "unreadable", exc.strerror or "")
    if not stat.S_ISREG(mode):
        return Skipped(path, "not_regular")
    return None


def answers_in(folder: Path) -> tuple[Path | None, str | None]:
    """The answers file of a submission folder, or why there is none."""
    names = {p.name.casefold(): p for p in folder.iterdir() if not p.name.startswith(".")}
    for preferred in PREFERRED:
        if preferred in names:
            return names[preferred], None
    found = sorted(p for p in names.values() if p.suffix.lower() in SUFFIXES)
    if len(found) == 1:
        return found[0], None
    if not found:
        return None, "no_file"
    return None, "several_files"


def _candidates(root: Path) -> tuple[list[tuple[Path, str]], list[Skipped]]:
    """(file, the name it is matched by), and what was skipped with why."""
    if not root.is_dir():
        raise SymattnError(f"{root}: not a folder (or a .zip) of submissions")
    found: list[tuple[Path, str]] = []
    skipped: list[Skipped] = []
    for count, entry in enumerate(sorted(root.iterdir())):
        if count >= MAX_SUBMISSIONS:
            raise SymattnError(f"{root}: more than {MAX_SUBMISSIONS} entries")
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            if not _inside(entry, root):
                skipped.append(Skipped(entry, "outside"))
                continue
            file, why = answers_in(entry)
            if file is None:
                skipped.append(Skipped(entry, why or "no_file"))
                continue
            entry_name, path = entry.name, file
        elif entry.suffix.lower() in SUFFIXES:
            entry_name, path = entry.stem, entry
        else:  # s1.zip, Bob.pdf, s1.json.txt: reported, never silently left out
            skipped.append(Skipped(entry, "not_answers"))
            continue
        bad = _regular(path, root)
        if bad is not None:
            skipped.append(bad)
        else:
            found.append((path, entry_name))
    return found, skipped


def _owner(owners: list[str], bare: str, students: Sequence[Entry]) -> list[str]:
    """Of several students a name matches, the one whose folder it is exactly, else the
    one whose id or email it is: two students named Ann have the folders Ann and Ann_2,
    and the submission folder Ann is the first Ann's."""
    wanted = _norm(bare)
    tiers: list[Callable[[Entry], set[str]]] = [
        lambda e: {_norm(e.folder)},
        lambda e: {_norm(v) for v in (e.id, e.email) if v},
    ]
    for unique in tiers:
        exact = [e.folder for e in students if e.folder in owners and wanted in unique(e)]
        if len(exact) == 1:
            return exact
    return owners


def _keys(entry: Entry) -> set[str]:
    keys = {_norm(entry.folder)}
    for value in (entry.id, entry.email, entry.name):
        if value:
            keys |= {_norm(value), _norm(folder_name(value))}
    return keys


def _owners(name: str, students: Sequence[Entry], keys: Sequence[set[str]]) -> list[str]:
    """The folders of the students ``name`` (a file's or folder's name without its
    suffix) is the folder, id, email or name of (``keys``: each student's names)."""
    bare = _MOODLE.sub("", name)
    wanted = {_norm(bare), _norm(folder_name(bare))}
    owners = [e.folder for e, known in zip(students, keys) if wanted & known]
    return _owner(owners, bare, students) if len(owners) > 1 else owners


def _named(path: Path, students: Sequence[Entry], keys: Sequence[set[str]]) -> list[str]:
    """Whose a file that is not marked is by its name, with its suffixes taken off one
    by one: ``Bob.json.txt``, ``ada@example.org.pdf``, the folder ``Bob``."""
    name = path.name
    while name:
        owners = _owners(name, students, keys)
        if owners:
            return owners
        stem, dot, _ = name.rpartition(".")
        name = stem if dot else ""
    return []


def match_submissions(root: Path, students: Sequence[Entry]) -> Matched:
    """Every submission in ``root`` matched to exactly one student, or reported; what
    is skipped names the students it would be (``Bob.pdf`` is Bob's)."""
    files, skipped = _candidates(root)
    out = Matched()
    keys = [_keys(entry) for entry in students]
    for one in skipped:
        out.unmatched.append(replace(one, owners=tuple(_named(one.path, students, keys))))
    claimed: dict[str, list[Path]] = {}
    for path, name in files:
        owners = _owners(name, students, keys)
        if not owners:
            out.unmatched.append(Skipped(path, "no_student"))
        elif len(owners) > 1:
            out.unmatched.append(
                Skipped(path, "several_students", ", ".join(owners), tuple(owners))
            )
        else:
            claimed.setdefault(owners[0], []).append(path)
    for folder, paths in claimed.items():
        if len(paths) == 1:
            out.files[folder] = paths[0]
        else:
            out.conflicts[folder] = paths
    return out
