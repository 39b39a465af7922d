"""One feedback sheet per student: ``FBDIR/<folder>.tex`` (and ``.pdf`` when latexmk is
on PATH), or ``FBDIR/<folder>.html``.

PDFs are made two at a time, each in its own scratch folder with a time limit; a sheet
that does not compile is reported and the others are still made.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..check.feedback import render_feedback_latex
from ..check.feedback_html import render_feedback_html
from ..check.results import CheckResult
from ..errors import SymattnError
from ..output import write_output
from ..record import Record
from ..render import needs_xelatex

__all__ = ["FeedbackSheet", "compile_pdf", "write_feedback"]

#: Seconds one sheet may take to compile.
MAX_COMPILE_SECONDS = 120


class FeedbackSheet(Record):
    folder: str
    result: CheckResult
    score: tuple[str, str] | None = None  # (earned, max) points


def compile_pdf(tex: Path) -> str | None:
    """Compile ``tex`` next to itself; None, or why it failed."""
    program = "-xelatex" if needs_xelatex(tex.read_text(encoding="utf-8")) else "-pdf"
    with tempfile.TemporaryDirectory() as scratch:
        try:
            done = subprocess.run(
                [
                    "latexmk",
                    program,
                    "-interaction=nonstopmode",
                    "-halt-on-error",
                    f"-outdir={scratch}",
                    str(tex.resolve()),
                ],
                capture_output=True,
                timeout=MAX_COMPILE_SECONDS,
                check=False,
                cwd=scratch,
            )
        except subprocess.TimeoutExpired:
            return f"{tex}: the PDF took longer than {MAX_COMPILE_SECONDS} s and was not made"
        except OSError as exc:
            return f"{tex}: latexmk could not run ({exc.strerror})"
        pdf = Path(scratch) / (tex.stem + ".pdf")
        if done.returncode != 0 or not pdf.exists():
            first = _first_error(Path(scratch) / (tex.stem + ".log"))
            return f"{tex}: the PDF could not be made (latexmk exit {done.returncode}{first})"
        shutil.copyfile(pdf, tex.with_suffix(".pdf"))
    return None


def _first_error(log: Path) -> str:
    """``: `! the first error line``` of a TeX log, or nothing."""
    try:
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    first = next((line for line in lines if line.startswith("! ")), None)
    return f": {first[:160]}" if first else ""


def write_feedback(
    sheets: Sequence[FeedbackSheet],
    directory: Path,
    *,
    lang: str = "en",
    kind: str = "tex",
    show_key: bool = True,
    pdf: bool | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[Path], list[tuple[str, str]]]:
    """Write every sheet; return the files written and, for each sheet that went wrong,
    its folder and why (a PDF that could not be made)."""
    if directory.exists() and not directory.is_dir():
        raise SymattnError(f"{directory}: exists and is not a folder", option="feedback")
    directory.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for sheet in sheets:
        path = directory / f"{sheet.folder}.{kind}"
        if kind == "html":
            text = render_feedback_html(sheet.result, lang, show_key=show_key, score=sheet.score)
        else:
            text = render_feedback_latex(sheet.result, lang, show_key=show_key, score=sheet.score)
        write_output(text, str(path))
        written.append(path)
    problems: list[tuple[str, str]] = []
    make_pdf = shutil.which("latexmk") is not None if pdf is None else pdf
    if kind == "tex" and make_pdf and written:
        done = 0
        with ThreadPoolExecutor(max_workers=2) as pool:
            for sheet, outcome in zip(sheets, pool.map(compile_pdf, written)):
                done += 1
                if outcome is not None:
                    problems.append((sheet.folder, outcome))
                if progress is not None:
                    progress(done, len(written))
        written += [p.with_suffix(".pdf") for p in written if p.with_suffix(".pdf").exists()]
    return written, problems
