"""Rebuild the pictures of docs/exercises.md and docs/classroom.md: a student's sheet and
its key (page 1 each), and that student's feedback sheet (the page with the first error).

Usage, from anywhere in the repository:

    python docs/make_exercise_pages.py

It runs the class of docs/classroom.md (`symattn exercises --seed 2026 --students
docs/examples/classroom/roster.csv`, then `symattn grade` on its submissions) into a
temporary folder, compiles Zoë's sheet.tex, key.tex and feedback sheet with latexmk (the
engine their first line names), and converts one page of each with ``pdftoppm -png -r
60``, writing docs/exercises/sheet.png, key.png and feedback.png.  It needs the TeX Live
packages that .ci/run installs.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from make_gallery import LATEXMK_FLAG, RESOLUTION, engine_of, run

from symattn.cli import main

DOCS = Path(__file__).resolve().parent
OUT = DOCS / "exercises"
CLASS = DOCS / "examples" / "classroom"
STUDENT = "Zoë_Ōtsuka"


def _picture(tex: Path, name: str, page: int) -> None:
    engine = engine_of(tex.read_text(encoding="utf-8"))
    run(["latexmk", "-norc", LATEXMK_FLAG[engine], "-halt-on-error",
         "-interaction=nonstopmode", tex.name], tex.parent)
    run(["pdftoppm", "-png", "-r", str(RESOLUTION), "-f", str(page), "-l", str(page),
         "-singlefile", str(tex.with_suffix(".pdf")), str(OUT / name)], tex.parent)
    print(f"wrote {OUT / name}.png", file=sys.stderr)


def build() -> None:
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        week, feedback = Path(tmp) / "week5", Path(tmp) / "feedback"
        roster = str(CLASS / "roster.csv")
        if main(["exercises", "--seed", "2026", "--students", roster, "-o", str(week)]) != 0:
            raise SystemExit("make_exercise_pages: symattn exercises failed")
        main(["grade", str(week), str(CLASS / "submissions"), "--feedback", str(feedback)])
        _picture(week / "students" / STUDENT / "sheet.tex", "sheet", 1)
        _picture(week / "teacher" / STUDENT / "key.tex", "key", 1)
        _picture(feedback / f"{STUDENT}.tex", "feedback", 2)


if __name__ == "__main__":
    build()
