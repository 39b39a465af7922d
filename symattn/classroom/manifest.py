"""``class.json``: the manifest of a class set — who each student is, which folder and
seed their exercise has, the places asked for and the points of every step.

``symattn exercises`` writes it and ``symattn grade`` reads it.  A teacher may edit the
points (``"points": {"weights": 2}``), ``ecf_credit`` and ``coarse_credit``; everything
read back is checked, and a folder that is not a plain name is refused.
"""

from __future__ import annotations

import json
import re
from dataclasses import field
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..errors import SymattnError
from ..load.files import read_text
from ..record import Record
from ..version import __version__

__all__ = ["FORMAT", "MANIFEST", "Entry", "Manifest", "read_manifest"]

MANIFEST = "class.json"
FORMAT = 1
#: A folder in the manifest: one plain path component.
_FOLDER = re.compile(r"^(?!\.)[^/\\\x00-\x1f]{1,80}$")


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


class Entry(Record):
    """One student (or one numbered exercise) of the class."""

    folder: str
    name: str = ""
    id: str = ""
    email: str = ""
    seed: int = 0
    places: int = 4
    title: str = ""
    points: dict[str, Fraction] = field(default_factory=dict)

    @property
    def max_score(self) -> Fraction:
        return sum(self.points.values(), Fraction(0))

    def to_json(self) -> dict[str, Any]:
        return {
            "folder": self.folder,
            "name": self.name,
            "id": self.id,
            "email": self.email,
            "seed": self.seed,
            "places": self.places,
            "title": self.title,
            "points": {k: _number(v) for k, v in self.points.items()},
        }


class Manifest(Record):
    """The whole class set."""

    seed: int
    lang: str
    options: dict[str, Any]
    students: tuple[Entry, ...]
    ecf_credit: Fraction = Fraction(1, 2)
    coarse_credit: Fraction = Fraction(0)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "written_by": f"symattn {__version__}",
            "seed": self.seed,
            "lang": self.lang,
            "options": self.options,
            "ecf_credit": _number(self.ecf_credit),
            "coarse_credit": _number(self.coarse_credit),
            "students": [s.to_json() for s in self.students],
        }

    def text(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=2) + "\n"


def _credit(data: dict[str, Any], key: str, default: Fraction, source: str) -> Fraction:
    value = data.get(key, _number(default))
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise SymattnError(f"{source}: {key}: expected a number from 0 to 1, found {value!r}")
    return Fraction(str(value))


def _points(raw: Any, where: str) -> dict[str, Fraction]:
    if not isinstance(raw, dict) or not raw:
        raise SymattnError(f"{where}: points: expected a table of step → points")
    out = {}
    for step, value in raw.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1000:
            raise SymattnError(f"{where}: points.{step}: expected 0 … 1000, found {value!r}")
        out[str(step)] = Fraction(str(value))
    return out


def _entry(raw: Any, number: int, source: str) -> Entry:
    where = f"{source}: students[{number}]"
    if not isinstance(raw, dict):
        raise SymattnError(f"{where}: expected an object")
    folder = raw.get("folder")
    if not isinstance(folder, str) or not _FOLDER.match(folder) or folder in ("..", "."):
        raise SymattnError(f"{where}: folder: expected a plain folder name, found {folder!r}")
    texts = {}
    for key in ("name", "id", "email", "title"):
        value = raw.get(key, "")
        if not isinstance(value, str):
            raise SymattnError(f"{where}: {key}: expected a string, found {value!r}")
        texts[key] = value
    places, seed = raw.get("places", 4), raw.get("seed", 0)
    if isinstance(places, bool) or not isinstance(places, int) or not 0 <= places <= 12:
        raise SymattnError(f"{where}: places: expected 0 … 12, found {places!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SymattnError(f"{where}: seed: expected a whole number, found {seed!r}")
    return Entry(
        folder, seed=seed, places=places, points=_points(raw.get("points"), where), **texts
    )


def read_manifest(directory: str | Path) -> Manifest:
    """The manifest of the class set in ``directory``."""
    path = Path(directory) / MANIFEST
    if not Path(directory).is_dir():
        raise SymattnError(f"{directory}: not a folder")
    if not path.exists():
        raise SymattnError(
            f"{directory}: no {MANIFEST} here (a class set written by symattn exercises has one)"
        )
    source = str(path)
    try:
        data = json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise SymattnError(f"{source}: malformed JSON at line {exc.lineno}: {exc.msg}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SymattnError(f"{source}: not a symattn class manifest (format {FORMAT})")
    students = data.get("students")
    if not isinstance(students, list) or not students:
        raise SymattnError(f"{source}: students: expected a list of students")
    entries = tuple(_entry(raw, k, source) for k, raw in enumerate(students))
    folders = [e.folder.casefold() for e in entries]
    if len(set(folders)) != len(folders):
        raise SymattnError(f"{source}: two students share a folder")
    return Manifest(
        seed=int(data.get("seed", 0)),
        lang=str(data.get("lang", "en")),
        options=dict(data.get("options", {})),
        students=entries,
        ecf_credit=_credit(data, "ecf_credit", Fraction(1, 2), source),
        coarse_credit=_credit(data, "coarse_credit", Fraction(0), source),
    )
