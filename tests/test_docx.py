"""Word output (SPEC §12): ``derive … --format docx`` and ``check … --format docx``.

Every formula is a native Word equation (``m:oMath``: as many as the Markdown document has
formulas, so none was left as TeX), every step title a Word heading style, in English and
Chinese, for every bundled example and the topics that have no example; nothing of a
problem file reaches Word as anything but text.  The slow test opens the files in
LibreOffice and looks at the pages as a reader does.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import docx
import pytest

import symattn
from symattn.cli import main
from symattn.examples import example_names, example_path
from symattn.render import render
from symattn.render.markdown import math_fragments

from .helpers import run_cli
from .spreadsheet import convert, recalculating_profile
from .test_alibi import HEADS as ALIBI
from .test_window import BASE as WINDOW

MATH = "{http://schemas.openxmlformats.org/officeDocument/2006/math}oMath"


def _read(data: bytes) -> Any:
    assert data[:2] == b"PK"  # a zip: the Office Open XML container
    return docx.Document(io.BytesIO(data))


def _equations(document: Any) -> int:
    return sum(1 for _ in document.element.body.iter(MATH))


def _headings(document: Any, level: int) -> list[str]:
    return [p.text for p in document.paragraphs if p.style.name == f"Heading {level}"]


def _text(document: Any) -> str:
    return "\n".join(p.text for p in document.paragraphs)


PROBLEMS: dict[str, Any] = {name: example_path(name) for name in example_names()}
PROBLEMS["alibi"] = ALIBI
PROBLEMS["window"] = WINDOW


@pytest.mark.parametrize("name", sorted(PROBLEMS))
@pytest.mark.parametrize("lang", ["en", pytest.param("zh", marks=pytest.mark.slow)])
def test_every_formula_is_a_word_equation_and_every_step_a_heading(name: str, lang: str) -> None:
    d = symattn.derive(PROBLEMS[name], backward=name == "backward")
    markdown = render(d, "markdown", lang=lang)
    document = _read(render(d, "docx", lang=lang))
    assert _equations(document) == len(math_fragments(markdown))
    steps = [line[3:] for line in markdown.splitlines() if line.startswith("## ")]
    assert len(_headings(document, 1)) == 1
    assert [re.sub(r"\\(.)", r"\1", s) for s in steps] == _headings(document, 2)
    text = _text(document)
    assert "$$" not in text and "\\begin" not in text and "\\frac" not in text


def test_the_language_is_set_for_word() -> None:
    d = symattn.derive(example_path("seed"))
    for lang, tag in (("en", "en-US"), ("zh", "zh-CN")):
        parts = zipfile.ZipFile(io.BytesIO(render(d, "docx", lang=lang)))
        styles = parts.read("word/styles.xml").decode()
        assert f'w:val="{tag}"' in styles or f'w:eastAsia="{tag}"' in styles


def test_an_equation_is_editable_math_not_a_picture() -> None:
    data = render(symattn.derive(example_path("seed")), "docx")
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert not [n for n in names if n.startswith("word/media/")]
    body = zipfile.ZipFile(io.BytesIO(data)).read("word/document.xml").decode()
    # q_{1,1} = x_{1,1} w^Q_{1,1} + …: subscripts and fractions as OMML, not text
    assert "<m:sSub>" in body and "<m:f>" in body and "<m:m>" in body


@pytest.mark.parametrize(
    "title",
    [
        "$x$ and \\input{/etc/passwd}",
        "![x](/etc/passwd) <b>bold</b> `code` [link](http://example.com)",
        "```{=openxml}\n<w:p/>\n```",
    ],
)
def test_a_title_reaches_word_as_its_text(title: str) -> None:
    problem = {"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]], "title": title}
    data = render(symattn.derive(problem), "docx")
    document = _read(data)
    assert _headings(document, 1) == [" ".join(title.split())]
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert not [n for n in names if n.startswith("word/media/")]
    assert (
        "passwd"
        not in zipfile.ZipFile(io.BytesIO(data)).read("word/_rels/document.xml.rels").decode()
    )


def test_derive_writes_docx_with_o(tmp_path: Path) -> None:
    out = tmp_path / "d.docx"
    code, _, err = run_cli(["derive", "--example", "multihead", "--format", "docx", "-o", str(out)])
    assert code == 0, err
    document = _read(out.read_bytes())
    assert _equations(document) > 20


class _Terminal(io.StringIO):
    buffer = io.BytesIO()

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("stdout", [_Terminal, io.StringIO])
def test_docx_to_a_terminal_is_refused(stdout: type[io.StringIO]) -> None:
    """A terminal shows no bytes, and a text stream (a notebook's) holds none."""
    err = io.StringIO()
    with contextlib.redirect_stdout(stdout()), contextlib.redirect_stderr(err):
        code = main(["derive", "--example", "seed", "--format", "docx"])
    assert code == 2
    assert err.getvalue() == (
        "symattn: error: docx: a binary file; give -o FILE.docx (or redirect stdout)\n"
    )


def test_docx_to_a_pipe_is_the_file(tmp_path: Path) -> None:
    out = tmp_path / "piped.docx"
    with out.open("wb") as handle:
        done = subprocess.run(
            [sys.executable, "-m", "symattn", "derive", "--example", "seed", "--format", "docx"],
            stdout=handle,
            stderr=subprocess.PIPE,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    assert _equations(_read(out.read_bytes())) > 20


ANSWERS = {"Q": [[1, 0], [2, 1]], "scores": [[1.5, 2], [3, 4]]}


def test_check_writes_the_feedback_sheet_as_word(tmp_path: Path) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps(ANSWERS))
    out = tmp_path / "feedback.docx"
    code, _, err = run_cli(["check", "seed", str(answers), "--format", "docx", "-o", str(out)])
    assert code == 1, err  # wrong answers
    document = _read(out.read_bytes())
    text = _text(document)
    assert "Verdict: incorrect. The first wrong step is Queries." in text
    first, second = _headings(document, 2)[:2]
    assert first.startswith("Queries:") and first.endswith("incorrect ← first error")
    assert second.startswith("Attention scores:") and second.endswith("incorrect")
    assert _equations(document) >= 8  # the names of the entries and the derivation
    assert "\\" not in text


def test_check_of_a_folder_writes_one_word_sheet_per_file(tmp_path: Path) -> None:
    folder = tmp_path / "answers"
    folder.mkdir()
    (folder / "ada.json").write_text(json.dumps(ANSWERS))
    (folder / "bob.json").write_text(json.dumps({"Q": [[2, 0], [0, 2.5]]}))
    out = tmp_path / "sheets"
    code, _, err = run_cli(
        ["check", "seed", str(folder), "--format", "docx", "--lang", "zh", "-o", str(out)]
    )
    assert code == 1, err
    assert sorted(p.name for p in out.iterdir()) == ["ada.docx", "bob.docx"]
    assert "正确" in _text(_read((out / "bob.docx").read_bytes()))


@pytest.mark.slow
def test_libreoffice_shows_every_page_without_placeholders(tmp_path: Path) -> None:
    """Word's equations as another editor shows them: no ¿ (LibreOffice's mark of a
    missing operand), every step title, the numbers (docs/gallery has the pages)."""
    soffice = shutil.which("soffice")
    if soffice is None:
        pytest.skip("LibreOffice (soffice) is not installed")
    files = []
    for name, lang in (("seed", "en"), ("multihead", "zh"), ("causal", "en")):
        path = tmp_path / f"{name}-{lang}.docx"
        path.write_bytes(render(symattn.derive(example_path(name)), "docx", lang=lang))
        files.append(path)
    profile = recalculating_profile(tmp_path)  # its own profile: soffice runs side by side
    convert(files, tmp_path, "pdf", profile)
    for path in files:
        pdf = path.with_suffix(".pdf")
        text = subprocess.run(
            ["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True
        ).stdout
        assert "¿" not in text and "$$" not in text
        document = _read(path.read_bytes())
        for title in _headings(document, 2):
            assert title.split(":")[0] in text
        subprocess.run(
            [
                "pdftoppm",
                "-r",
                "50",
                "-png",
                "-f",
                "1",
                "-l",
                "1",
                str(pdf),
                str(pdf.with_suffix("")),
            ],
            check=True,
        )
        assert list(tmp_path.glob(pdf.stem + "*.png"))
