"""Rebuild the pictures of docs/exercises.md: one exercise sheet and its key, page 1 each.

Usage, from anywhere in the repository:

    python docs/make_exercise_pages.py

It runs ``symattn exercises --seed 1 --count 1 --level 1`` into a temporary folder,
compiles 01/sheet.tex and 01/key.tex with latexmk (the engine their first line names),
and converts the first page of each with ``pdftoppm -png -r 60``, writing
docs/exercises/sheet.png and docs/exercises/key.png.  It needs the TeX Live packages
that .ci/run installs.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from make_gallery import LATEXMK_FLAG, RESOLUTION, engine_of, run

from symattn.cli import main

OUT = Path(__file__).resolve().parent / "exercises"
COMMAND = ["exercises", "--seed", "1", "--count", "1", "--level", "1"]


def build() -> None:
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "set"
        if main([*COMMAND, "-o", str(folder)]) != 0:
            raise SystemExit("make_exercise_pages: symattn exercises failed")
        for stem in ("sheet", "key"):
            tex = folder / "01" / f"{stem}.tex"
            engine = engine_of(tex.read_text(encoding="utf-8"))
            run(["latexmk", "-norc", LATEXMK_FLAG[engine], "-halt-on-error",
                 "-interaction=nonstopmode", tex.name], tex.parent)
            run(["pdftoppm", "-png", "-r", str(RESOLUTION), "-f", "1", "-l", "1",
                 "-singlefile", str(tex.with_suffix(".pdf")), str(OUT / stem)], tex.parent)
            print(f"wrote {OUT / stem}.png", file=sys.stderr)


if __name__ == "__main__":
    build()
