"""Rebuild docs/gallery/office/: a Word page and spreadsheet sheets, as LibreOffice shows them.

Usage, from anywhere in the repository (needs LibreOffice's ``soffice`` and pdftoppm,
which .ci/run installs):

    python docs/make_office_gallery.py

It writes ``symattn derive --example seed --format docx`` (and multihead in Chinese),
converts them with ``soffice --headless --convert-to pdf`` and the pages named below with
``pdftoppm -png -r 60``; and writes ``--format xlsx`` of seed, recalculates it in
LibreOffice (every formula computed again), converts it to PDF (one page per sheet) and
keeps the pages of the Given and Weights sheets.  docs/office.md shows the images.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import symattn
from symattn.examples import example_path
from symattn.render import render

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))
from tests.spreadsheet import convert, recalculating_profile  # noqa: E402  (the tests' LibreOffice)

OFFICE = DOCS / "gallery" / "office"
RESOLUTION = 60
#: (example, language, format, page of the PDF, image name)
PAGES = (
    ("seed", "en", "docx", 2, "docx-seed.png"),
    ("multihead", "zh", "docx", 3, "docx-multihead-zh.png"),
    ("seed", "en", "xlsx", 1, "xlsx-seed-given.png"),
    ("seed", "en", "xlsx", 4, "xlsx-seed-weights.png"),
)


def main() -> int:
    soffice = shutil.which("soffice")
    if soffice is None or shutil.which("pdftoppm") is None:
        print("make_office_gallery: needs soffice (LibreOffice) and pdftoppm", file=sys.stderr)
        return 2
    OFFICE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        profile = recalculating_profile(folder)
        made: dict[Path, Path] = {}
        for name, lang, fmt, page, image in PAGES:
            source = folder / f"{name}-{lang}.{fmt}"
            if source not in made:
                d = symattn.derive(example_path(name))
                source.write_bytes(render(d, fmt, lang=lang))  # type: ignore[arg-type]
                convert([source], folder, "pdf", profile)
                made[source] = source.with_suffix(".pdf")
            stem = folder / image.removesuffix(".png")
            subprocess.run(
                [
                    "pdftoppm",
                    "-png",
                    "-r",
                    str(RESOLUTION),
                    "-f",
                    str(page),
                    "-l",
                    str(page),
                    "-singlefile",
                    str(made[source]),
                    str(stem),
                ],
                check=True,
            )
            shutil.copy(stem.with_suffix(".png"), OFFICE / image)
            print(f"wrote {OFFICE / image}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
