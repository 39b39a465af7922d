"""The LaTeX output really compiles: every bundled example × lang × notation.

Each standalone document (``--format tex``) is written to a temporary directory and
compiled with latexmk, using the engine its first line names (``% compile with
pdflatex`` or ``% compile with xelatex ...``). A document fails when latexmk exits
non-zero, or when its .log holds an error line (``! …``), an ``Undefined control
sequence``, a ``Missing character`` (a glyph the font lacks, dropped silently by
xelatex), or an ``Overfull \\hbox`` more than 10 pt too wide (a formula running off
the page). The fragment (``--format latex``) is compiled inside a minimal document
that loads amsmath only (plus xeCJK for CJK text), which shows it needs nothing else.

The tests skip, with the reason, when latexmk, pdflatex or xelatex is not on PATH;
.ci/run installs them (TeX Live from Debian packages).
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import symattn
from symattn.derivation import Derivation
from symattn.examples import example_names, example_path
from symattn.render import render

LANGS = ("en", "zh")
NOTATIONS = ("matrix", "token")
CASES = [
    (name, lang, notation) for name in example_names() for lang in LANGS for notation in NOTATIONS
]

#: Seconds one latexmk run may take (xelatex's first run may build the font cache).
TIMEOUT = 240
#: An overfull box wider than this (in pt) is a formula running off the page.
OVERFULL_LIMIT = 10.0
#: The CJK font of the standalone documents (symattn.render.latex.CJK_FONT).
CJK_FONT = "Noto Serif CJK SC"

ENGINE_LINE = re.compile(r"^% compile with (pdflatex|xelatex)\b")
OVERFULL = re.compile(r"^Overfull \\hbox \((\d+(?:\.\d+)?)pt too wide\)")
LATEXMK_FLAG = {"pdflatex": "-pdf", "xelatex": "-xelatex"}


def _require(*tools: str) -> None:
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not on PATH (install TeX Live as .ci/run does)")


@functools.cache
def _derivation(name: str) -> Derivation:
    return symattn.derive(example_path(name))


def _document(name: str, lang: str, notation: str) -> str:
    return render(_derivation(name), "tex", lang=lang, notation=notation)


def _engine(document: str) -> str:
    match = ENGINE_LINE.match(document)
    assert match, f"first line names no engine: {document.splitlines()[0]!r}"
    return match.group(1)


def _clip(line: str, width: int = 240) -> str:
    return line if len(line) <= width else line[:width] + " …"


def _log_problems(log: str) -> list[str]:
    """The offending lines of a TeX log, each with the line or two that locate it."""
    lines = log.splitlines()
    problems: list[str] = []
    for i, line in enumerate(lines):
        if line.startswith("! ") or "Undefined control sequence" in line:
            context = lines[i : i + 3]  # the message, then "l.NN <source line>"
        elif line.startswith("Missing character"):
            context = [line]
        else:
            match = OVERFULL.match(line)
            if not match or float(match.group(1)) <= OVERFULL_LIMIT:
                continue
            context = lines[i : i + 2]  # the message, then the start of the box
        problems.append("\n    ".join(_clip(c) for c in context))
    return problems


def _compile(directory: Path, stem: str, engine: str) -> None:
    """Compile ``directory/stem.tex`` with latexmk; fail with the offending log lines."""
    _require("latexmk", engine)
    command = [
        "latexmk",
        "-norc",  # no personal or system latexmkrc: the same run everywhere
        LATEXMK_FLAG[engine],
        "-halt-on-error",
        "-interaction=nonstopmode",
        f"{stem}.tex",
    ]
    # Unwrapped log lines, so that an error is one line and can be quoted whole.
    env = {**os.environ, "max_print_line": "10000"}
    try:
        result = subprocess.run(
            command,
            cwd=directory,
            env=env,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{stem}: {' '.join(command)} took more than {TIMEOUT} s")
    log_path = directory / f"{stem}.log"
    log = log_path.read_text(encoding="utf-8", errors="replace") if log_path.exists() else ""
    problems = _log_problems(log)
    where = f"{stem}.tex compiled with {engine} in {directory}"
    if result.returncode != 0:
        detail = "\n  ".join(problems) or "\n  ".join(
            (result.stdout + result.stderr).splitlines()[-20:]
        )
        pytest.fail(f"{where}: latexmk exit status {result.returncode}\n  {detail}")
    if problems:
        pytest.fail(f"{where}: problems in the log:\n  " + "\n  ".join(problems))
    assert (directory / f"{stem}.pdf").stat().st_size > 0


@pytest.mark.slow
@pytest.mark.parametrize(("name", "lang", "notation"), CASES, ids=["-".join(c) for c in CASES])
def test_standalone_document_compiles(tmp_path: Path, name: str, lang: str, notation: str) -> None:
    document = _document(name, lang, notation)
    engine = _engine(document)
    if lang == "zh":
        assert engine == "xelatex", "a Chinese document must ask for xelatex"
    if document.isascii():
        assert engine == "pdflatex", "an ASCII-only document should compile with pdflatex"
    if engine == "xelatex":
        assert "\\usepackage{xeCJK}" in document and CJK_FONT in document
    stem = f"{name}-{lang}-{notation}"
    (tmp_path / f"{stem}.tex").write_text(document, encoding="utf-8")
    _compile(tmp_path, stem, engine)


@pytest.mark.slow
def test_ascii_document_compiles_with_pdflatex(tmp_path: Path) -> None:
    """lecture4 in English holds no CJK: pdflatex, T1 + lmodern, no xeCJK."""
    document = _document("lecture4", "en", "matrix")
    assert document.isascii()
    assert _engine(document) == "pdflatex"
    assert "xeCJK" not in document
    (tmp_path / "lecture4.tex").write_text(document, encoding="utf-8")
    _compile(tmp_path, "lecture4", "pdflatex")


def test_every_chinese_document_says_xelatex() -> None:
    for name in example_names():
        for notation in NOTATIONS:
            first = _document(name, "zh", notation).splitlines()[0]
            assert first.startswith("% compile with xelatex"), f"{name} zh {notation}: {first}"


WRAPPER = r"""\documentclass{article}
\usepackage{amsmath}
%(cjk)s
\begin{document}
\input{fragment}
\end{document}
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "lang", "engine"),
    [("lecture4", "en", "pdflatex"), ("seed", "zh", "xelatex")],
    ids=["lecture4-en-pdflatex", "seed-zh-xelatex"],
)
def test_fragment_needs_only_amsmath(tmp_path: Path, name: str, lang: str, engine: str) -> None:
    fragment = render(_derivation(name), "latex", lang=lang)
    assert fragment.startswith("% symattn derivation: needs \\usepackage{amsmath}")
    code = "\n".join(line for line in fragment.splitlines() if not line.startswith("%"))
    assert "\\documentclass" not in code and "\\usepackage" not in code
    if engine == "pdflatex":
        assert fragment.isascii(), "the pdflatex case needs an ASCII-only fragment"
        cjk = ""
    else:
        assert not fragment.isascii(), "the xelatex case needs a fragment with CJK text"
        cjk = f"\\usepackage{{xeCJK}}\n\\setCJKmainfont{{{CJK_FONT}}}"
    (tmp_path / "fragment.tex").write_text(fragment, encoding="utf-8")
    (tmp_path / "wrapper.tex").write_text(WRAPPER % {"cjk": cjk}, encoding="utf-8")
    _compile(tmp_path, "wrapper", engine)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("answers", "lang"),
    [
        ("answers-no-scaling.json", "en"),
        ("answers-slip.json", "zh"),
        ("answers-correct.json", "en"),
    ],
)
def test_feedback_sheet_compiles(tmp_path: Path, answers: str, lang: str) -> None:
    from symattn.check import check
    from symattn.check.feedback import render_feedback_latex

    root = Path(__file__).resolve().parent.parent
    result = check(_derivation("seed"), root / "docs" / "examples" / answers)
    document = render_feedback_latex(result, lang)
    engine = _engine(document)
    if lang == "zh":
        assert engine == "xelatex"
    stem = f"feedback-{lang}"
    (tmp_path / f"{stem}.tex").write_text(document, encoding="utf-8")
    _compile(tmp_path, stem, engine)


@pytest.mark.slow
def test_a_large_problem_breaks_lines_and_pages(tmp_path: Path) -> None:
    """n = d = 16: long sums break across lines, long displays across pages, and the
    elided matrices and heatmap compile (no Unicode ⋯ reaches pdflatex)."""
    n = 16
    problem = {
        key: [[(3 * i + 5 * j + k) % 7 - 3 for j in range(n)] for i in range(n)]
        for k, key in enumerate(("X", "W_Q", "W_K", "W_V"))
    }
    document = render(symattn.derive(problem), "tex")
    assert _engine(document) == "pdflatex" and "\\allowdisplaybreaks" in document
    (tmp_path / "large.tex").write_text(document, encoding="utf-8")
    _compile(tmp_path, "large", "pdflatex")
