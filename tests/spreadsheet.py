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


def convert(paths: list[Path], folder: Path, to: str, profile: Path) -> list[Path]:
    """``soffice --headless --convert-to TO`` of every file into ``folder``, with its own
    user ``profile`` (so that conversions can run side by side): the converted paths."""
    program = soffice()
    assert program is not None
    subprocess.run(
        [program, f"-env:UserInstallation={profile.as_uri()}", "--headless",
         "--convert-to", to, "--outdir", str(folder), *map(str, paths)],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    return [folder / p.with_suffix("." + to).name for p in paths]


def recalculate(paths: list[Path], folder: Path) -> list[Path]:
    """Each workbook without its cached values, recalculated by LibreOffice: the paths of
    the recalculated copies (in ``folder``)."""
    profile = recalculating_profile(folder)
    bare = folder / "bare"
    out = folder / "recalculated"
    bare.mkdir(exist_ok=True)
    out.mkdir(exist_ok=True)
    for path in paths:  # formulas only: openpyxl saves them without the cached values
        openpyxl.load_workbook(path).save(bare / path.name)
    return convert([bare / p.name for p in paths], out, "xlsx", profile)


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
