"""Rebuild the gallery: the first page of each bundled example's LaTeX document, as a PNG.

Usage, from anywhere in the repository:

    python docs/make_gallery.py

For every bundled example (English, matrix notation), and for seed in Chinese as well,
this renders the standalone document (``symattn derive --example NAME --format tex``),
compiles it with latexmk and the engine its first line names (pdflatex, or xelatex for
CJK text), and converts the first page with
``pdftoppm -png -r 60 -f 1 -l 1 -singlefile``. It writes docs/gallery/NAME.png (and
seed-zh.png), removes PNGs there that no longer belong to an example, and rewrites
docs/gallery.md, the page that shows them (keeping the part about the HTML pages, which
docs/make_html_gallery.py writes). It needs latexmk, pdflatex, xelatex with the
font "Noto Serif CJK SC", and pdftoppm: the TeX Live packages that .ci/run installs.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import symattn
from symattn.examples import example_names, example_path, list_examples
from symattn.render import render

DOCS = Path(__file__).resolve().parent
GALLERY = DOCS / "gallery"
PAGE = DOCS / "gallery.md"

RESOLUTION = 60  # dpi: an A4 page becomes 496 × 702 pixels, a few tens of kB
TIMEOUT = 240  # seconds for one latexmk run
LATEXMK_FLAG = {"pdflatex": "-pdf", "xelatex": "-xelatex"}
LANGUAGE = {"en": "English", "zh": "Chinese"}


#: PNGs of docs/gallery/ that other scripts make (docs/make_summary_page.py).
OTHERS = {"summary.png"}


@dataclass(frozen=True)
class Entry:
    name: str  # the bundled example
    lang: str  # en or zh
    png: str  # file name in docs/gallery

    @property
    def command(self) -> str:
        lang = f" --lang {self.lang}" if self.lang != "en" else ""
        return f"symattn derive --example {self.name} --format tex{lang}"


def entries() -> list[Entry]:
    """Every example in English, then seed in Chinese."""
    out = [Entry(name, "en", f"{name}.png") for name in example_names()]
    out.append(Entry("seed", "zh", "seed-zh.png"))
    return out


def engine_of(document: str) -> str:
    match = re.match(r"% compile with (pdflatex|xelatex)\b", document)
    if not match:
        raise SystemExit(f"make_gallery: no engine on the first line: {document.splitlines()[0]}")
    return match.group(1)


def run(command: list[str], cwd: Path) -> None:
    result = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, errors="replace", timeout=TIMEOUT
    )
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).splitlines()[-25:])
        raise SystemExit(f"make_gallery: {' '.join(command)} failed in {cwd}:\n{tail}")


def first_page_png(entry: Entry, workdir: Path) -> str:
    """Render, compile and convert one entry; return the engine it compiled with."""
    document = render(symattn.derive(example_path(entry.name)), "tex", lang=entry.lang)
    engine = engine_of(document)
    stem = Path(entry.png).stem
    (workdir / f"{stem}.tex").write_text(document, encoding="utf-8")
    run(
        [
            "latexmk",
            "-norc",
            LATEXMK_FLAG[engine],
            "-halt-on-error",
            "-interaction=nonstopmode",
            f"{stem}.tex",
        ],
        workdir,
    )
    run(
        [
            "pdftoppm",
            "-png",
            "-r",
            str(RESOLUTION),
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            str(workdir / f"{stem}.pdf"),
            str(GALLERY / stem),  # pdftoppm adds .png
        ],
        workdir,
    )
    return engine


def page(made: list[tuple[Entry, str]]) -> str:
    descriptions = dict(list_examples())
    lines = [
        "# Gallery: the LaTeX documents and the HTML pages",
        "",
        "<!-- Written by docs/make_gallery.py; edit the script, not this page. -->",
        "",
        "The first page of the standalone LaTeX document (`--format tex`) of each bundled",
        "example, in English with the default matrix notation, and of `seed` in Chinese.",
        "Each image is made from the current code by one command, run from the repository",
        "with TeX Live installed (the packages `.ci/run` installs):",
        "",
        "```sh",
        "python docs/make_gallery.py",
        "```",
        "",
        "It renders each document, compiles it with `latexmk` and the engine its first line",
        "names (`pdflatex` when all text is ASCII, `xelatex` with xeCJK and Noto Serif CJK SC",
        "when there is CJK text), converts page 1 with",
        f"`pdftoppm -png -r {RESOLUTION} -f 1 -l 1 -singlefile`, and rewrites this page.",
        "`tests/test_latex_compile.py` compiles every example in both languages and both",
        "notations and fails on any LaTeX error or any line more than 10 pt too wide; see",
        "[latex.md](latex.md).",
        "",
    ]
    for entry, engine in made:
        language = LANGUAGE[entry.lang]
        lines += [
            f"## {entry.name} ({language})",
            "",
            f"![first page of {entry.name} in {language}](gallery/{entry.png})",
            "",
            f"`{entry.command}` ({engine}): {descriptions[entry.name]}.",
            "",
        ]
    return "\n".join(lines).rstrip() + "\n"


def html_part() -> str:
    """The part of the page about the HTML pages (docs/make_html_gallery.py writes it)."""
    old = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
    kept = re.search(r"<!-- html-gallery -->.*?<!-- /html-gallery -->", old, re.S)
    return "\n" + kept.group() + "\n" if kept else ""


def main() -> int:
    missing = [t for t in ("latexmk", "pdflatex", "xelatex", "pdftoppm") if not shutil.which(t)]
    if missing:
        print(f"make_gallery: not on PATH: {', '.join(missing)} (see .ci/run)", file=sys.stderr)
        return 1
    GALLERY.mkdir(exist_ok=True)
    made: list[tuple[Entry, str]] = []
    with tempfile.TemporaryDirectory(prefix="symattn-gallery-") as tmp:
        for entry in entries():
            engine = first_page_png(entry, Path(tmp))
            made.append((entry, engine))
            size = (GALLERY / entry.png).stat().st_size
            print(f"docs/gallery/{entry.png}  ({engine}, {size // 1024} kB)")
    wanted = {entry.png for entry, _ in made} | OTHERS
    for stale in sorted(GALLERY.glob("*.png")):
        if stale.name not in wanted:
            stale.unlink()
            print(f"removed docs/gallery/{stale.name}")
    PAGE.write_text(page(made) + html_part(), encoding="utf-8")
    print("docs/gallery.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
