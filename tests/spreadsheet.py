"""Recalculating a workbook in LibreOffice (headless) and reading its values back.

The cached values that ``--format xlsx`` writes are dropped first (openpyxl saves
formulas without them), and LibreOffice runs with a profile that recalculates every
formula on load, so each value read back was computed by LibreOffice's engine.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import openpyxl

#: LibreOffice's setting "recalculation on file load: always", for xlsx and ods files.
_PROFILE = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry"
 xmlns:xs="http://www.w3.org/2001/XMLSchema"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load">
<prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load">
<prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
"""


def soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


def recalculating_profile(folder: Path) -> Path:
    """A LibreOffice user profile (``-env:UserInstallation=<its URI>``) that recalculates."""
    profile = folder / "profile"
    (profile / "user").mkdir(parents=True, exist_ok=True)
    (profile / "user" / "registrymodifications.xcu").write_text(_PROFILE, encoding="utf-8")
    return profile


def recalculate(paths: list[Path], folder: Path) -> list[Path]:
    """Each workbook without its cached values, recalculated by LibreOffice: the paths of
    the recalculated copies (in ``folder``)."""
    program = soffice()
    assert program is not None
    profile = recalculating_profile(folder)
    bare = folder / "bare"
    out = folder / "recalculated"
    bare.mkdir(exist_ok=True)
    out.mkdir(exist_ok=True)
    inputs = []
    for path in paths:
        book = openpyxl.load_workbook(path)  # formulas; saving drops the cached values
        target = bare / path.name
        book.save(target)
        inputs.append(str(target))
    subprocess.run(
        [
            program,
            f"-env:UserInstallation={profile.as_uri()}",
            "--headless",
            "--convert-to",
            "xlsx",
            "--outdir",
            str(out),
            *inputs,
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return [out / p.name for p in paths]


def tables(path: Path, values: bool = True) -> dict[str, list[list[Any]]]:
    """Every defined name ``step_…`` of the workbook and its cells: their values (as
    last computed), or with ``values=False`` their formulas (or numbers) as written."""
    book = openpyxl.load_workbook(path, data_only=values)
    found: dict[str, list[list[Any]]] = {}
    for name, defined in book.defined_names.items():
        for sheet, cells in defined.destinations:
            rows = book[sheet][cells.replace("$", "")]
            found[name] = [[c.value for c in row] for row in rows]
    return found


def formulas(path: Path) -> dict[str, list[list[Any]]]:
    return tables(path, values=False)
