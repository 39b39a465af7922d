"""Feedback in LaTeX compiles whatever a student wrote (reproducer r01): superscripts
(6.3379·10⁻²), ✓, bidi overrides and other characters pdflatex has no glyph for are
transliterated or shown as their code; the engine is chosen from all the text; and
``grade --feedback`` names a sheet that did not compile in the student's row."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest

import symattn
from symattn.check import check
from symattn.check.feedback import render_feedback_latex
from symattn.classroom import feedback_files
from symattn.render import render
from symattn.render.tex_text import text_escape

from .helpers import run_cli
from .test_latex_compile import _compile, _engine

TINY: dict[str, Any] = {
    "title": "Two tokens, causal",
    "tokens": ["I", "love"],
    "X": [[1, 0, 1], [0, 2, "1/2"]],
    "W_Q": [[1, 0], [0, 1], [1, 1]],
    "W_K": [[0, 1], [1, 0], [1, 1]],
    "W_V": [[1, 2], [0, 1], [2, 0]],
    "mask": "causal",
}
#: r01's answers, then unseen ones: other superscripts and subscripts, Greek, an accent
#: beyond Latin-1, Cyrillic, an emoji, a zero-width space, a math sign, an astral letter.
R01 = {"Q[1,1]": "6.3379·10⁻²", "Q[1,2]": "0.5✓", "Q[2,1]": "\u202e1"}
UNSEEN = {
    "Q[1,1]": "1.2×10⁻³ ≠ α₁",
    "Q[1,2]": "ǎ Ж 🙂",
    "Q[2,1]": "2\u200b.5 ✔ ⋅ 𝑥",
    "Q[2,2]": "x²⁺ⁿ Ω Α",
}
#: What pdflatex (T1, lmodern) sets: ASCII, Latin-1, Latin Extended-A, the usual punctuation.
PDFLATEX_SAFE = set(map(chr, range(0xA0, 0x180))) | set("–—‘’‚“”„†‡•…‰‹›€™←↑↓")


def _sheet(tmp_path: Path, answers: dict[str, str], name: str = "answers.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(answers, ensure_ascii=False), encoding="utf-8")
    return render_feedback_latex(check(symattn.derive(TINY), path), "en")


@pytest.mark.parametrize("answers", [R01, UNSEEN], ids=["r01", "unseen"])
def test_every_character_of_a_pdflatex_sheet_is_one_pdflatex_sets(
    tmp_path: Path, answers: dict[str, str]
) -> None:
    document = _sheet(tmp_path, answers)
    assert _engine(document) == "pdflatex"
    strange = {ch for ch in document if ord(ch) >= 0x80 and ch not in PDFLATEX_SAFE}
    assert not strange, sorted(strange)
    assert "\\textsuperscript{" in document


def test_the_transliterations() -> None:
    assert text_escape("6.3379·10⁻²") == "6.3379·10\\textsuperscript{\\ensuremath{-}2}"
    assert "\\checkmark" in text_escape("✓")
    assert text_escape("\u202e1") == "\\textbackslash{}u202e1"  # as the terminal shows it
    assert text_escape("x₁₂") == "x\\textsubscript{12}"
    assert text_escape("ǎ") == "\\v{a}" and text_escape("α") == "\\ensuremath{\\alpha}"
    assert text_escape("张伟") == "张伟"  # CJK is kept: xelatex sets it
    assert all(unicodedata.category(c)[0] != "C" for c in text_escape("a\u200bb\u2066"))


def test_the_engine_is_chosen_from_all_the_text(tmp_path: Path) -> None:
    """English words and ASCII answers, but the file's name (after the title) is CJK."""
    document = _sheet(tmp_path, {"Q[1,1]": "1"}, name="答案.json")
    assert "答案" in document
    assert _engine(document) == "xelatex" and "xeCJK" in document


@pytest.mark.slow
@pytest.mark.parametrize("answers", [R01, UNSEEN], ids=["r01", "unseen"])
def test_the_sheet_compiles_with_pdflatex(tmp_path: Path, answers: dict[str, str]) -> None:
    (tmp_path / "feedback.tex").write_text(_sheet(tmp_path, answers), encoding="utf-8")
    _compile(tmp_path, "feedback", "pdflatex")


@pytest.mark.slow
def test_a_derivation_titled_with_a_check_mark_compiles(tmp_path: Path) -> None:
    document = render(symattn.derive({**TINY, "title": "Lecture ✓ 10⁻² α ‮"}), "tex")
    assert _engine(document) == "pdflatex" and "\\usepackage{amssymb}" in document
    (tmp_path / "title.tex").write_text(document, encoding="utf-8")
    _compile(tmp_path, "title", "pdflatex")


@pytest.mark.slow
def test_a_cjk_file_name_compiles_with_xelatex(tmp_path: Path) -> None:
    document = _sheet(tmp_path, R01, name="答案.json")
    (tmp_path / "feedback.tex").write_text(document, encoding="utf-8")
    _compile(tmp_path, "feedback", "xelatex")


def test_grade_names_a_sheet_that_did_not_compile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    status, _, err = run_cli(
        ["exercises", "--seed", "1", "--count", "2", "-o", str(tmp_path / "week")]
    )
    assert status == 0, err
    subs = tmp_path / "subs"
    subs.mkdir()
    for folder in ("01", "02"):
        key = json.loads((tmp_path / "week/teacher" / folder / "answers.json").read_text())
        (subs / f"{folder}.json").write_text(json.dumps(key), encoding="utf-8")

    def fails_for_02(tex: Path) -> str | None:
        return f"{tex}: the PDF could not be made (latexmk exit 12)" if tex.stem == "02" else None

    monkeypatch.setattr(feedback_files, "compile_pdf", fails_for_02)
    monkeypatch.setattr(feedback_files.shutil, "which", lambda name: "/usr/bin/" + name)
    argv = ["grade", str(tmp_path / "week"), str(subs), "--feedback", str(tmp_path / "fb")]
    status, out, err = run_cli(argv)
    assert status == 1
    row = next(line for line in out.splitlines() if line.startswith("02"))
    assert "feedback sheet not made:" in row and "latexmk exit 12" in row
    assert "feedback sheet not made" not in next(x for x in out.splitlines() if x.startswith("01"))
    assert "02.tex: the PDF could not be made" in err
    status, out, _ = run_cli([*argv, "--format", "json"])
    students = {s["folder"]: s for s in json.loads(out)["students"]}
    assert "latexmk exit 12" in students["02"]["feedback_error"]
    assert "feedback_error" not in students["01"]
