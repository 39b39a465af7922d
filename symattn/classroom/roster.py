"""The class roster: who the students are, and the folder each one gets.

A roster is CSV with a header line.  ``name`` is required (or ``first name`` and
``last name``, as a Moodle participants export has them); ``id`` and ``email`` are
kept when present, under their own names or Moodle's (``idnumber``/``ID number`` or
``username`` for the id, ``email address`` for the email).  Commas, semicolons and
tabs all work as separators, and a byte-order mark is ignored.

Every student gets a folder made safe from the name: letters and digits of any script
are kept, anything else becomes ``_``, no ``..``, no name Windows reserves, at most 60
characters, and unique (``Ada_Lovelace``, ``Ada_Lovelace_2`` …, compared case-blind).

>>> [s.folder for s in students_from_rows([["name"], ["Zoë Ō"], ["../x"], ["zoë ō"]], "r")]
['Zoë_Ō', 'x', 'zoë_ō_2']
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from ..errors import SymattnError
from ..load.checks import MAX_NAME_BYTES, MAX_STUDENTS
from ..load.files import csv_dialect, csv_rows, read_text
from ..record import Record

__all__ = ["MAX_NAME_BYTES", "MAX_STUDENTS", "Student", "folder_name", "read_roster"]
#: Longest folder name made from a name.
MAX_FOLDER_CHARS = 60

_NAME = ("name", "full name", "fullname", "student", "student name", "姓名")
_FIRST = ("first name", "firstname", "given name")
_LAST = ("last name", "lastname", "surname", "family name")
_ID = ("id", "idnumber", "id number", "student id", "student number", "username", "学号")
_EMAIL = ("email", "email address", "e-mail", "mail", "邮箱")
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10))} | {
    f"lpt{i}" for i in range(10)
}
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


class Student(Record):
    """One student of the roster (``id`` and ``email`` are empty when not given)."""

    name: str
    folder: str
    id: str = ""
    email: str = ""


def folder_name(name: str) -> str:
    """A folder name made safe from ``name`` (not yet made unique).

    >>> folder_name("Ada Lovelace"), folder_name("=1+1"), folder_name("con"), folder_name("…")
    ('Ada_Lovelace', '1_1', 'student_con', 'student')
    """
    text = unicodedata.normalize("NFC", name)
    cleaned = re.sub(r"[^\w-]+", "_", text, flags=re.UNICODE)
    cleaned = re.sub(r"_+", "_", cleaned).strip("_-.")[:MAX_FOLDER_CHARS].rstrip("_-.")
    if not cleaned:
        return "student"
    if cleaned.split(".")[0].casefold() in _RESERVED:
        return f"student_{cleaned}"
    return cleaned


def _column(header: list[str], names: tuple[str, ...]) -> int | None:
    for i, cell in enumerate(header):
        if cell in names:
            return i
    return None


def _cell(row: list[str], column: int | None, where: str, label: str) -> str:
    if column is None or column >= len(row):
        return ""
    value = unicodedata.normalize("NFC", row[column].strip())
    bad = _CONTROL.search(value)
    if bad:
        raise SymattnError(
            f"{where}, column {label}: a control character (U+{ord(bad.group()):04X}) "
            "cannot be part of a name"
        )
    if len(value.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
        raise SymattnError(f"{where}, column {label}: longer than {MAX_NAME_BYTES} bytes")
    return value


def students_from_rows(rows: Sequence[list[str]], source: str) -> list[Student]:
    """The students of a roster already split into rows (the first is the header)."""
    if not rows:
        raise SymattnError(f"{source}: the roster is empty")
    header = [unicodedata.normalize("NFC", h).strip().casefold() for h in rows[0]]
    name_at = _column(header, _NAME)
    first_at, last_at = _column(header, _FIRST), _column(header, _LAST)
    if name_at is None and first_at is None:
        shown = ", ".join(h for h in rows[0] if h.strip())[:200] or "(empty)"
        raise SymattnError(
            f"{source}: line 1: no 'name' column (or 'first name' and 'last name'); "
            f"the header is: {shown}"
        )
    id_at, email_at = _column(header, _ID), _column(header, _EMAIL)
    students: list[Student] = []
    seen_ids: dict[str, int] = {}
    seen_emails: dict[str, int] = {}
    taken: set[str] = set()
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(students) >= MAX_STUDENTS:
            raise SymattnError(f"{source}: more than {MAX_STUDENTS} students")
        where = f"{source}: line {number}"
        if name_at is not None:
            name = _cell(row, name_at, where, rows[0][name_at].strip())
        else:
            parts = (
                _cell(row, first_at, where, "first name"),
                _cell(row, last_at, where, "last name"),
            )
            name = " ".join(p for p in parts if p)
        if not name:
            raise SymattnError(f"{where}, column name: the name is empty")
        sid = _cell(row, id_at, where, rows[0][id_at].strip() if id_at is not None else "id")
        email = _cell(
            row, email_at, where, rows[0][email_at].strip() if email_at is not None else "email"
        )
        for value, seen, what in ((sid, seen_ids, "id"), (email.casefold(), seen_emails, "email")):
            if value and value in seen:
                raise SymattnError(
                    f"{where}, column {what}: {value!r} is also on line {seen[value]}"
                )
            if value:
                seen[value] = number
        base = folder_name(name)
        folder, k = base, 1
        while folder.casefold() in taken:
            k += 1
            folder = f"{base}_{k}"
        taken.add(folder.casefold())
        students.append(Student(name, folder, sid, email))
    if not students:
        raise SymattnError(f"{source}: no students after the header line")
    return students


def read_roster(path: str) -> list[Student]:
    """The students of the roster CSV at ``path``."""
    text = read_text(path).lstrip("\ufeff")
    rows = csv_rows(text, path, csv_dialect(text))
    return students_from_rows(rows, path)
